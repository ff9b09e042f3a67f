package dev.pagantic.core;

import static dev.pagantic.core.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    private static Schema schema(String type, Map<String, Schema> properties, List<String> required,
                                 List<String> enumValues, Optional<Schema> items) {
        return new Schema(type, "", properties, required, enumValues, items, OptionalInt.empty(), OptionalInt.empty(),
                OptionalInt.empty(), Optional.empty());
    }

    @Nested
    class Builder {

        @Test
        void sentimentSchemaHasTheDeclaredShape() {
            Schema schema = sentiment();

            assertThat(schema.type()).isEqualTo("object");
            assertThat(schema.properties().keySet()).containsExactly("sentiment", "confidence");
            assertThat(schema.required()).containsExactly("sentiment", "confidence");
            assertThat(schema.properties().get("sentiment").enumValues())
                    .containsExactly("positive", "negative", "neutral");
            assertThat(schema.properties().get("confidence").type()).isEqualTo("number");
        }

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
            @SuppressWarnings("unchecked")
            Map<String, Object> sentiment = (Map<String, Object>) properties.get("sentiment");
            assertThat(sentiment.keySet()).containsExactly("type", "enum");
        }

        @Test
        void optionalPropertiesAreDeclaredButNotRequired() {
            Schema schema = Schema.object()
                    .required("query", Schema.string())
                    .optional("limit", Schema.integer())
                    .description("search arguments")
                    .build();

            assertThat(schema.properties().keySet()).containsExactly("query", "limit");
            assertThat(schema.required()).containsExactly("query");
            assertThat(schema.description()).isEqualTo("search arguments");
            assertThat(schema.toJsonSchema()).containsEntry("description", "search arguments")
                    .containsEntry("required", List.of("query"));
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
            assertThat(people.properties().get("people").items()).contains(person);
        }

        @Test
        void arrayOfArraysIsAllowed() {
            Schema matrix = Schema.arrayOf(Schema.arrayOf(Schema.number()));

            assertThat(matrix.toJsonSchema()).isEqualTo(Map.of("type", "array",
                    "items", Map.of("type", "array", "items", Map.of("type", "number"))));
        }

        @Test
        void primitiveFactoriesHaveTheirJsonSchemaTypes() {
            assertThat(List.of(Schema.string(), Schema.number(), Schema.integer(), Schema.bool(), Schema.nullValue()))
                    .extracting(Schema::type)
                    .containsExactly("string", "number", "integer", "boolean", "null");
        }
    }

    @Nested
    class Bounds {

        @Test
        void itemCountAndMaxLengthAppearInTheJsonSchema() {
            Schema tags = Schema.arrayOf(Schema.string().withMaxLength(12)).withItemCount(1, 3);

            assertThat(tags.toJsonSchema()).containsEntry("minItems", 1).containsEntry("maxItems", 3);
            assertThat(tags.items().orElseThrow().toJsonSchema()).containsEntry("maxLength", 12);
        }

        @Test
        void minItemsAloneLeavesTheMaximumOpen() {
            Schema atLeastTwo = Schema.arrayOf(Schema.integer()).withMinItems(2);

            assertThat(atLeastTwo.minItems()).hasValue(2);
            assertThat(atLeastTwo.maxItems()).isEmpty();
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
    class Validation {

        @ParameterizedTest
        @ValueSource(strings = {"str", "Object", "float", "any", " "})
        void unknownTypeIsRejected(String type) {
            PaganticException failure = assertConfigInvalid(
                    () -> schema(type, Map.of(), List.of(), List.of(), Optional.empty()));

            assertThat(failure.description()).contains("unknown schema type");
        }

        @ParameterizedTest
        @ValueSource(strings = {"object", "array", "string", "number", "integer", "boolean", "null", ""})
        void everySupportedTypeIsAccepted(String type) {
            assertThat(schema(type, Map.of(), List.of(), List.of(), Optional.empty()).type()).isEqualTo(type);
        }

        @Test
        void requiredPropertyMustBeDeclared() {
            PaganticException failure = assertConfigInvalid(() -> schema("object",
                    Map.of("name", Schema.string()), List.of("nmae"), List.of(), Optional.empty()));

            assertThat(failure.description()).contains("'nmae'");
        }

        @Test
        void requiredNamesMustBeDistinct() {
            assertConfigInvalid(() -> schema("object", Map.of("name", Schema.string()), List.of("name", "name"),
                    List.of(), Optional.empty()));
        }

        @ParameterizedTest
        @ValueSource(strings = {"object", "string", "number", ""})
        void itemsOnANonArrayAreRejected(String type) {
            assertConfigInvalid(() -> schema(type, Map.of(), List.of(), List.of(), Optional.of(Schema.string())));
        }

        @ParameterizedTest
        @ValueSource(strings = {"array", "string", "integer", ""})
        void propertiesOnANonObjectAreRejected(String type) {
            assertConfigInvalid(() -> schema(type, Map.of("x", Schema.string()), List.of(), List.of(),
                    Optional.empty()));
        }

        @ParameterizedTest
        @ValueSource(strings = {"number", "integer", "boolean", "object", "array"})
        void enumOnANonStringIsRejected(String type) {
            assertConfigInvalid(() -> schema(type, Map.of(), List.of(), List.of("a"), Optional.empty()));
        }

        @Test
        void enumWithoutATypeIsAccepted() {
            assertThat(schema("", Map.of(), List.of(), List.of("a", "b"), Optional.empty()).enumValues())
                    .containsExactly("a", "b");
        }

        @Test
        void duplicateEnumValuesAreRejected() {
            PaganticException failure = assertConfigInvalid(() -> Schema.enumOf("positive", "negative", "positive"));

            assertThat(failure.description()).contains("distinct");
        }

        @Test
        void laterChangesToTheCallersCollectionsDoNotChangeTheSchema() {
            Map<String, Schema> properties = new LinkedHashMap<>(Map.of("a", Schema.string()));
            List<String> required = new ArrayList<>(List.of("a"));
            Schema schema = schema("object", properties, required, List.of(), Optional.empty());

            properties.put("b", Schema.number());
            required.clear();

            assertThat(schema.properties()).containsOnlyKeys("a");
            assertThat(schema.required()).containsExactly("a");
            assertThatThrownBy(() -> schema.properties().put("c", Schema.bool()))
                    .isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void jsonSchemaDocumentIsUnmodifiable() {
            Map<String, Object> json = sentiment().toJsonSchema();

            assertThatThrownBy(() -> json.put("title", "x")).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Nested
    class DescriptionsAndDefaults {

        @Test
        void withDescriptionReturnsADescribedCopy() {
            Schema plain = Schema.number();
            Schema described = plain.withDescription("between 0 and 1");

            assertThat(described.description()).isEqualTo("between 0 and 1");
            assertThat(described.type()).isEqualTo("number");
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

            assertThat(schema.defaultValue()).contains("celsius");
            assertThat(schema.enumValues()).containsExactly("celsius", "fahrenheit");
            assertThat(schema.toJsonSchema()).containsEntry("default", "celsius");
            assertThat(schema.toJsonSchema().keySet()).containsExactly("type", "enum", "default");
        }

        @Test
        void defaultValueIsDeepCopied() {
            List<Object> tags = new ArrayList<>(List.of("a"));
            Schema schema = Schema.arrayOf(Schema.string()).withDefault(tags);

            tags.add("b");

            assertThat(schema.defaultValue()).contains(List.of("a"));
            assertThatThrownBy(() -> ((List<?>) schema.defaultValue().orElseThrow()).clear())
                    .isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void defaultThatIsNotAJsonValueIsRejected() {
            assertConfigInvalid(() -> Schema.string().withDefault(new StringBuilder("x")));
        }
    }
}
