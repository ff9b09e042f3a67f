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
 */
@NullMarked
package dev.pagantic.orchestrate.structured;

import org.jspecify.annotations.NullMarked;
