/**
 * Plans and their execution (seed 000's {@code PlanExecutor}, seed 001's planning contract, seed 004's plan events):
 * the executor runs plans, it never makes them.
 *
 * <ul>
 *   <li>{@link dev.pagantic.orchestrate.plan.ExecutionPlan} of {@link dev.pagantic.orchestrate.plan.Step}s in linear or
 *       parallel stages, each of a {@link dev.pagantic.orchestrate.plan.StepType}, with typed data between steps
 *       ({@link dev.pagantic.orchestrate.plan.StepInput}, {@link dev.pagantic.orchestrate.plan.StepOutput}: text,
 *       messages, candidates, context with provenance, requests, results, tool calls and results).</li>
 *   <li>{@link dev.pagantic.orchestrate.plan.StepHandler}s run the steps;
 *       {@link dev.pagantic.orchestrate.plan.StepHandlers}
 *       gives the built-in ones (infer through the one inference path, with the settings it is given; retrieve;
 *       rerank; validate; tool).</li>
 *   <li>{@link dev.pagantic.orchestrate.plan.PlanExecutor} checks a plan against its
 *       {@link dev.pagantic.orchestrate.plan.PlanPolicy}, runs it with auto-chaining, per-step timeouts, retries and
 *       the interceptor, and reports a {@link dev.pagantic.orchestrate.plan.PlanResult} that keeps the completed steps
 *       on failure; a {@link dev.pagantic.orchestrate.plan.Replanner} may revise the rest after a failure.</li>
 * </ul>
 * Planners, which need the system request, live in the facade ({@code Planner}, {@code StaticPlanner},
 * {@code LlmPlanner}, the last of which is also a {@code Replanner}).
 */
@NullMarked
package dev.pagantic.orchestrate.plan;

import org.jspecify.annotations.NullMarked;
