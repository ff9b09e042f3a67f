package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Preconditions;
import java.time.Instant;

/**
 * Metadata about how a plan was created, attached to the {@link ExecutionPlan} for observability and debugging.
 *
 * <pre>{@code
 * ExecutionPlan traced = plan.withTrace(PlanTrace.forPlan("static-rag", "fixed retrieve-rerank-infer", ctx.now(), plan));
 * }</pre>
 *
 * @param plannerId which planner created the plan; non-blank
 * @param rationale why these steps were chosen; may be empty
 * @param createdAt when the plan was created (take it from the call context's clock for deterministic tests)
 * @param stepCount how many steps the plan has, at least 1; {@link ExecutionPlan} checks that it matches
 */
public record PlanTrace(String plannerId, String rationale, Instant createdAt, int stepCount) {

    /** Checks the fields; {@code CONFIG_INVALID} for a blank planner id, nulls or a step count below 1. */
    public PlanTrace {
        requireNonNull(plannerId, "planner id");
        require(!plannerId.isBlank(), "a plan trace needs the planner's id");
        requireNonNull(rationale, "rationale");
        requireNonNull(createdAt, "createdAt");
        require(stepCount >= 1, "a plan trace counts at least one step: " + stepCount);
    }

    /** The trace of the given plan, counting its steps (every step of every parallel group). */
    public static PlanTrace forPlan(String plannerId, String rationale, Instant createdAt, ExecutionPlan plan) {
        return new PlanTrace(plannerId, rationale, createdAt, requireNonNull(plan, "plan").stepCount());
    }
}
