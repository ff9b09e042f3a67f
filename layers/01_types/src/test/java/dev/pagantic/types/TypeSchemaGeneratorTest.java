package dev.pagantic.types;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pagantic.types.TestTypes.Contact;
import dev.pagantic.types.TestTypes.Invoice;
import dev.pagantic.types.TestTypes.LineItem;
import dev.pagantic.types.TestTypes.Node;
import dev.pagantic.types.TestTypes.Priority;
import dev.pagantic.types.TestTypes.Renamed;
import dev.pagantic.types.TestTypes.Route;
import dev.pagantic.types.TestTypes.Scalars;
import dev.pagantic.types.TestTypes.SparseContact;
import dev.pagantic.types.TestTypes.Times;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;

class TypeSchemaGeneratorTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final TypeSchemaGenerator generator = TypeSchemaGenerator.create();

    private static Map<String, Object> json(String text) {
        return JSON.readValue(text, new TypeReference<Map<String, Object>>() {
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> property(Map<String, Object> schema, String name) {
        return (Map<String, Object>) ((Map<String, Object>) schema.get("properties")).get(name);
    }

    private static List<String> propertyNames(Map<String, Object> schema) {
        return ((Map<?, ?>) schema.get("properties")).keySet().stream().map(Object::toString).toList();
    }

    @Test
    void aRecordBecomesAClosedObjectWithEveryComponentRequiredInDeclarationOrder() {
        assertThat(generator.jsonSchema(LineItem.class)).isEqualTo(json("""
                {"$schema": "https://json-schema.org/draft/2020-12/schema",
                 "type": "object",
                 "properties": {
                   "product": {"type": "string", "description": "What was bought"},
                   "quantity": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647},
                   "price": {"type": "number"}},
                 "required": ["product", "quantity", "price"],
                 "additionalProperties": false}"""));
        assertThat(propertyNames(generator.jsonSchema(LineItem.class))).containsExactly("product", "quantity", "price");
    }

    @Test
    void nestedRecordsListsSetsMapsUuidsAndDatesHaveTheirJsonForms() {
        Map<String, Object> schema = generator.jsonSchema(Invoice.class);

        assertThat(schema.get("description")).isEqualTo("An invoice as issued");
        assertThat(property(schema, "issued")).isEqualTo(json("""
                {"type": "string", "format": "date"}"""));
        assertThat(property(schema, "items")).isEqualTo(json("""
                {"type": "array", "items": {"type": "object",
                  "properties": {"product": {"type": "string", "description": "What was bought"},
                                 "quantity": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}, "price": {"type": "number"}},
                  "required": ["product", "quantity", "price"], "additionalProperties": false}}"""));
        assertThat(property(schema, "counts")).isEqualTo(json("""
                {"type": "object", "additionalProperties": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}}"""));
        assertThat(property(schema, "id")).isEqualTo(json("""
                {"type": "string", "format": "uuid"}"""));
        assertThat(property(schema, "tags")).isEqualTo(json("""
                {"type": "array", "items": {"type": "string"}}"""));
    }

    @Test
    void anOptionalComponentIsRequiredAndNullableAsJacksonWritesIt() {
        Map<String, Object> schema = generator.jsonSchema(Invoice.class);

        assertThat(property(schema, "note")).isEqualTo(json("""
                {"type": ["string", "null"]}"""));
        assertThat(schema.get("required")).isEqualTo(
                List.of("number", "issued", "priority", "items", "note", "counts", "id", "tags"));
    }

    @Test
    void aNullableAnnotationAndTheOptionalPrimitivesMakeAComponentNullable() {
        Map<String, Object> schema = generator.jsonSchema(Contact.class);

        assertThat(property(schema, "name")).isEqualTo(json("""
                {"type": "string"}"""));
        assertThat(property(schema, "email")).isEqualTo(json("""
                {"type": ["string", "null"]}"""));
        assertThat(property(schema, "age")).isEqualTo(json("""
                {"type": ["integer", "null"], "minimum": -2147483648, "maximum": 2147483647}"""));
        assertThat(schema.get("required")).isEqualTo(List.of("name", "email", "age"));
    }

    @Test
    void withNonAbsentInclusionAnAbsentableComponentMayBeLeftOutAndIsNeverNull() {
        TypeSchemaGenerator sparse = TypeSchemaGenerator.builder().inclusion(JsonInclude.Include.NON_ABSENT).build();

        Map<String, Object> schema = sparse.jsonSchema(Contact.class);

        assertThat(property(schema, "email")).isEqualTo(json("""
                {"type": "string"}"""));
        assertThat(property(schema, "age")).isEqualTo(json("""
                {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}"""));
        assertThat(schema.get("required")).isEqualTo(List.of("name"));
    }

    @Test
    void jsonIncludeOnTheClassOverridesTheGeneratorsInclusion() {
        Map<String, Object> schema = generator.jsonSchema(SparseContact.class);

        assertThat(property(schema, "email")).isEqualTo(json("""
                {"type": "string"}"""));
        assertThat(schema.get("required")).isEqualTo(List.of("name"));
    }

    @Test
    void theMappersDefaultInclusionIsFollowedWhenNoneIsGiven() {
        JsonMapper nonNull = JsonMapper.builder()
                .changeDefaultPropertyInclusion(include -> include.withValueInclusion(JsonInclude.Include.NON_NULL))
                .build();

        Map<String, Object> schema = TypeSchemaGenerator.builder().mapper(nonNull).build().jsonSchema(Contact.class);

        assertThat(schema.get("required")).isEqualTo(List.of("name"));
    }

    @Test
    void enumsListTheValuesTheMapperWritesForTheirConstants() {
        Map<String, Object> renamed = generator.jsonSchema(Renamed.class);

        assertThat(property(generator.jsonSchema(Invoice.class), "priority")).isEqualTo(json("""
                {"type": "string", "enum": ["LOW", "HIGH"]}"""));
        assertThat(property(renamed, "code")).isEqualTo(json("""
                {"type": "string", "enum": ["a-1", "B"]}"""));
        assertThat(property(renamed, "level")).isEqualTo(json("""
                {"type": "integer", "enum": [1, 2]}"""));
        JsonMapper toStrings = JsonMapper.builder().enable(EnumFeature.WRITE_ENUMS_USING_TO_STRING).build();
        assertThat(property(TypeSchemaGenerator.builder().mapper(toStrings).build().jsonSchema(Invoice.class),
                "priority")).isEqualTo(json("""
                {"type": "string", "enum": ["low", "high"]}"""));
    }

    @Test
    void jsonPropertyRenamesAndJsonIgnoreLeavesOut() {
        Map<String, Object> schema = generator.jsonSchema(Renamed.class);

        assertThat(propertyNames(schema)).containsExactly("full_name", "code", "level");
        assertThat(schema.get("required")).isEqualTo(List.of("full_name", "code", "level"));
    }

    @Test
    void javaTimeTypesFollowTheIsoFormsJacksonWrites() {
        Map<String, Object> schema = generator.jsonSchema(Times.class);

        assertThat(property(schema, "date")).isEqualTo(json("""
                {"type": "string", "format": "date"}"""));
        assertThat(property(schema, "offset")).isEqualTo(json("""
                {"type": "string", "format": "date-time"}"""));
        assertThat(property(schema, "instant")).isEqualTo(json("""
                {"type": "string", "format": "date-time"}"""));
        assertThat(property(schema, "zoned")).isEqualTo(json("""
                {"type": "string", "format": "date-time"}"""));
        assertThat(property(schema, "duration")).isEqualTo(json("""
                {"type": "string", "format": "duration"}"""));
        assertThat(property(schema, "time")).containsEntry("type", "string").containsKey("pattern")
                .doesNotContainKey("format");
        assertThat(property(schema, "local")).containsEntry("type", "string").containsKey("pattern")
                .doesNotContainKey("format");
        assertThat(property(schema, "offsetTime")).containsEntry("type", "string").containsKey("pattern")
                .doesNotContainKey("format");
    }

    @Test
    void whatJacksonWritesForTimesIsValidAgainstTheirSchemaAndLocalTimesWithAnOffsetAreNot() {
        Map<String, Object> schema = generator.jsonSchema(Times.class);
        Times times = new Times(LocalDate.of(2026, 2, 28), LocalTime.of(9, 30), LocalDateTime.of(2026, 2, 28, 23, 59,
                1, 500), OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneOffset.ofHours(2)),
                Instant.parse("2026-01-02T03:04:05Z"),
                ZonedDateTime.of(2026, 1, 2, 3, 4, 5, 0, ZoneId.of("Europe/Oslo")),
                OffsetTime.of(9, 30, 0, 0, ZoneOffset.UTC), Duration.ofMinutes(90));
        String written = generator.mapper().writeValueAsString(times);

        assertThat(Networknt.errors(schema, written)).isEmpty();
        assertThat(written).contains("\"09:30:00\"", "\"09:30Z\""); // OffsetTime without seconds: not RFC 3339
        assertThat(Networknt.errors(schema, written.replace("\"09:30:00\"", "\"09:30:00+01:00\""))).isNotEmpty();
    }

    @Test
    void numbersCharsBytesAndObjectHaveTheFormsJacksonReadsBack() {
        Map<String, Object> schema = generator.jsonSchema(Scalars.class);

        assertThat(property(schema, "amount")).isEqualTo(json("{\"type\": \"number\"}"));
        assertThat(property(schema, "count")).isEqualTo(json("{\"type\": \"integer\"}"));
        assertThat(property(schema, "initial")).isEqualTo(json("""
                {"type": "string", "maxLength": 1}"""));
        assertThat(property(schema, "bytes")).containsEntry("type", "string").containsKey("pattern");
        assertThat(property(schema, "anything")).isEqualTo(Map.of());
        assertThat(generator.jsonSchema(new TypeReference<Map<String, Object>>() {
        }.getType())).containsEntry("type", "object").containsEntry("additionalProperties", true);
        Scalars value = new Scalars(new BigDecimal("12.50"), BigInteger.TEN.pow(30), 'x', new byte[] {1, 2, 3, 4},
                Long.MAX_VALUE, 0.25, true, Map.of("any", List.of(1, "two")));
        assertThat(Networknt.errors(schema, generator.mapper().writeValueAsString(value))).isEmpty();
    }

    @Test
    void whatJacksonWritesForAnInvoiceIsValidAgainstItsSchemaWithAndWithoutTheOptionalNote() {
        Map<String, Object> schema = generator.jsonSchema(Invoice.class);
        Invoice invoice = new Invoice("INV-1", LocalDate.of(2026, 3, 1), Priority.HIGH,
                List.of(new LineItem("pen", 2, new BigDecimal("1.5"))), Optional.of("paid"), Map.of("pens", 2),
                UUID.fromString("2f1b6d1e-1111-4a7b-9c2d-0123456789ab"), Set.of("office"));

        assertThat(Networknt.errors(schema, generator.mapper().writeValueAsString(invoice))).isEmpty();
        assertThat(Networknt.errors(schema, generator.mapper().writeValueAsString(new Invoice("INV-2",
                invoice.issued(), Priority.LOW, List.of(), Optional.empty(), Map.of(), invoice.id(), Set.of()))))
                .isEmpty();
        assertThat(Networknt.errors(schema, generator.mapper().writeValueAsString(invoice)
                .replace("\"HIGH\"", "\"high\""))).isNotEmpty();
    }

    @Test
    void aTypeUsedTwiceIsDefinedOnceUnderDefs() {
        Map<String, Object> schema = generator.jsonSchema(Route.class);

        assertThat(schema.get("$defs")).isEqualTo(Map.of("LineItem", generatorWithoutDialect(LineItem.class)));
        assertThat(property(schema, "from")).isEqualTo(Map.of("$ref", "#/$defs/LineItem"));
        assertThat(property(schema, "to")).isEqualTo(Map.of("$ref", "#/$defs/LineItem"));
    }

    @Test
    void aRecursiveTypeRefersToTheRoot() {
        Map<String, Object> schema = generator.jsonSchema(Node.class);

        assertThat(property(schema, "children")).isEqualTo(json("""
                {"type": "array", "items": {"$ref": "#"}}"""));
        assertThat(Networknt.errors(schema, """
                {"name": "a", "children": [{"name": "b", "children": []}]}""")).isEmpty();
        assertThat(Networknt.errors(schema, """
                {"name": "a", "children": [{"name": "b"}]}""")).isNotEmpty();
    }

    @Test
    void aGenericTypeHasTheSchemaOfItsArguments() {
        Map<String, Object> schema = generator.jsonSchema(new TypeReference<List<LineItem>>() {
        }.getType());

        assertThat(schema.get("type")).isEqualTo("array");
        assertThat(schema.get("items")).isEqualTo(generatorWithoutDialect(LineItem.class));
    }

    @Test
    void anObjectOfNamedPropertiesSharesOneDefsAtItsRoot() {
        Map<String, Object> schema = generator.objectSchema(List.of(
                new TypeSchemaGenerator.Property("from", LineItem.class, "Where it starts", true),
                new TypeSchemaGenerator.Property("to", LineItem.class, "", true),
                new TypeSchemaGenerator.Property("limit", new TypeReference<Optional<Integer>>() {
                }.getType(), "", false)));

        assertThat(schema).isEqualTo(json("""
                {"$defs": {"LineItem": %s},
                 "type": "object",
                 "properties": {
                   "from": {"$ref": "#/$defs/LineItem", "description": "Where it starts"},
                   "to": {"$ref": "#/$defs/LineItem"},
                   "limit": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}},
                 "required": ["from", "to"],
                 "additionalProperties": false}""".formatted(
                JSON.writeValueAsString(generatorWithoutDialect(LineItem.class)))));
    }

    @Test
    void descriptionsAndOmittablePropertiesCanComeFromTheCallersOwnAnnotations() {
        TypeSchemaGenerator custom = TypeSchemaGenerator.builder()
                .descriptions(field -> Optional.of("the " + field.getName()))
                .omittable(field -> field.getName().equals("price"))
                .build();

        Map<String, Object> schema = custom.jsonSchema(LineItem.class);

        assertThat(property(schema, "quantity")).containsEntry("description", "the quantity");
        assertThat(schema.get("required")).isEqualTo(List.of("product", "quantity"));
    }

    private Map<String, Object> generatorWithoutDialect(Class<?> type) {
        Map<String, Object> schema = new LinkedHashMap<>(generator.jsonSchema(type));
        schema.remove("$schema");
        return schema;
    }

    @Test
    void intsShortsAndBytesCarryTheirRangeSoThatNoAnswerOverflowsThemAndLongsDoNot() {
        record Sized(int i, Short s, byte b, long l) {
        }
        Map<String, Object> schema = generator.jsonSchema(Sized.class);

        assertThat(property(schema, "i")).isEqualTo(json("""
                {"type": "integer", "minimum": -2147483648, "maximum": 2147483647}"""));
        assertThat(property(schema, "s")).isEqualTo(json("""
                {"type": "integer", "minimum": -32768, "maximum": 32767}"""));
        assertThat(property(schema, "b")).isEqualTo(json("""
                {"type": "integer", "minimum": -128, "maximum": 127}"""));
        assertThat(property(schema, "l")).isEqualTo(json("""
                {"type": "integer"}"""));
    }

    @Test
    void optionalPrimitivesAreTheirNumbers() {
        record Counted(OptionalInt count) {
        }

        assertThat(property(generator.jsonSchema(Counted.class), "count")).isEqualTo(json("""
                {"type": ["integer", "null"], "minimum": -2147483648, "maximum": 2147483647}"""));
    }

    @Test
    void oneGeneratorServesConcurrentCallersWithTheSameSchemasAsOneAtATime() throws Exception {
        List<Class<?>> types = List.of(Invoice.class, Contact.class, Node.class, Route.class, Times.class,
                Scalars.class, Renamed.class, LineItem.class);
        Map<Class<?>, Map<String, Object>> sequential = new HashMap<>();
        types.forEach(type -> sequential.put(type, TypeSchemaGenerator.create().jsonSchema(type)));
        TypeSchemaGenerator shared = TypeSchemaGenerator.create();

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> same = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                for (Class<?> type : types) {
                    same.add(pool.submit(() -> shared.jsonSchema(type).equals(sequential.get(type))));
                }
            }
            for (var result : same) {
                assertThat(result.get(1, TimeUnit.MINUTES)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
