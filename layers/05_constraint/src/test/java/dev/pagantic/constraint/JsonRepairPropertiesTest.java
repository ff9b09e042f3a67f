package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import tools.jackson.databind.json.JsonMapper;

/** Properties of {@link JsonRepair} over generated JSON, mangled JSON and arbitrary text. */
class JsonRepairPropertiesTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final JsonRepair REPAIR = JsonRepair.standard();

    @Property(tries = 300)
    void repairOfValidJsonIsTheIdentity(@ForAll("json") String json) {
        RepairResult result = REPAIR.repair(json);

        assertThat(result.json()).isSameAs(json);
        assertThat(result.fixes()).isEmpty();
    }

    @Property(tries = 400)
    void repairIsIdempotent(@ForAll("malformed") String output) {
        RepairResult once = repairOrNull(output);
        if (once != null) {
            RepairResult twice = REPAIR.repair(once.json());
            assertThat(twice.json()).isEqualTo(once.json());
            assertThat(twice.fixes()).isEmpty();
        }
    }

    @Property(tries = 400)
    void repairOfMalformedJsonNeverThrowsAnythingButJsonInvalid(@ForAll("malformed") String output) {
        RepairResult result = repairOrNull(output);
        if (result != null) {
            assertThat(JsonRepair.isValidJson(result.json())).isTrue();
        }
    }

    @Property(tries = 300)
    void repairOfArbitraryTextNeverThrowsAnythingButJsonInvalid(@ForAll("text") String output) {
        RepairResult result = repairOrNull(output);
        if (result != null) {
            assertThat(JsonRepair.isValidJson(result.json())).isTrue();
        }
    }

    @Property(tries = 30)
    void deepNestingFailsWithJsonInvalidInsteadOfOverflowingTheStack(
            @ForAll @IntRange(min = 513, max = 50_000) int depth, @ForAll boolean closed) {
        String open = "[{\"a\":".repeat(depth / 2) + "[";
        String output = closed ? open + "]" + "}]".repeat(depth / 2) : open;

        assertThat(repairOrNull(output)).isNull(); // deeper than 512: refused, not a StackOverflowError
    }

    @Property(tries = 100)
    void everyPrefixOfValidJsonRepairsToValidJsonOrFailsWithJsonInvalid(@ForAll("json") String json,
                                                                        @ForAll @IntRange(max = 1000) int cut) {
        String prefix = json.substring(0, Math.min(cut, json.length()));
        RepairResult result = repairOrNull(prefix);
        if (result != null) {
            assertThat(JsonRepair.isValidJson(result.json())).isTrue();
        }
    }

    /** Repairs, allowing only {@code CONSTRAINT_JSON_INVALID} as a failure (null then). */
    private static RepairResult repairOrNull(String output) {
        try {
            return REPAIR.repair(output);
        } catch (PaganticException failure) {
            assertThat(failure.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
            assertThat(failure.details()).containsKeys("offset", "line", "column", "reason");
            return null;
        }
    }

    // ------------------------------------------------------------------------------------------------ generators

    @Provide
    Arbitrary<String> json() {
        return Combinators.combine(whitespace(), value(), whitespace()).as((before, value, after) ->
                before + value + after);
    }

    @Provide
    Arbitrary<String> malformed() {
        return Arbitraries.oneOf(
                json().flatMap(JsonRepairPropertiesTest::mangled),
                Arbitraries.strings().withChars("{}[]\"',:\\ \n\ttTrueFalsNn0123456789.-eE`<>/hik").ofMaxLength(40),
                json().map(json -> "Here it is: ```json\n" + json + "\n``` bye"),
                json().map(json -> "\uFEFF<think>{hmm}</think>" + json));
    }

    @Provide
    Arbitrary<String> text() {
        return Arbitraries.strings().all().ofMaxLength(60);
    }

    /** Deletes, duplicates or replaces characters of a valid document, or cuts it off. */
    private static Arbitrary<String> mangled(String json) {
        Arbitrary<Integer> at = Arbitraries.integers().between(0, Math.max(0, json.length() - 1));
        Arbitrary<Character> junk = Arbitraries.of('"', '\'', ',', '{', '}', '[', ']', ':', '\n', '\\', 'x', 'T');
        return Arbitraries.oneOf(
                at.map(i -> json.substring(0, i)),
                at.map(i -> json.isEmpty() ? json : json.substring(0, i) + json.substring(i + 1)),
                Combinators.combine(at, junk).as((i, c) -> json.substring(0, i) + c + json.substring(i)),
                Combinators.combine(at, junk).as((i, c) -> json.isEmpty() ? json
                        : json.substring(0, i) + c + json.substring(i + 1)),
                Arbitraries.just(json.replace('"', '\'')));
    }

    private Arbitrary<String> value() {
        return Arbitraries.recursive(this::scalar, this::container, 0, 4);
    }

    private Arbitrary<String> container(Arbitrary<String> element) {
        Arbitrary<String> member = Combinators.combine(string(), whitespace(), whitespace(), element)
                .as((key, ws1, ws2, value) -> key + ws1 + ":" + ws2 + value);
        Arbitrary<String> array = separated(element).map(items -> "[" + items + "]");
        Arbitrary<String> object = separated(member).map(members -> "{" + members + "}");
        return Arbitraries.oneOf(array, object);
    }

    private Arbitrary<String> separated(Arbitrary<String> item) {
        Arbitrary<String> padded = Combinators.combine(whitespace(), item, whitespace()).as((a, i, b) -> a + i + b);
        return Arbitraries.oneOf(whitespace(),
                padded.list().ofMinSize(1).ofMaxSize(4).map(items -> items.stream().collect(Collectors.joining(","))));
    }

    private Arbitrary<String> scalar() {
        return Arbitraries.oneOf(string(), number(), Arbitraries.of("true", "false", "null"));
    }

    private Arbitrary<String> string() {
        return Arbitraries.strings().all().ofMaxLength(12)
                .filter(s -> s.chars().noneMatch(c -> Character.isSurrogate((char) c)))
                .map(MAPPER::writeValueAsString);
    }

    private Arbitrary<String> number() {
        Arbitrary<String> integer = Arbitraries.oneOf(Arbitraries.just("0"),
                Arbitraries.bigIntegers().between(java.math.BigInteger.ONE, new java.math.BigInteger("9".repeat(25)))
                        .map(Object::toString));
        Arbitrary<String> fraction = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(5).map(d -> "." + d);
        Arbitrary<String> exponent = Combinators.combine(Arbitraries.of("e", "E"), Arbitraries.of("", "+", "-"),
                Arbitraries.integers().between(0, 300)).as((e, sign, n) -> e + sign + n);
        return Combinators.combine(Arbitraries.of("", "-"), integer, Arbitraries.oneOf(Arbitraries.just(""), fraction),
                Arbitraries.oneOf(Arbitraries.just(""), exponent)).as((sign, i, f, e) -> sign + i + f + e);
    }

    private Arbitrary<String> whitespace() {
        return Arbitraries.of(List.of("", "", " ", "\n", "\t", "  ", "\r\n  "));
    }
}
