package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.CallContext;
import dev.pagantic.orchestrate.plan.ExecutionPlan;

/**
 * Creates an {@link ExecutionPlan} from a {@link SystemRequest} (seed 001, section 5; seed 000, section 3). Planning
 * and execution are separate on purpose: a planner decides which steps a request needs, a plan executor runs them and
 * never creates plans. In plan mode the facade calls the configured planner and hands the plan to the executor; a plan
 * written by hand skips the planner.
 *
 * <p>Implementations range from a fixed plan or a lookup table ({@link StaticPlanner}) to an inference call that
 * asks a model for the plan ({@link LlmPlanner}). A planner should attach a {@link dev.pagantic.orchestrate.plan.PlanTrace}
 * (its id, why it chose the steps, when, how many), taking the time from the call context's clock so tests are
 * deterministic. As a single-method interface it accepts a lambda:
 *
 * <pre>{@code
 * Planner planner = (ctx, request) -> ExecutionPlan.of(Step.of("answer", StepType.INFER,
 *         StepInput.text(request.messages().get(request.messages().size() - 1).content())));
 * }</pre>
 */
@FunctionalInterface
public interface Planner {

    /**
     * Creates the plan for the request.
     *
     * @param ctx     the call's context: deadline, cancellation, correlation ids and the clock for the trace
     * @param request the request to plan for
     * @return the plan; never null
     * @throws dev.pagantic.core.PaganticException when no valid plan can be created; the code says why (a
     *                                             {@code CONFIG_*} code for a configuration problem or a policy
     *                                             violation, a {@code CONSTRAINT_*} code for a model's malformed plan,
     *                                             an {@code INFERENCE_*} or {@code CANCELLED_*} code from an engine)
     */
    ExecutionPlan createPlan(CallContext ctx, SystemRequest request);
}
