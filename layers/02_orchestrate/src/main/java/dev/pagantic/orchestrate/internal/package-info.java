/**
 * The machinery orchestrate's rooms share; not part of the API (an architecture rule keeps everything outside
 * orchestrate from using it), free to change at any time.
 *
 * <ul>
 *   <li>{@link dev.pagantic.orchestrate.internal.InferenceCall}: the one inference path (interceptor, engine,
 *       {@code inference_start} and {@code inference_end} with every field of seed 001); an architecture rule checks
 *       that nothing else in orchestrate calls an engine.</li>
 *   <li>{@link dev.pagantic.orchestrate.internal.StructuredOutput}: how a structured answer is asked for (grammar,
 *       schema, default temperature, thinking off) and checked (the constraint pipeline), for structured turns, the
 *       specialized loop, the planner and the multi-model judge.</li>
 *   <li>{@link dev.pagantic.orchestrate.internal.Phases}: the lifecycle a call drives, if any;
 *       {@link dev.pagantic.orchestrate.internal.EphemeralContext}: context retrieval that degrades instead of failing;
 *       {@link dev.pagantic.orchestrate.internal.Timing}: event durations.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.orchestrate.internal;

import org.jspecify.annotations.NullMarked;
