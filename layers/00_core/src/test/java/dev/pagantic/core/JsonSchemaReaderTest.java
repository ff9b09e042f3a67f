package dev.pagantic.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
    void annotationsAreIgnoredAndTheTypeIsInferredFromPropertiesOrEnum() {
        Schema schema = Schema.fromJsonSchema(Map.of("title", "T", "$schema", "x",
                "properties", Map.of("color", Map.of("enum", List.of("red"), "format", "anything"))));

        assertThat(schema.type()).isEqualTo("object");
        assertThat(schema.properties().get("color")).isEqualTo(Schema.enumOf("red"));
    }

    @Test
    void unsupportedKeywordsAndShapesAreRefusedNamingWhere() {
        assertRefused(Map.of("type", "object", "properties", Map.of("n", Map.of("type", "integer", "minimum", 3))),
                "/properties/n");
        assertRefused(Map.of("type", List.of("string", "null")), "/type");
        assertRefused(Map.of("type", "object", "additionalProperties", true), "");
        assertRefused(Map.of("type", "array", "items", "string"), "/items");
        assertRefused(Map.of("type", "string", "maxLength", -1), "/maxLength");
        assertRefused(Map.of("type", "color"), "");
    }

    private static void assertRefused(Map<String, ?> document, String pointer) {
        assertThatThrownBy(() -> Schema.fromJsonSchema(document)).isInstanceOfSatisfying(PaganticException.class,
                e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.details()).containsEntry("pointer", pointer);
                });
    }
}
