/**
 * Multi-model orchestration modes (seed 003's "Orchestration Modes"): patterns that make several model calls, on
 * engines picked from an {@link dev.pagantic.orchestrate.multimodel.EngineCatalogue}, and return one composite result.
 *
 * <ul>
 *   <li><b>adversarial</b>: plan → critique → refine, the critique/refine pair repeated
 *       {@link dev.pagantic.orchestrate.multimodel.Directive#iterations() iterations} times (default 1), with a
 *       primary engine for plan and refine and a review engine for the critique
 *       ({@link dev.pagantic.orchestrate.multimodel.AdversarialResult}).</li>
 *   <li><b>vote</b>: N voters answer independently (concurrently when an executor is given), a judge engine selects
 *       the best through schema-constrained JSON {@code {"selected": k, "reason": "..."}}; failed voters are reported,
 *       not dropped ({@link dev.pagantic.orchestrate.multimodel.VoteResult}).</li>
 *   <li><b>refine</b>: an initial answer, then self-improvement rounds (default 2); a failed round keeps the best so
 *       far ({@link dev.pagantic.orchestrate.multimodel.RefineResult}).</li>
 *   <li><b>planning</b>: one call on the planning engine ({@link dev.pagantic.orchestrate.multimodel.PlanningResult}).</li>
 * </ul>
 *
 * Every result carries each call made ({@link dev.pagantic.orchestrate.multimodel.PhaseCall}), the token usage and the
 * cost summed over all of them (prices from the catalogue), and a reason string ({@code adversarial-orchestration},
 * ...). The entry point is {@link dev.pagantic.orchestrate.multimodel.MultiModel}; the facade routes
 * {@code Mode.ADVERSARIAL}, {@code Mode.VOTE} and {@code Mode.REFINE} to it. A call takes a
 * {@link dev.pagantic.orchestrate.multimodel.Directive} (which engines play which part, how many rounds; the request's
 * side channel in the facade) and the call's {@link dev.pagantic.inference.InferenceSettings}, laid over the configured
 * ones; every call goes through orchestrate's one inference path, named by the engine's catalogue id.
 */
@NullMarked
package dev.pagantic.orchestrate.multimodel;

import org.jspecify.annotations.NullMarked;
