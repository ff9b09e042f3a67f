package dev.pagantic.inference.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The grammar of each grammar-enforced keyword, on the schemas people write. */
class SchemaKeywordsGrammarTest {

    private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper.builder()
            .build();

    private static SchemaGrammar grammarOf(Map<String, ?> document) {
        return SchemaGrammar.of(Schema.fromJsonSchema(document));
    }

    /** The grammar of a schema written as JSON text, so that properties keep their order. */
    @SuppressWarnings("unchecked")
    private static SchemaGrammar grammarOf(String json) {
        return grammarOf((Map<String, Object>) JSON.readValue(json, Map.class));
    }

    @Test
    void aNullableFieldAsZodAndPydanticWriteItAcceptsItsTypeAndNull() {
        GbnfGrammar union = grammarOf(Map.of("type", List.of("string", "null"))).grammar();
        GbnfGrammar anyOf = grammarOf(Map.of("anyOf", List.of(Map.of("type", "integer"), Map.of("type", "null"))))
                .grammar();

        assertThat(union.accepts("\"x\"")).isTrue();
        assertThat(union.accepts("null")).isTrue();
        assertThat(union.accepts("1")).isFalse();
        assertThat(anyOf.accepts("-12")).isTrue();
        assertThat(anyOf.accepts("null")).isTrue();
        assertThat(anyOf.accepts("\"x\"")).isFalse();
    }

    @Test
    void integerBoundsAreDigitRangesSoNoIntegerOutsideThemCanBeWritten() {
        Random random = new Random(17);
        for (int trial = 0; trial < 40; trial++) {
            long low = random.nextInt(4001) - 2000;
            long high = low + random.nextInt(3000);
            boolean exclusive = random.nextBoolean();
            GbnfGrammar grammar = grammarOf(Map.of("type", "integer",
                    exclusive ? "exclusiveMinimum" : "minimum", exclusive ? low - 1 : low,
                    exclusive ? "exclusiveMaximum" : "maximum", exclusive ? high + 1 : high)).grammar();
            for (long n = low - 30; n <= low + 30; n++) {
                assertThat(grammar.accepts(Long.toString(n))).as("%d in [%d, %d]", n, low, high)
                        .isEqualTo(n >= low && n <= high);
            }
            for (long n = high - 30; n <= high + 30; n++) {
                assertThat(grammar.accepts(Long.toString(n))).as("%d in [%d, %d]", n, low, high)
                        .isEqualTo(n >= low && n <= high);
            }
        }
    }

    @Test
    void zodsIntegerBoundsOfSixteenDigitsAreExactToTheLastDigit() {
        BigInteger max = new BigInteger("9007199254740991");
        GbnfGrammar grammar = grammarOf(Map.of("type", "integer", "minimum", max.negate(), "maximum", max)).grammar();

        assertThat(grammar.accepts(max.toString())).isTrue();
        assertThat(grammar.accepts(max.add(BigInteger.ONE).toString())).isFalse();
        assertThat(grammar.accepts(max.negate().toString())).isTrue();
        assertThat(grammar.accepts("0")).isTrue();
        assertThat(grammar.accepts("-0")).isFalse();
        assertThat(grammar.accepts("007")).isFalse();
    }

    @Test
    void aPatternIsCompiledIntoTheGrammarWithJsonEscapes() {
        GbnfGrammar code = grammarOf(Map.of("type", "string", "pattern", "^[A-Z]{2}-\\d{3}$")).grammar();
        GbnfGrammar quoted = grammarOf(Map.of("type", "string", "pattern", "^say \"[a-z]+\"\\\\?$")).grammar();
        GbnfGrammar unanchored = grammarOf(Map.of("type", "string", "pattern", "ab|cd")).grammar();

        assertThat(code.accepts("\"AB-123\"")).isTrue();
        assertThat(code.accepts("\"AB-1234\"")).isFalse();
        assertThat(code.accepts("\"ab-123\"")).isFalse();
        assertThat(quoted.accepts("\"say \\\"hi\\\"\"")).isTrue();
        assertThat(quoted.accepts("\"say \\\"hi\\\"\\\\\"")).isTrue();
        assertThat(unanchored.accepts("\"xxabyy\"")).isTrue();
        assertThat(unanchored.accepts("\"xxcd\"")).isTrue();
        assertThat(unanchored.accepts("\"xxbc\"")).isFalse();
    }

    @Test
    void aPatternAGrammarCannotExpressIsRefusedNamingItsPointer() {
        for (String pattern : List.of("^(a)\\1$", "^(?=a)a$", "\\bword\\b", "a^b")) {
            Schema schema = Schema.fromJsonSchema(Map.of("properties", Map.of("p", Map.of("type", "string",
                    "pattern", pattern))));

            assertThatThrownBy(() -> SchemaGrammar.of(schema)).as(pattern)
                    .isInstanceOfSatisfying(PaganticException.class, refused -> {
                        assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                        assertThat(refused.details()).containsEntry("pointer", "/properties/p/pattern")
                                .containsEntry("keyword", "pattern");
                        assertThat(refused.getMessage()).contains("grammar");
                    });
        }
    }

    @Test
    void datesTimesAndUuidsAreWrittenInTheirFormat() {
        GbnfGrammar date = grammarOf(Map.of("type", "string", "format", "date")).grammar();
        GbnfGrammar dateTime = grammarOf(Map.of("type", "string", "format", "date-time")).grammar();
        GbnfGrammar uuid = grammarOf(Map.of("type", "string", "format", "uuid")).grammar();

        assertThat(date.accepts("\"2024-02-29\"")).isTrue();
        assertThat(date.accepts("\"2024-13-01\"")).isFalse();
        assertThat(dateTime.accepts("\"2024-02-29T23:59:60.5+01:00\"")).isTrue();
        assertThat(dateTime.accepts("\"2024-02-29 23:59\"")).isFalse();
        assertThat(uuid.accepts("\"123e4567-e89b-12d3-a456-426614174000\"")).isTrue();
        assertThat(uuid.accepts("\"123e4567e89b12d3a456426614174000\"")).isFalse();
    }

    @Test
    void recursiveReferencesBecomeRecursiveRules() {
        SchemaGrammar tree = grammarOf("""
                {"$defs": {"node": {"type": "object", "properties": {"v": {"type": "integer"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                  "required": ["v"], "additionalProperties": false}},
                 "$ref": "#/$defs/node"}""");

        assertThat(tree.exact()).isTrue();
        assertThat(tree.grammar().accepts("{\"v\":1,\"kids\":[{\"v\":2,\"kids\":[{\"v\":3}]},{\"v\":4}]}")).isTrue();
        assertThat(tree.grammar().accepts("{\"v\":1,\"kids\":[{\"kids\":[]}]}")).isFalse();
    }

    @Test
    void allOfMergesObjectsAndOneOfLeavesItsExclusivityToTheValidator() {
        SchemaGrammar merged = grammarOf("""
                {"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                           {"properties": {"b": {"type": "boolean"}}, "required": ["b"]}]}""");
        Schema contradictory = Schema.fromJsonSchema(Map.of("allOf", List.of(
                Map.of("type", "object", "required", List.of("a")),
                Map.of("properties", Map.of("b", true), "additionalProperties", false))));
        SchemaGrammar oneOf = grammarOf(Map.of("oneOf", List.of(Map.of("type", "integer"),
                Map.of("minimum", 2))));

        assertThat(merged.grammar().accepts("{\"a\":1,\"b\":true}")).isTrue();
        assertThat(merged.grammar().accepts("{\"a\":1}")).isFalse();
        assertThat(merged.grammar().accepts("{\"a\":1,\"b\":2}")).isFalse();
        assertThat(merged.grammar().accepts("{\"a\":1,\"b\":true,\"c\":0}")).as("open: no branch closes it").isTrue();
        assertThat(merged.exact()).isTrue();
        assertThatThrownBy(() -> SchemaGrammar.of(contradictory)).as("a required property another branch forbids")
                .hasMessageContaining("no JSON value satisfies it");
        assertThat(oneOf.validatedAfter()).as("exclusivity, and a minimum that numbers with a fraction may break")
                .containsExactlyInAnyOrder("/oneOf", "/oneOf/1/minimum");
    }

    @Test
    void openObjectsTakeFurtherKeysOtherThanTheDeclaredOnesAndAdditionalSchemasApplyToThem() {
        GbnfGrammar open = grammarOf(Map.of("type", "object", "properties", Map.of("n", Map.of("type", "integer")),
                "additionalProperties", Map.of("type", "boolean"))).grammar();

        assertThat(open.accepts("{\"n\":1,\"x\":true,\"y\":false}")).isTrue();
        assertThat(open.accepts("{\"x\":true}")).isTrue();
        assertThat(open.accepts("{\"n\":1,\"x\":2}")).isFalse();
        assertThat(open.accepts("{\"n\":1,\"n\":true}")).as("a declared key never passes as an additional one")
                .isFalse();
    }

    @Test
    void propertyCountsArePartOfTheMemberChain() {
        GbnfGrammar counted = grammarOf("""
                {"type": "object", "properties": {"a": {}, "b": {}}, "minProperties": 2, "maxProperties": 3}""")
                .grammar();

        assertThat(counted.accepts("{\"a\":1}")).isFalse();
        assertThat(counted.accepts("{\"a\":1,\"b\":2}")).isTrue();
        assertThat(counted.accepts("{\"a\":1,\"z\":2}")).isTrue();
        assertThat(counted.accepts("{\"a\":1,\"b\":2,\"y\":3}")).isTrue();
        assertThat(counted.accepts("{\"a\":1,\"b\":2,\"y\":3,\"z\":4}")).isFalse();
    }

    @Test
    void prefixItemsFixThePositionsAndItemsFalseEndsTheArray() {
        GbnfGrammar tuple = grammarOf("""
                {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false,
                 "minItems": 1}""").grammar();

        assertThat(tuple.accepts("[\"a\",1]")).isTrue();
        assertThat(tuple.accepts("[\"a\"]")).isTrue();
        assertThat(tuple.accepts("[]")).isFalse();
        assertThat(tuple.accepts("[1,\"a\"]")).isFalse();
        assertThat(tuple.accepts("[\"a\",1,2]")).isFalse();
    }

    @Test
    void enumsAndConstsOfAnyJsonValueAreListedValuesEqualAsJsonSchemaSays() {
        GbnfGrammar values = grammarOf(Map.of("enum", List.of("red", 1.0, Map.of("k", List.of(1, "x")), false)))
                .grammar();
        GbnfGrammar typed = grammarOf(Map.of("type", "string", "enum", List.of("red", 1, "blue"), "maxLength", 3))
                .grammar();

        assertThat(values.accepts("\"red\"")).isTrue();
        assertThat(values.accepts("1")).as("1.0 is the integer 1").isTrue();
        assertThat(values.accepts("{\"k\": [1, \"x\"]}")).isTrue();
        assertThat(values.accepts("false")).isTrue();
        assertThat(values.accepts("true")).isFalse();
        assertThat(typed.accepts("\"red\"")).isTrue();
        assertThat(typed.accepts("\"blue\"")).as("longer than maxLength").isFalse();
        assertThat(typed.accepts("1")).as("not a string").isFalse();
    }

    @Test
    void keywordsAGrammarCannotCarryAreListedAsValidatedAfter() {
        SchemaGrammar grammar = grammarOf(Map.of("type", "object", "properties", Map.of(
                "n", Map.of("type", "number", "multipleOf", 0.3, "minimum", 0),
                "tags", Map.of("type", "array", "uniqueItems", true),
                "mail", Map.of("type", "string", "format", "email")),
                "dependentRequired", Map.of("n", List.of("tags"))));

        assertThat(grammar.exact()).isFalse();
        assertThat(grammar.validatedAfter()).containsExactlyInAnyOrder("/dependentRequired",
                "/properties/n/minimum", "/properties/n/multipleOf", "/properties/tags/uniqueItems",
                "/properties/mail/format");
    }

    @Test
    void aWholeMultipleOfDividingAPowerOfTenIsTheIntegersLastDigits() {
        for (int step : new int[] {2, 4, 5, 8, 10, 20, 25, 40, 50, 125, 250, 1000}) {
            SchemaGrammar grammar = grammarOf(Map.of("type", "number", "multipleOf", step));
            assertThat(grammar.exact()).as("multipleOf %d", step).isTrue();
            for (int n = -2100; n <= 2100; n += 7) {
                assertThat(grammar.grammar().accepts(Integer.toString(n))).as("%d multipleOf %d", n, step)
                        .isEqualTo(n % step == 0);
            }
            assertThat(grammar.grammar().accepts(Long.toString(1_000_000_000_000_000L - step))).isTrue();
        }
        GbnfGrammar five = grammarOf(Map.of("type", "number", "multipleOf", 5)).grammar();
        assertThat(five.accepts("0")).isTrue();
        assertThat(five.accepts("-0")).isFalse();
        assertThat(five.accepts("7.5")).as("not a multiple").isFalse();
        assertThat(five.accepts("10.0")).as("a whole step's multiples are written as integers").isFalse();
    }

    @Test
    void aWholeMultipleOfOnABoundedRangeListsItsMultiples() {
        SchemaGrammar grammar = grammarOf(Map.of("type", "integer", "multipleOf", 7, "exclusiveMinimum", -50,
                "maximum", 100));

        assertThat(grammar.exact()).isTrue();
        for (int n = -120; n <= 120; n++) {
            assertThat(grammar.grammar().accepts(Integer.toString(n))).as("%d", n)
                    .isEqualTo(n % 7 == 0 && n > -50 && n <= 100);
        }
    }

    @Test
    void aFractionalMultipleOfDividingOneLimitsTheFractionDigits() {
        SchemaGrammar quarter = grammarOf(Map.of("type", "number", "multipleOf", 0.25));
        SchemaGrammar cent = grammarOf(Map.of("type", "number", "multipleOf", 0.01));

        assertThat(quarter.exact()).isTrue();
        for (String valid : List.of("0", "2", "-3", "1.25", "3.5", "0.75", "1.50", "12.25")) {
            assertThat(quarter.grammar().accepts(valid)).as(valid).isTrue();
        }
        for (String invalid : List.of("1.3", "1.125", "0.2", "1.2500", "1e2")) {
            assertThat(quarter.grammar().accepts(invalid)).as(invalid).isFalse();
        }
        assertThat(grammarOf(Map.of("type", "number", "multipleOf", new java.math.BigDecimal("1e-300"))).grammar()
                .accepts("0.1234567890123456")).as("a step finer than the digits written").isTrue();
        assertThat(cent.grammar().accepts("19.99")).isTrue();
        assertThat(cent.grammar().accepts("19.999")).isFalse();
        assertThat(grammarOf(Map.of("type", "integer", "multipleOf", 0.5)).exact())
                .as("every integer is a multiple of 0.5").isTrue();
    }

    @Test
    void aMultipleOfTheGrammarCannotCarryIsLeftToTheValidator() {
        assertThat(grammarOf(Map.of("type", "integer", "multipleOf", 3)).validatedAfter())
                .containsExactly("/multipleOf");
        assertThat(grammarOf(Map.of("type", "number", "multipleOf", 1.5)).validatedAfter())
                .containsExactly("/multipleOf");
        assertThat(grammarOf(Map.of("type", "integer", "multipleOf", 5, "minimum", 0)).validatedAfter())
                .as("too many multiples to list, and bounds beside the last digits").containsExactly("/multipleOf");
        assertThat(grammarOf(Map.of("allOf", List.of(Map.of("multipleOf", 4), Map.of("multipleOf", 10))))
                .grammar().accepts("20")).as("the least common multiple of both steps").isTrue();
        assertThat(grammarOf(Map.of("allOf", List.of(Map.of("multipleOf", 4), Map.of("multipleOf", 10))))
                .grammar().accepts("30")).isFalse();
    }
}
