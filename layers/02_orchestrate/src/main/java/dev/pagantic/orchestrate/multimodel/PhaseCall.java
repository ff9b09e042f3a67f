package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * One model call of a multi-model mode.
 *
 * @param phase   what the call was for: {@code plan}, {@code critique}, {@code refine}, {@code vote}, {@code judge},
 *                {@code initial} or {@code planning}
 * @param engine  the catalogue id of the engine that answered
 * @param prompt  the user prompt sent
 * @param content the answer
 * @param usage   the call's token usage
 * @param cost    the call's cost at the engine's catalogue prices
 */
public record PhaseCall(String phase, String engine, String prompt, String content, TokenUsage usage,
                        BigDecimal cost) {

    public PhaseCall {
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(cost, "cost");
    }

    /** Total usage of calls. */
    static TokenUsage usage(java.util.List<PhaseCall> calls) {
        return calls.stream().map(PhaseCall::usage).reduce(TokenUsage.ZERO, TokenUsage::plus);
    }

    /** Total cost of calls. */
    static BigDecimal cost(java.util.List<PhaseCall> calls) {
        return calls.stream().map(PhaseCall::cost).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
