package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The outcome of refine mode.
 *
 * @param refinedResponse the best answer: the last successful round's (or the initial one)
 * @param iterations      the improvement rounds actually done (fewer than asked when a round failed)
 * @param requested       the rounds asked for
 * @param model           the engine's id
 * @param failure         the failure that stopped the rounds early, if any
 * @param calls           every successful call, in order
 * @param usage           the usage summed over every call
 * @param cost            the cost summed over every call
 */
public record RefineResult(String refinedResponse, int iterations, int requested, String model,
                           Optional<PaganticException> failure, List<PhaseCall> calls, TokenUsage usage,
                           BigDecimal cost) {

    /** The reason string of this mode. */
    public static final String REASON = "refine-orchestration";

    public RefineResult {
        calls = List.copyOf(calls);
    }

    /** {@value #REASON}. */
    public String reason() {
        return REASON;
    }

    /** The seed's output object: {@code refined_response, iterations, model}, plus requested, stopped_by, cost, reason. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("refined_response", refinedResponse);
        map.put("iterations", iterations);
        map.put("requested", requested);
        map.put("model", model);
        failure.ifPresent(f -> map.put("stopped_by", VoteResult.failureMap(f)));
        map.put("cost", cost.toPlainString());
        map.put("reason", REASON);
        return map;
    }
}
