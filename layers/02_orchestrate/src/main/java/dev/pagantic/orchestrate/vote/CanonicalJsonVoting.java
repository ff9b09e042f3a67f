package dev.pagantic.orchestrate.vote;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Majority voting over structured output, comparing candidates as parsed JSON rather than as strings (beyond the
 * specification, whose strategies compare character for character).
 *
 * <p>Two candidates are in the same class when they parse to the same JSON value:
 * <ul>
 *   <li>whitespace and the order of an object's keys do not matter: {@code {"a":1,"b":2}} and
 *       {@code { "b": 2, "a": 1 }} are one class;</li>
 *   <li>numbers are compared by value, as {@link BigDecimal}s with trailing zeros stripped and without going through
 *       {@code double}: {@code 1}, {@code 1.0}, {@code 1.00} and {@code 1e0} are equal, {@code -0} equals {@code 0},
 *       while {@code 0.1} and {@code 0.10000000000000001} differ;</li>
 *   <li>strings are compared after JSON unescaping (<code>"&#92;u0041"</code> equals {@code "A"}) but without Unicode
 *       normalisation or case folding;</li>
 *   <li>array order matters, and a property whose value is {@code null} differs from an absent property;</li>
 *   <li>any JSON value may be a candidate, not only objects: {@code 42}, {@code "positive"}, {@code true}.</li>
 * </ul>
 *
 * <p>A candidate that is not a single valid JSON value (empty or blank text, a syntax error, trailing content after
 * the value, or an object with a duplicate key, which is ambiguous) is not discarded: it forms a class of its own,
 * keyed by its exact raw text, and is compared with other invalid candidates character for character as
 * {@link MajorityVoting} would. Every candidate therefore keeps its vote, the total is always the number of
 * candidates, and when no candidate is valid JSON this strategy votes exactly as {@link MajorityVoting}. Rejecting
 * invalid output belongs to the constraint pipeline that runs before voting.
 *
 * <p>The largest class wins; among equally large classes the one seen first wins (deterministic). The winner returned
 * is the original text of the first candidate of the winning class, not a re-serialisation, and the confidence is the
 * class's size over the number of candidates. Add {@link #withQuorum} to demand a minimum share;
 * {@code withQuorum(1.0)} is unanimity up to JSON equivalence.
 *
 * <pre>{@code
 * new CanonicalJsonVoting().vote(List.of(
 *         "{\"sentiment\":\"positive\",\"score\":1}",
 *         "{ \"score\": 1.0, \"sentiment\": \"positive\" }",
 *         "{\"sentiment\":\"negative\",\"score\":0}"));
 * // winner "{\"sentiment\":\"positive\",\"score\":1}" (index 0), confidence 2/3
 * }</pre>
 */
public record CanonicalJsonVoting() implements VotingStrategy {

    private static final String NAME = "canonical JSON voting";

    /** Immutable and thread-safe once built. Floats are read as BigDecimal so that no precision is lost. */
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonNodeFeature.READ_NULL_PROPERTIES)
            .build();

    /** The class of a candidate that parsed: its canonical value (maps, lists, BigDecimals, strings, booleans). */
    private record Parsed(Object value) {
    }

    /** The class of a candidate that did not parse: its exact text. */
    private record Raw(String text) {
    }

    /** JSON null inside a canonical value (the collections used do not hold Java null). */
    private enum JsonNull {
        NULL
    }

    /**
     * {@inheritDoc}
     *
     * @throws PaganticException {@link ErrorCode#ORCHESTRATION_NO_CONSENSUS} when there are no candidates
     */
    @Override
    public Vote vote(List<String> candidates) {
        return Tally.plurality(NAME, candidates, CanonicalJsonVoting::classOf);
    }

    private static Object classOf(String candidate) {
        JsonNode node;
        try {
            node = MAPPER.readTree(candidate);
        } catch (JacksonException e) {
            return new Raw(candidate);
        }
        if (node == null || node.isMissingNode()) { // empty or blank input
            return new Raw(candidate);
        }
        return new Parsed(canonical(node));
    }

    private static Object canonical(JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT: {
                Map<String, Object> map = new HashMap<>();
                for (Map.Entry<String, JsonNode> property : node.properties()) {
                    map.put(property.getKey(), canonical(property.getValue()));
                }
                return map;
            }
            case ARRAY: {
                List<Object> list = new ArrayList<>(node.size());
                for (JsonNode element : node.values()) {
                    list.add(canonical(element));
                }
                return list;
            }
            case NUMBER:
                return node.decimalValue().stripTrailingZeros();
            case STRING:
                return node.stringValue();
            case BOOLEAN:
                return node.booleanValue();
            case NULL:
                return JsonNull.NULL;
            default: // BINARY, POJO, MISSING: not produced by parsing text; keep them apart by their text
                return List.of(node.getNodeType(), node.toString());
        }
    }
}
