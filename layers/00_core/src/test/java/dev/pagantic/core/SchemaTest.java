package dev.pagantic.core;

import static dev.pagantic.core.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class SchemaTest {

    /** The specification's structured-output example, in a few lines. */
    private static Schema sentiment() {
        return Schema.object()
                .required("sentiment", Schema.enumOf("positive", "negative", "neutral"))
                .required("confidence", Schema.number())
                .build();
    }

    private static Map<String, Object> orderedMap(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Nested
    class Builder {

        @Test
        void sentimentSchemaBecomesTheExpectedJsonSchemaInDeclarationOrder() {
            Map<String, Object> expected = orderedMap(
                    "type", "object",
                    "properties", orderedMap(
                            "sentiment", orderedMap("type", "string",
                                    "enum", List.of("positive", "negative", "neutral")),
                            "confidence", orderedMap("type", "number")),
                    "required", List.of("sentiment", "confidence"),
                    "additionalProperties", false);

            Map<String, Object> json = sentiment().toJsonSchema();

            assertThat(json).isEqualTo(expected);
            assertThat(json.keySet()).containsExactly("type", "properties", "required", "additionalProperties");
            @SuppressWarnings("unchecked")
            Map<String, Object> properties = (Map<String, Object>) json.get("properties");
            assertThat(properties.keySet()).containsExactly("sentiment", "confidence");
        }

        @Test
        void optionalPropertiesAreDeclaredButNotRequired() {
            Schema schema = Schema.object()
                    .required("query", Schema.string())
                    .optional("limit", Schema.integer())
                    .description("search arguments")
                    .build();

            assertThat(schema.description()).isEqualTo("search arguments");
            assertThat(schema.toJsonSchema()).containsEntry("description", "search arguments")
                    .containsEntry("required", List.of("query"));
            assertThat(List.copyOf(((Map<?, ?>) schema.toJsonSchema().get("properties")).keySet())).isEqualTo(List.of("query", "limit"));
        }

        @Test
        void emptyObjectIsClosedToAnyProperty() {
            assertThat(Schema.object().build().toJsonSchema())
                    .isEqualTo(Map.of("type", "object", "additionalProperties", false));
        }

        @Test
        void duplicatePropertyNamesAreRejected() {
            Schema.ObjectBuilder builder = Schema.object().required("name", Schema.string());

            assertConfigInvalid(() -> builder.optional("name", Schema.integer()));
            assertConfigInvalid(() -> builder.required("name", Schema.string()));
        }

        @Test
        void emptyOrNullPropertyNamesAreRejected() {
            assertConfigInvalid(() -> Schema.object().required("", Schema.string()));
            assertConfigInvalid(() -> Schema.object().optional(null, Schema.string()));
        }

        @Test
        void nestedArraysOfObjectsBecomeNestedJsonSchema() {
            Schema person = Schema.object()
                    .required("name", Schema.string())
                    .optional("age", Schema.integer())
                    .build();
            Schema people = Schema.object().required("people", Schema.arrayOf(person)).build();

            Map<String, Object> expected = orderedMap(
                    "type", "object",
                    "properties", orderedMap("people", orderedMap(
                            "type", "array",
                            "items", orderedMap(
                                    "type", "object",
                                    "properties", orderedMap(
                                            "name", orderedMap("type", "string"),
                                            "age", orderedMap("type", "integer")),
                                    "required", List.of("name"),
                                    "additionalProperties", false))),
                    "required", List.of("people"),
                    "additionalProperties", false);

            assertThat(people.toJsonSchema()).isEqualTo(expected);
        }

        @Test
        void primitiveFactoriesHaveTheirJsonSchemaTypes() {
            assertThat(List.of(Schema.string(), Schema.number(), Schema.integer(), Schema.bool(), Schema.nullValue()))
                    .extracting(Schema::types)
                    .containsExactly(Set.of("string"), Set.of("number"), Set.of("integer"), Set.of("boolean"),
                            Set.of("null"));
            assertThat(Schema.any().toJsonSchema()).isEmpty();
            assertThat(Schema.any().types()).isEmpty();
        }

        @Test
        void aSchemaWithReferencesCannotBeNestedInAnother() {
            Schema tree = Schema.fromJsonSchema(Map.of("$defs", Map.of("node", Map.of("type", "object")),
                    "$ref", "#/$defs/node"));

            PaganticException failure = assertConfigInvalid(() -> Schema.arrayOf(tree));

            assertThat(failure.description()).contains("$ref").contains("only be a root");
        }
    }

    @Nested
    class Bounds {

        @Test
        void itemCountAndMaxLengthAppearInTheJsonSchema() {
            Schema tags = Schema.arrayOf(Schema.string().withMaxLength(12)).withItemCount(1, 3);

            assertThat(tags.toJsonSchema()).containsEntry("minItems", 1).containsEntry("maxItems", 3)
                    .containsEntry("items", Map.of("type", "string", "maxLength", 12));
        }

        @Test
        void minItemsAloneLeavesTheMaximumOpen() {
            Schema atLeastTwo = Schema.arrayOf(Schema.integer()).withMinItems(2);

            assertThat(atLeastTwo.toJsonSchema()).containsEntry("minItems", 2).doesNotContainKey("maxItems");
        }

        @Test
        void itemBoundsOnlyApplyToArrays() {
            assertConfigInvalid(() -> Schema.string().withItemCount(0, 1));
        }

        @Test
        void maxLengthOnlyAppliesToStrings() {
            assertConfigInvalid(() -> Schema.number().withMaxLength(3));
        }

        @Test
        void maxItemsBelowMinItemsIsRejected() {
            assertConfigInvalid(() -> Schema.arrayOf(Schema.string()).withItemCount(3, 2));
        }

        @Test
        void negativeBoundsAreRejected() {
            assertConfigInvalid(() -> Schema.arrayOf(Schema.string()).withMinItems(-1));
            assertConfigInvalid(() -> Schema.string().withMaxLength(-1));
        }
    }

    @Nested
    class Values {

        @Test
        void duplicateEnumValuesAreRejected() {
            PaganticException failure = assertConfigInvalid(() -> Schema.enumOf("positive", "negative", "positive"));

            assertThat(failure.description()).contains("distinct");
        }

        @Test
        void anEnumNeedsAValue() {
            assertConfigInvalid(Schema::enumOf);
        }

        @Test
        void equalDocumentsAreEqualSchemasWithEqualHashes() {
            Schema read = Schema.fromJsonSchema(sentiment().toJsonSchema());

            assertThat(read).isEqualTo(sentiment()).hasSameHashCodeAs(sentiment());
            assertThat(read).isNotEqualTo(Schema.object().required("sentiment", Schema.string()).build());
        }

        @Test
        void laterChangesToTheCallersDocumentDoNotChangeTheSchema() {
            Map<String, Object> properties = new LinkedHashMap<>(Map.of("a", Map.of("type", "string")));
            List<Object> required = new ArrayList<>(List.of("a"));
            Schema schema = Schema.fromJsonSchema(Map.of("type", "object", "properties", properties,
                    "required", required));

            properties.put("b", Map.of("type", "number"));
            required.clear();

            assertThat(List.copyOf(((Map<?, ?>) schema.toJsonSchema().get("properties")).keySet())).isEqualTo(List.of("a"));
            assertThat(schema.toJsonSchema().get("required")).isEqualTo(List.of("a"));
        }

        @Test
        void jsonSchemaDocumentIsUnmodifiable() {
            Map<String, Object> json = sentiment().toJsonSchema();

            assertThatThrownBy(() -> json.put("title", "x")).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void localReferencesResolveToTheirTargets() {
            Schema schema = Schema.fromJsonSchema(Map.of("$defs", Map.of("a/b", Map.of("type", "integer"),
                    "tilde~", true), "properties", Map.of("x", Map.of("$ref", "#/$defs/a~1b"))));

            assertThat(schema.resolve("#/$defs/a~1b")).contains(Map.of("type", "integer"));
            assertThat(schema.resolve("#/$defs/tilde~0")).contains(true);
            assertThat(schema.resolve("#")).contains(schema.toJsonSchema());
            assertThat(schema.resolve("#/$defs/missing")).isEmpty();
            assertThat(schema.resolve("other.json#/a")).isEmpty();
        }
    }

    @Nested
    class DescriptionsAndDefaults {

        @Test
        void withDescriptionReturnsADescribedCopy() {
            Schema plain = Schema.number();
            Schema described = plain.withDescription("between 0 and 1");

            assertThat(described.description()).isEqualTo("between 0 and 1");
            assertThat(described.types()).containsExactly("number");
            assertThat(plain.description()).isEmpty();
            assertThat(described.toJsonSchema()).isEqualTo(Map.of("type", "number", "description", "between 0 and 1"));
            assertThat(described.toJsonSchema().keySet()).containsExactly("type", "description");
        }

        @Test
        void descriptionOfANestedPropertyAppearsInTheJsonSchema() {
            Schema schema = Schema.object()
                    .required("confidence", Schema.number().withDescription("0 to 1"))
                    .build();

            assertThat(schema.toJsonSchema().get("properties"))
                    .isEqualTo(Map.of("confidence", Map.of("type", "number", "description", "0 to 1")));
        }

        @Test
        void withDefaultKeepsTheValueAndShowsItInTheJsonSchema() {
            Schema schema = Schema.enumOf("celsius", "fahrenheit").withDefault("celsius");

            assertThat(schema.toJsonSchema()).containsEntry("default", "celsius")
                    .containsEntry("enum", List.of("celsius", "fahrenheit"));
            assertThat(schema.toJsonSchema().keySet()).containsExactly("type", "enum", "default");
        }

        @Test
        void defaultValueIsDeepCopied() {
            List<Object> tags = new ArrayList<>(List.of("a"));
            Schema schema = Schema.arrayOf(Schema.string()).withDefault(tags);

            tags.add("b");

            assertThat(schema.toJsonSchema().get("default")).isEqualTo(List.of("a"));
            assertThatThrownBy(() -> ((List<?>) schema.toJsonSchema().get("default")).clear())
                    .isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void defaultThatIsNotAJsonValueIsRejected() {
            assertConfigInvalid(() -> Schema.string().withDefault(new StringBuilder("x")));
        }
    }
}
