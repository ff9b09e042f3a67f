/**
 * Layer 07: rules, guardrails, semantic validation and the retry policy, the deterministic checks orchestrate applies
 * in the lifecycle's VALIDATE state.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.validate.Rule}: a named, deterministic check on a text that passes or fails with a reason
 *       ({@link dev.pagantic.validate.RuleResult}). {@link dev.pagantic.validate.Rules} has the common ones: maximum
 *       and minimum length (code points), not blank, required and forbidden patterns, must-be-JSON and
 *       must-be-a-JSON-object (Jackson, strict: one value, no trailing text).</li>
 *   <li>{@link dev.pagantic.validate.RuleValidator}: applies rules in order and reports <em>every</em> failure with its
 *       reason in a {@link dev.pagantic.validate.RuleReport}, whose pass rate is the response confidence with
 *       {@code ConfidenceSource} {@value dev.pagantic.validate.RuleReport#CONFIDENCE_SOURCE}. A rule that throws
 *       is recorded as that rule's failure, never aborting the others.</li>
 *   <li>{@link dev.pagantic.validate.Guardrails}: rules at both edges of a model call, input and output. An input
 *       failure is not retryable (the same input cannot pass next time); an output failure is.</li>
 *   <li>{@link dev.pagantic.validate.PromptInjectionDetector}: a pattern-based prompt-injection guardrail over
 *       normalised text (NFKC, zero-width characters removed). Heuristic, English-only, fooled by paraphrase; its
 *       javadoc lists the limits, and the tests measure precision and recall on a labelled corpus and a held-out
 *       set.</li>
 *   <li>{@link dev.pagantic.validate.SemanticValidator}: judges meaning (hallucination, contradiction, nonsense). The
 *       implementation {@link dev.pagantic.validate.LlmJudgeValidator} asks an {@link dev.pagantic.inference.Engine}
 *       for a structured verdict {@code {"valid": boolean, "reason": string}} (schema- or grammar-constrained where the
 *       engine supports it).</li>
 *   <li>{@link dev.pagantic.validate.RetryPolicy}: how many attempts, with what exponential back-off and jitter, for
 *       which failures. A retry is a lifecycle transition, not a separate mechanism: VALIDATE sends the request back
 *       to EXECUTE (incrementing the attempt) or on to ERROR once the policy stops. Orchestrate either lets the
 *       policy run the attempts ({@code run}/{@code call}, reporting each {@link dev.pagantic.validate.Attempt} and a
 *       {@link dev.pagantic.validate.StopReason}) or asks it after each failure ({@code decide}). Waiting goes through
 *       an injectable {@link dev.pagantic.validate.Sleeper} (by default {@code CallContext.sleep}, which honours
 *       cancellation and the deadline) and jitter through an injectable random generator, so tests run under a fake
 *       clock without sleeping.</li>
 * </ul>
 *
 * <h2>Failures</h2>
 * <ul>
 *   <li>{@code VALIDATION_RULE_FAILED} (retryable by default; not retryable from an input guardrail): details
 *       {@code failed_rules}, {@code reasons}, {@code pass_rate} and, from guardrails, {@code stage}.</li>
 *   <li>{@code VALIDATION_SEMANTIC_FAILED} (retryable): the judge said invalid; detail {@code reason} is the judge's
 *       reason.</li>
 *   <li>{@code INFERENCE_MALFORMED_RESPONSE} (retryable): the judge's verdict could not be read. It fails closed (the
 *       output is not accepted) but is kept distinct from a judged failure.</li>
 *   <li>The retry policy only retries {@link dev.pagantic.core.PaganticException}s whose {@code retryable()} is true
 *       (optionally narrowed to listed codes or categories) and never cancellations. When the next wait would reach
 *       the deadline it stops with the last attempt's error ({@code CANCELLED_TIMEOUT} only if the deadline passed
 *       before any attempt); cancellation stops it with {@code CANCELLED_SIGNAL}.</li>
 *   <li>Invalid configuration is {@code CONFIG_INVALID} at {@code build()}; a judge without an engine is
 *       {@code CONFIG_NO_ENGINE}.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference (and Jackson) only, never on another band layer or on
 * orchestrate. Everything here is immutable and thread-safe.
 */
@NullMarked
package dev.pagantic.validate;

import org.jspecify.annotations.NullMarked;
