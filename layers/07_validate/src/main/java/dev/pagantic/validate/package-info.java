/**
 * Layer 07, rules, guardrails and retry policy (planned; not yet implemented).
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>Rules: checks on an output beyond its structure (length, required content, forbidden content), each
 *       reporting pass or fail with a reason.</li>
 *   <li>Guardrails: semantic checks for hallucination, contradiction or nonsense.</li>
 *   <li>{@code RetryPolicy}: how many attempts, with what back-off, for which failures. A retry is a lifecycle
 *       transition, not a separate mechanism: VALIDATE sends the request back to EXECUTE (incrementing the attempt)
 *       or on to ERROR once attempts are exhausted. Back-off waits through the
 *       {@link dev.pagantic.core.CallContext}, so it respects cancellation and deadlines and uses the injectable
 *       clock in tests.</li>
 * </ul>
 *
 * <h2>Failures</h2>
 * This layer emits the ValidationFailure codes {@code VALIDATION_RULE_FAILED} and
 * {@code VALIDATION_SEMANTIC_FAILED}, retryable by default (repair and re-infer, or adjust the prompt). The pass rate
 * of rules can serve as a response's confidence, with the source "validation".
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate applies rules and the retry policy in the VALIDATE state.
 */
package dev.pagantic.validate;
