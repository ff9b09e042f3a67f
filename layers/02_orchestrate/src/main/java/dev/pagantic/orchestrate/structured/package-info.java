/**
 * Single-shot structured output (seed 000's {@code SpecializedLoop}): one prompt in, JSON that follows a schema out,
 * with nothing kept between calls.
 *
 * <p>{@link dev.pagantic.orchestrate.structured.SpecializedLoop} optionally gathers information with tools first (an
 * agent loop's turn), then asks for the structured answer under the schema's grammar, repairs and validates it with the
 * constraint pipeline and the configured rules, and retries a constraint or validation failure as the
 * {@code RetryPolicy} allows (repeating only the structured phase, never a tool).
 * {@link dev.pagantic.orchestrate.structured.SpecializedResult} is what a call produced; the reporting form returns it
 * in an {@link dev.pagantic.orchestrate.loop.Outcome}.
 *
 * <p>Two decisions: an answer cut off at the token limit is never repaired, since repair would invent its end; it is
 * retried while attempts remain and decoding samples (a greedy or seeded retry would be cut the same way), and the last
 * one is returned as it is (finish reason {@code LENGTH}, a cut-off report, never valid); and a Java type ({@code OutputType}) is the one way to ask for a typed result
 * ({@code call(ctx, prompt, type)}), converted from the tree validation already parsed.
 */
@NullMarked
package dev.pagantic.orchestrate.structured;

import org.jspecify.annotations.NullMarked;
