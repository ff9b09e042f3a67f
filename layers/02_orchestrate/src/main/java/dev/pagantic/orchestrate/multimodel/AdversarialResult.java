package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of adversarial mode.
 *
 * @param initialPlan the primary engine's first plan
 * @param critique    the review engine's last critique
 * @param refinedPlan the last refined plan (the answer)
 * @param iterations  the critique/refine rounds done
 * @param primary     the primary engine's id
 * @param review      the review engine's id
 * @param calls       every call, in order
 * @param usage       the usage summed over every call
 * @param cost        the cost summed over every call
 */
public record AdversarialResult(String initialPlan, String critique, String refinedPlan, int iterations,
                                String primary, String review, List<PhaseCall> calls, TokenUsage usage,
                                BigDecimal cost) {

    /** The reason string of this mode. */
    public static final String REASON = "adversarial-orchestration";

    public AdversarialResult {
        calls = List.copyOf(calls);
    }

    /** {@value #REASON}. */
    public String reason() {
        return REASON;
    }

    /** The seed's output object: {@code initial_plan, critique, refined_plan}, plus iterations, engines, cost, reason. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("initial_plan", initialPlan);
        map.put("critique", critique);
        map.put("refined_plan", refinedPlan);
        map.put("iterations", iterations);
        map.put("primary", primary);
        map.put("review", review);
        map.put("cost", cost.toPlainString());
        map.put("reason", REASON);
        return map;
    }
}
