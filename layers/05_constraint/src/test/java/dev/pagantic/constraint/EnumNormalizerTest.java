package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnumNormalizerTest {

    private static final Schema TICKET = Schema.object()
            .required("status", Schema.enumOf("open", "in_progress", "Closed"))
            .optional("tags", Schema.arrayOf(Schema.enumOf("bug", "feature")))
            .optional("history", Schema.arrayOf(Schema.object()
                    .required("status", Schema.enumOf("open", "in_progress", "Closed"))
                    .optional("weight", Schema.number())
                    .build()))
            .optional("note", Schema.string())
            .build();

    @Test
    void enumValuesGetTheirCanonicalSpellingIgnoringCaseAndSurroundingWhitespace() {
        EnumNormalization result = EnumNormalizer.normalize("{\"status\": \" OPEN \"}", TICKET);

        assertThat(result.json()).isEqualTo("{\"status\": \"open\"}");
        assertThat(result.changes()).containsExactly(new EnumChange("$.status", " OPEN ", "open"));
    }

    @Test
    void enumValuesAreNormalisedAtAnyDepthOfTheSchema() {
        String json = "{\"status\": \"closed\", \"tags\": [\"BUG\", \"Feature\"], "
                + "\"history\": [{\"status\": \"IN_PROGRESS\"}, {\"status\": \"open\"}]}";

        EnumNormalization result = EnumNormalizer.normalize(json, TICKET);

        assertThat(result.json()).isEqualTo("{\"status\": \"Closed\", \"tags\": [\"bug\", \"feature\"], "
                + "\"history\": [{\"status\": \"in_progress\"}, {\"status\": \"open\"}]}");
        assertThat(result.changes()).extracting(EnumChange::path)
                .containsExactly("$.status", "$.tags[0]", "$.tags[1]", "$.history[0].status");
    }

    @Test
    void everythingButTheEnumValuesIsPreservedExactlyIncludingNumberText() {
        String json = "{ \"history\" : [ {\"weight\": 1.10, \"status\":\"OPEN\"},{\"weight\":1e2,\"status\":\"open\"}, "
                + "{\"weight\": 12345678901234567890, \"status\": \"open\"} ],\n\t\"note\": \"OPEN\", \"status\": \"open\"}";

        String normalized = EnumNormalizer.normalize(json, TICKET).json();

        assertThat(normalized).isEqualTo(json.replace("\"status\":\"OPEN\"", "\"status\":\"open\""));
        assertThat(normalized).contains("1.10", "1e2", "12345678901234567890", "\"note\": \"OPEN\"");
    }

    @Test
    void inputNeedingNoChangeIsReturnedAsIs() {
        String json = "{\"status\":   \"open\", \"extra\": 1.50}";

        EnumNormalization result = EnumNormalizer.normalize(json, TICKET);

        assertThat(result.json()).isSameAs(json);
        assertThat(result.changed()).isFalse();
    }

    @Test
    void anUnknownValueIsLeftForTheValidator() {
        EnumNormalization result = EnumNormalizer.normalize("{\"status\": \"done\"}", TICKET);

        assertThat(result.json()).isEqualTo("{\"status\": \"done\"}");
        assertThat(result.changed()).isFalse();
    }

    @Test
    void aValueMatchingTwoEnumValuesIgnoringCaseIsLeftAlone() {
        Schema ambiguous = Schema.object().required("answer", Schema.enumOf("Yes", "yes", "no")).build();

        assertThat(EnumNormalizer.normalize("{\"answer\": \"YES\"}", ambiguous).json())
                .isEqualTo("{\"answer\": \"YES\"}");
        assertThat(EnumNormalizer.normalize("{\"answer\": \"NO\"}", ambiguous).json())
                .isEqualTo("{\"answer\": \"no\"}");
    }

    @Test
    void valuesOutsideTheSchemaOrOfOtherTypesAreNotTouched() {
        String json = "{\"status\": 3, \"unknown\": {\"status\": \"OPEN\"}, \"tags\": \"BUG\"}";

        assertThat(EnumNormalizer.normalize(json, TICKET).json()).isSameAs(json);
    }

    @Test
    void canonicalValuesWithCharactersThatNeedEscapingAreWrittenAsValidJson() {
        Schema quoted = Schema.object().required("q", Schema.enumOf("say \"hi\"", "tab\there")).build();

        String normalized = EnumNormalizer.normalize("{\"q\": \"SAY \\\"HI\\\"\"}", quoted).json();

        assertThat(normalized).isEqualTo("{\"q\": \"say \\\"hi\\\"\"}");
        assertThat(JsonRepair.isValidJson(normalized)).isTrue();
    }

    @Test
    void aTopLevelEnumIsNormalised() {
        assertThat(EnumNormalizer.normalize(" \"Bug\" ", Schema.enumOf("bug", "feature")).json()).isEqualTo(" \"bug\" ");
    }

    @Test
    void invalidJsonIsRefusedWithJsonInvalid() {
        assertThatThrownBy(() -> EnumNormalizer.normalize("{\"status\": open}", TICKET))
                .isInstanceOfSatisfying(PaganticException.class,
                        error -> assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID));
    }

    @Test
    void aSchemaWithoutEnumsIsRecognised() {
        assertThat(EnumNormalizer.hasEnums(TICKET)).isTrue();
        assertThat(EnumNormalizer.hasEnums(Schema.object().required("a", Schema.string()).build())).isFalse();
    }

    @Test
    void aSchemaWithJsonNullsInItIsWalkedLikeAnyOther() {
        Map<String, Object> mood = new java.util.LinkedHashMap<>();
        mood.put("anyOf", List.of(Map.of("enum", List.of("calm", "busy")), Map.of("type", "null")));
        mood.put("default", null); // Pydantic writes this for an optional field
        Schema schema = Schema.fromJsonSchema(Map.of("type", "object", "properties", Map.of("mood", mood)));

        assertThat(EnumNormalizer.hasEnums(schema)).isTrue();
        assertThat(ConstraintPipeline.builder().schema(schema).build().process("{\"mood\": \"Calm\"}").json())
                .isEqualTo("{\"mood\": \"calm\"}");
    }
}
