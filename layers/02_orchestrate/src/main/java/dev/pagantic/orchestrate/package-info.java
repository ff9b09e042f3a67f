/**
 * Layer 02, the control hub. A pagantic system is not one inference call but a controlled multi-step loop: this layer
 * breaks requests into steps, enforces ordering and state transitions, and manages tool loops, retries, branching and
 * voting around {@link dev.pagantic.inference.Engine} calls.
 *
 * <h2>Rooms</h2>
 * The layer is organised in subpackages, one per concept; this root package only documents it (an architecture rule
 * keeps classes out of it):
 * <ul>
 *   <li>{@link dev.pagantic.orchestrate.facade}: the system boundary ({@code SystemRequest}, {@code SystemResponse},
 *       {@code Orchestrator}, one class per mode, the planners), the only part adapters use;</li>
 *   <li>{@link dev.pagantic.orchestrate.agent}: the stateful multi-turn tool loop and seed 004's streamed events;</li>
 *   <li>{@link dev.pagantic.orchestrate.structured}: single-shot structured output with repair, rules and retries;</li>
 *   <li>{@link dev.pagantic.orchestrate.vote}: N-version inference and the voting strategies;</li>
 *   <li>{@link dev.pagantic.orchestrate.plan}: execution plans, their steps and handlers, the executor and its
 *       policy;</li>
 *   <li>{@link dev.pagantic.orchestrate.multimodel}: seed 003's multi-model modes on an engine catalogue;</li>
 *   <li>{@link dev.pagantic.orchestrate.loop}: what every loop shares: its settings, its builder's setters, its
 *       outcome type;</li>
 *   <li>{@link dev.pagantic.orchestrate.ports}: where other layers' components plug in (context, reranking,
 *       prompts), visible to adapters;</li>
 *   <li>{@link dev.pagantic.orchestrate.spi}: the interception SPI; {@link dev.pagantic.orchestrate.lifecycle}: the
 *       lifecycle state machine;</li>
 *   <li>{@link dev.pagantic.orchestrate.internal}: the machinery the rooms share, above all the one inference path;
 *       no API.</li>
 * </ul>
 * Dependencies point one way: the facade uses the rooms; vote uses structured, structured uses agent; every room uses
 * loop, ports, internal, spi and lifecycle; none reaches back to the facade (architecture rules check all of it).
 *
 * <h2>One request path</h2>
 * A request's settings are one value, {@link dev.pagantic.inference.InferenceSettings}, from the adapter (in
 * {@code ExecutionHints}) to the engine (in the {@link dev.pagantic.inference.Request}), laid over the configured ones
 * with {@code overrideWith}. Every inference, in every loop, planner, multi-model mode and plan step, goes through one
 * path, {@code internal.InferenceCall}: the interceptor, then the engine, with an {@code inference_start} and an
 * {@code inference_end} event carrying every field of seed 001.
 *
 * <h2>Ports and structural typing</h2>
 * Orchestrate is the only layer that reaches across the band (layers 03 to 10); no band layer imports it. Where it
 * consumes a band capability it declares the single-method port it needs as a {@code @FunctionalInterface}, and band
 * types plug in by method reference, for example {@code ContextProvider provider = contextBuilder::build;}. Values the
 * layers share (a {@link dev.pagantic.core.Candidate}) live in core, so nothing is converted on the way.
 *
 * <h2>Conventions</h2>
 * Configurations are builders validated at {@code build()} (a missing engine is {@code CONFIG_NO_ENGINE}); defaults are
 * the specification's (max tokens 2048, max tool iterations 20, N 3). Every operation takes a
 * {@link dev.pagantic.core.CallContext} first and honours cancellation between steps and between tool calls. Every
 * pattern has a throwing convenience and a reporting form whose {@code Outcome} keeps what a failed call still
 * produced. Non-null by default: {@code @Nullable} marks where null is allowed, and "no stream handler" is
 * {@link dev.pagantic.inference.StreamHandler#NOOP}.
 */
@NullMarked
package dev.pagantic.orchestrate;

import org.jspecify.annotations.NullMarked;
