package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.CallContext;

/**
 * Processes one step: receives the step with its input set (explicit or auto-chained) and returns it with its output
 * set. Registered per {@link StepType}; any lambda of this shape is a handler, which is how custom step types are
 * added.
 *
 * <pre>{@code
 * StepHandler summarize = (ctx, step) -> {
 *     String text = step.requireInput().text();
 *     return step.withOutput(StepOutput.text(text.length() > 500 ? text.substring(0, 500) + "..." : text));
 * };
 * }</pre>
 *
 * <p>Failures are {@link dev.pagantic.core.PaganticException}s: a handler that receives input of a kind it does not
 * accept fails with {@code ORCHESTRATION_STEP_MISMATCH}, which the typed accessors of {@link StepData} raise for it.
 * Handlers should honour the context's cancellation and deadline.
 */
@FunctionalInterface
public interface StepHandler {

    /**
     * Runs the step.
     *
     * @param ctx  the call context, with the per-step deadline applied where the plan policy sets one
     * @param step the step, with its input set
     * @return the step with its output set
     */
    Step handle(CallContext ctx, Step step);
}
