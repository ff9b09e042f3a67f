package dev.pagantic.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonSchemaReaderTest {

    private static final Schema PERSON = Schema.object()
            .description("a person")
            .required("name", Schema.string().withMaxLength(20))
            .optional("mood", Schema.enumOf("happy", "sad"))
            .required("tags", Schema.arrayOf(Schema.string()).withItemCount(1, 3))
            .required("age", Schema.integer().withDefault(30))
            .build();

    @Test
    void aSchemasJsonSchemaDocumentReadsBackAsTheSameSchema() {
        assertThat(Schema.fromJsonSchema(PERSON.toJsonSchema())).isEqualTo(PERSON);
    }

    @Test
    void theSchemasPeopleWriteAreReadAsTheyAre() {
        Map<String, Object> pydantic = new LinkedHashMap<>();
        pydantic.put("$defs", Map.of("Pet", Map.of("type", "object", "title", "Pet",
                "properties", Map.of("name", Map.of("type", "string", "pattern", "^[A-Z][a-z]+$")),
                "required", List.of("name"))));
        pydantic.put("type", "object");
        pydantic.put("properties", Map.of(
                "age", Map.of("type", List.of("integer", "null"), "minimum", 0, "exclusiveMaximum", 150),
                "pet", Map.of("anyOf", List.of(Map.of("$ref", "#/$defs/Pet"), Map.of("type", "null")),
                        "default", Map.of()),
                "born", Map.of("type", "string", "format", "date", "examples", List.of("2001-02-03")),
                "tags", Map.of("type", "array", "prefixItems", List.of(Map.of("const", "first")),
                        "items", Map.of("type", "string", "minLength", 1), "uniqueItems", true),
                "ratio", Map.of("type", "number", "multipleOf", new BigDecimal("0.01"), "deprecated", true),
                "extra", Map.of("type", "object", "additionalProperties", Map.of("type", "integer"),
                        "minProperties", 1, "dependentRequired", Map.of("a", List.of("b")))));
        pydantic.put("required", List.of("age", "pet"));
        pydantic.put("additionalProperties", true);
        pydantic.put("$comment", "generated");

        Schema schema = Schema.fromJsonSchema(pydantic);

        assertThat(schema.toJsonSchema()).isEqualTo(pydantic);
        assertThat(schema.toJsonSchema().keySet()).containsExactlyElementsOf(pydantic.keySet());
    }

    @Test
    void recursiveReferencesAreAccepted() {
        Schema tree = Schema.fromJsonSchema(Map.of("type", "object",
                "properties", Map.of("children", Map.of("type", "array", "items", Map.of("$ref", "#")))));

        assertThat(tree.resolve("#")).contains(tree.toJsonSchema());
    }

    @Test
    void booleanSchemasAreAcceptedWhereverASchemaIs() {
        Schema schema = Schema.fromJsonSchema(Map.of("properties", Map.of("never", false, "anything", true),
                "items", false, "not", true));

        assertThat(schema.toJsonSchema()).containsEntry("items", false);
    }

    @Test
    void unknownKeywordsAreRefusedNamingTheKeywordAndItsPointer() {
        assertRefused(Map.of("type", "object", "properties", Map.of("n", Map.of("type", "integer",
                "nullable", true))), "/properties/n/nullable", "nullable");
        assertRefused(Map.of("x-vendor", 1), "/x-vendor", "x-vendor");
        assertRefused(Map.of("$anchor", "a"), "/$anchor", "$anchor");
        assertRefused(Map.of("$dynamicRef", "#a"), "/$dynamicRef", "$dynamicRef");
        assertRefused(Map.of("anyOf", List.of(Map.of("discriminator", Map.of()))), "/anyOf/0/discriminator",
                "discriminator");
    }

    @Test
    void malformedKeywordValuesAreRefusedNamingWhere() {
        assertRefused(Map.of("type", "color"), "/type", "type");
        assertRefused(Map.of("type", List.of("string", "string")), "/type", "type");
        assertRefused(Map.of("type", "array", "items", "string"), "/items", "items");
        assertRefused(Map.of("type", "string", "maxLength", -1), "/maxLength", "maxLength");
        assertRefused(Map.of("minimum", "3"), "/minimum", "minimum");
        assertRefused(Map.of("multipleOf", 0), "/multipleOf", "multipleOf");
        assertRefused(Map.of("required", List.of("a", "a")), "/required", "required");
        assertRefused(Map.of("anyOf", List.of()), "/anyOf", "anyOf");
        assertRefused(Map.of("pattern", "a("), "/pattern", "pattern");
        assertRefused(Map.of("patternProperties", Map.of("[", true)), "/patternProperties/[", "patternProperties");
        assertRefused(Map.of("enum", "red"), "/enum", "enum");
    }

    @Test
    void referencesMustBeLocalAndResolve() {
        assertRefused(Map.of("$ref", "https://example.com/schema.json"), "/$ref", "$ref");
        assertRefused(Map.of("properties", Map.of("a", Map.of("$ref", "#/$defs/missing"))), "/properties/a",
                "$ref");
        assertRefused(Map.of("$defs", Map.of("a", Map.of("$id", "inner"))), "/$defs/a/$id", "$id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"hostname", "idn-hostname", "idn-email", "uri-template", "regex"})
    void formatsThatCannotBeCheckedExactlyAreRefused(String format) {
        assertRefused(Map.of("type", "string", "format", format), "/format", "format");
    }

    @Test
    void unknownFormatsAreRefused() {
        assertRefused(Map.of("format", "colour"), "/format", "format");
    }

    @Test
    void draft202012AndDraft07AreReadAndOtherDialectsRefused() {
        assertThat(Schema.fromJsonSchema(Map.of("$schema", Schema.DIALECT)).toJsonSchema())
                .containsEntry("$schema", Schema.DIALECT);
        Map<String, Object> zod = Map.of("$schema", "http://json-schema.org/draft-07/schema#", "type", "object",
                "properties", Map.of("node", Map.of("$ref", "#/definitions/node")),
                "definitions", Map.of("node", Map.of("type", "string")));
        assertThat(Schema.fromJsonSchema(zod).resolve("#/definitions/node")).contains(Map.of("type", "string"));
        assertRefused(Map.of("$schema", "http://json-schema.org/draft-04/schema#"), "/$schema", "$schema");
    }

    @Test
    void draft07KeywordsWhoseMeaningChangedAreRefusedRatherThanReadThe202012Way() {
        String draft07 = "http://json-schema.org/draft-07/schema#";
        assertRefused(Map.of("$schema", draft07, "items", List.of(Map.of("type", "string"))), "/items", "items");
        assertRefused(Map.of("$schema", draft07, "additionalItems", false), "/additionalItems", "additionalItems");
        assertRefused(Map.of("$schema", draft07, "dependencies", Map.of()), "/dependencies", "dependencies");
    }

    @Test
    void schemasNestedTooDeeplyAreRefused() {
        Map<String, Object> schema = Map.of("type", "string");
        for (int i = 0; i < JsonSchemaReader.MAX_DEPTH + 2; i++) {
            schema = Map.of("items", schema);
        }
        Map<String, Object> deep = schema;

        assertThatThrownBy(() -> Schema.fromJsonSchema(deep)).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.description()).contains("nested deeper"));
    }

    private static void assertRefused(Map<String, ?> document, String pointer, String keyword) {
        assertThatThrownBy(() -> Schema.fromJsonSchema(document)).isInstanceOfSatisfying(PaganticException.class,
                e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.details()).containsEntry("pointer", pointer).containsEntry("keyword", keyword);
                    assertThat(e.description()).contains(pointer);
                });
    }
}
