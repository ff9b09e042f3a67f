package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class SchemaValidatorTest {

    private static final Schema ORDER = Schema.object()
            .required("id", Schema.integer())
            .required("items", Schema.arrayOf(Schema.object()
                    .required("sku", Schema.string().withMaxLength(8))
                    .required("status", Schema.enumOf("open", "shipped"))
                    .build()).withMinItems(1))
            .optional("note", Schema.string())
            .build();

    private final SchemaValidator validator = new SchemaValidator();

    @Test
    void aConformingDocumentHasNoViolations() {
        assertThat(validator.violations("{\"id\": 7, \"items\": [{\"sku\": \"A1\", \"status\": \"open\"}]}", ORDER))
                .isEmpty();
    }

    @Test
    void violationsCarryTheJsonPathOfTheOffendingValue() {
        List<Violation> violations = validator.violations(
                "{\"id\": \"seven\", \"items\": [{\"sku\": \"much-too-long\", \"status\": \"open\"}]}", ORDER);

        assertThat(violations).extracting(Violation::path, Violation::keyword)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("$.id", "type"),
                        org.assertj.core.groups.Tuple.tuple("$.items[0].sku", "maxLength"));
    }

    @Test
    void aMissingRequiredPropertyIsNamedByItsPath() {
        List<Violation> violations = validator.violations("{\"items\": [{\"sku\": \"A1\"}]}", ORDER);

        assertThat(violations).extracting(Violation::path, Violation::keyword).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("$.id", "required"),
                org.assertj.core.groups.Tuple.tuple("$.items[0].status", "required"));
        assertThat(violations).allSatisfy(violation -> assertThat(violation.message()).contains("required"));
    }

    @Test
    void objectsAreClosedSoAnUndeclaredPropertyIsAViolation() {
        List<Violation> violations = validator.violations(
                "{\"id\": 1, \"items\": [{\"sku\": \"A\", \"status\": \"open\"}], \"extra\": true}", ORDER);

        assertThat(violations).singleElement().satisfies(violation -> {
            assertThat(violation.keyword()).isEqualTo("additionalProperties");
            assertThat(violation.message()).contains("extra");
        });
    }

    @Test
    void schemaViolationsFailWithSchemaInvalidListingThePaths() {
        assertThatThrownBy(() -> validator.validate("{\"id\": 1, \"items\": []}", ORDER))
                .isInstanceOfSatisfying(PaganticException.class, error -> {
                    assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
                    assertThat(error.details().get("paths")).isEqualTo(List.of("$.items"));
                    assertThat(error.details()).containsKey("violations");
                });
    }

    @Test
    void onlyEnumViolationsFailWithEnumUnrecognized() {
        assertThatThrownBy(() -> validator.validate(
                "{\"id\": 1, \"items\": [{\"sku\": \"A\", \"status\": \"lost\"}]}", ORDER))
                .isInstanceOfSatisfying(PaganticException.class, error -> {
                    assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_ENUM_UNRECOGNIZED);
                    assertThat(error.details().get("paths")).isEqualTo(List.of("$.items[0].status"));
                });
    }

    @Test
    void enumAndOtherViolationsTogetherFailWithSchemaInvalid() {
        assertThatThrownBy(() -> validator.validate("{\"items\": [{\"sku\": \"A\", \"status\": \"lost\"}]}", ORDER))
                .isInstanceOfSatisfying(PaganticException.class,
                        error -> assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID));
    }

    @Test
    void invalidJsonFailsWithJsonInvalid() {
        assertThatThrownBy(() -> validator.validate("{\"id\": 1,}", ORDER))
                .isInstanceOfSatisfying(PaganticException.class, error -> {
                    assertThat(error.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
                    assertThat(error.details()).containsKeys("offset", "line", "column");
                });
    }

    @Test
    void compiledSchemasAreCachedPerSchemaValueAndBounded() {
        SchemaValidator small = new SchemaValidator(2);
        small.violations("{}", ORDER);
        small.violations("{}", Schema.object().required("id", Schema.integer()).build()); // a second schema
        small.violations("{}", Schema.object().required("id", Schema.integer()).build()); // equal value: cached
        assertThat(small.cachedSchemas()).isEqualTo(2);

        small.violations("{}", Schema.object().required("other", Schema.integer()).build());
        assertThat(small.cachedSchemas()).isEqualTo(2);
    }

    @Test
    void oneValidatorCanBeSharedByConcurrentCallers() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<Violation>>> results = new java.util.ArrayList<>();
            for (int i = 0; i < 64; i++) {
                String json = i % 2 == 0 ? "{\"id\": 1, \"items\": [{\"sku\": \"A\", \"status\": \"open\"}]}" : "{}";
                results.add(pool.submit(() -> validator.violations(json, ORDER)));
            }
            for (int i = 0; i < results.size(); i++) {
                assertThat(results.get(i).get()).hasSize(i % 2 == 0 ? 0 : 2);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aCacheSizeBelowOneIsAConfigurationError() {
        assertThatThrownBy(() -> new SchemaValidator(0))
                .isInstanceOfSatisfying(PaganticException.class,
                        error -> assertThat(error.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void formatsAreAssertionsAndTheLenientOnesAreMadeExact() {
        Schema contact = Schema.fromJsonSchema(java.util.Map.of("type", "object", "properties", java.util.Map.of(
                "mail", java.util.Map.of("type", "string", "format", "email"),
                "site", java.util.Map.of("type", "string", "format", "uri"),
                "wait", java.util.Map.of("type", "string", "format", "duration"))));

        assertThat(validator.violations("{\"mail\": \"a@example.com\", \"site\": \"https://example.com:8080/x\", "
                + "\"wait\": \"P1Y2M\"}", contact)).isEmpty();
        assertThat(validator.violations("{\"mail\": \"not an address\"}", contact))
                .extracting(Violation::path, Violation::keyword)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("$.mail", "format"));
        assertThat(validator.violations("{\"site\": \"http://example.com:abc/path\"}", contact)).isNotEmpty();
        assertThat(validator.violations("{\"wait\": \"P1Y2D\"}", contact)).isNotEmpty();
    }

    @Test
    void aSchemaReadFromJsonIsValidatedAsWrittenRecursiveReferencesIncluded() {
        Schema tree = Schema.fromJsonSchema(java.util.Map.of("type", "object",
                "properties", java.util.Map.of("v", java.util.Map.of("type", "integer", "minimum", 0),
                        "kids", java.util.Map.of("type", "array", "items", java.util.Map.of("$ref", "#")))));

        assertThat(validator.violations("{\"v\": 1, \"kids\": [{\"v\": 2, \"extra\": true}]}", tree)).isEmpty();
        assertThat(validator.violations("{\"v\": 1, \"kids\": [{\"v\": -2}]}", tree))
                .extracting(Violation::path).containsExactly("$.kids[0].v");
    }

    @Test
    void openApiIntegerFormatsCheckTheRangeAndTheOtherAnnotationFormatsPass() {
        Schema numbers = Schema.fromJsonSchema(java.util.Map.of("type", "object", "properties", java.util.Map.of(
                "small", java.util.Map.of("type", "integer", "format", "int32"),
                "big", java.util.Map.of("type", "integer", "format", "int64"),
                "ratio", java.util.Map.of("type", "number", "format", "double"),
                "code", java.util.Map.of("type", "string", "format", "starts_with", "pattern", "^ab"))));

        assertThat(validator.violations("{\"small\": 2147483647, \"big\": -9223372036854775808, \"ratio\": 1e300, "
                + "\"code\": \"abc\"}", numbers)).isEmpty();
        assertThat(validator.violations("{\"small\": 2147483648, \"big\": 9223372036854775808}", numbers))
                .extracting(Violation::path, Violation::keyword).containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("$.small", "format"),
                        org.assertj.core.groups.Tuple.tuple("$.big", "format"));
        assertThat(validator.violations("{\"code\": \"xyz\"}", numbers)).extracting(Violation::keyword)
                .containsExactly("pattern");
    }

    @Test
    void aDraft07DocumentIsValidatedByWhatItMeans() {
        Schema list = Schema.fromJsonSchema(java.util.Map.of("$schema", "http://json-schema.org/draft-07/schema#",
                "definitions", java.util.Map.of("item", java.util.Map.of("type", "string", "format", "date")),
                "type", "array", "items", java.util.Map.of("$ref", "#/definitions/item")));

        assertThat(validator.violations("[\"2024-02-29\"]", list)).isEmpty();
        assertThat(validator.violations("[\"2023-02-29\", 3]", list)).extracting(Violation::path)
                .containsExactlyInAnyOrder("$[0]", "$[1]");
    }
}
