/**
 * The facade: pagantic's system boundary (seed 001, section 1). Everything enters as a
 * {@link dev.pagantic.orchestrate.facade.SystemRequest} and leaves as a
 * {@link dev.pagantic.orchestrate.facade.SystemResponse}; adapters (cli, tui, api, temporal) build the one from their
 * input and render the other, and touch nothing else of orchestrate but its ports.
 *
 * <h2>The contracts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.orchestrate.facade.SystemRequest}: correlation ids, messages,
 *       {@link dev.pagantic.orchestrate.facade.Mode}, {@link dev.pagantic.orchestrate.facade.ExecutionHints} (the
 *       request's {@link dev.pagantic.inference.InferenceSettings} and its timeout),
 *       {@link dev.pagantic.orchestrate.facade.OutputContract} (schema, a
 *       {@link dev.pagantic.orchestrate.facade.GrammarSource}, repair, strictness), the tool whitelist, the definitions
 *       of caller-executed tools, and the multi-model modes'
 *       {@link dev.pagantic.orchestrate.multimodel.Directive}.</li>
 *   <li>{@link dev.pagantic.orchestrate.facade.SystemResponse}: echoed ids, content, structured output (a JSON value
 *       tree of JDK types, see {@link dev.pagantic.orchestrate.facade.JsonTrees}),
 *       {@link dev.pagantic.orchestrate.facade.ToolCallRecord}s, tool calls handed back to the caller, confidence
 *       with its {@link dev.pagantic.orchestrate.facade.ConfidenceSource}, a
 *       {@link dev.pagantic.orchestrate.facade.ValidationResult}, token usage, a
 *       {@link dev.pagantic.orchestrate.facade.SystemError} and the one {@link dev.pagantic.core.FinishReason} (the
 *       same value the engine's result and the {@code inference_end} event carry).</li>
 * </ul>
 *
 * <h2>The orchestrator and its modes</h2>
 * {@link dev.pagantic.orchestrate.facade.Orchestrator} is the entry point and a dispatcher: it assigns ids, validates
 * the envelope and the output contract at INIT, selects the tools in PREPARE, drives one lifecycle per request (every
 * transition an event) and turns every failure into a response's error; one package-private class per mode runs the
 * pattern ({@code ChatMode}, {@code StructuredMode}, {@code RedundantMode}, {@code PlanMode},
 * {@code MultiModelMode}) on the orchestrator's shared {@code LoopSettings}, with the request's settings laid over
 * them. {@link dev.pagantic.orchestrate.facade.Planner} with its
 * {@link dev.pagantic.orchestrate.facade.StaticPlanner} and {@link dev.pagantic.orchestrate.facade.LlmPlanner} (which
 * also revises a failed plan as a {@code Replanner}) creates the plans of plan mode;
 * {@link dev.pagantic.orchestrate.facade.ExecutionContext} is seed 001's per-request context, handed to an execution
 * listener when the request ends; {@link dev.pagantic.orchestrate.facade.RequestTimelines} keeps the events of recent
 * requests, in time order, for adapters that show them.
 *
 * <h2>Agent events</h2>
 * A chat request's turn can be watched as it happens: {@code Orchestrator.execute(request, stream, events,
 * cancellation)} pushes seed 004's {@link dev.pagantic.orchestrate.agent.AgentEvent}s (with the request's correlation
 * ids) to an {@link dev.pagantic.orchestrate.agent.AgentEventListener}, and
 * {@link dev.pagantic.orchestrate.facade.FacadeJson#toJson(dev.pagantic.orchestrate.agent.AgentEvent)} is their wire
 * form. The listener is a parameter of the call, not a field of the request, so that the request stays a value that
 * compares, serialises and replays. Those two agent types are the only ones outside this package and core that
 * adapters use.
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li>Values are records with immutable collections; no accessor returns null. Go's zero values become explicit
 *       empties: {@code Optional}/{@code OptionalDouble} for "not set" (a temperature of 0.0 is greedy decoding, not
 *       "default"), empty strings for ids not yet assigned.</li>
 *   <li>Every malformed value is rejected on construction with a {@code CONFIG_INVALID}
 *       {@link dev.pagantic.core.PaganticException}, never a {@code NullPointerException}. Construction checks
 *       structure only; the envelope rules of the INIT state (at least one message, a schema for structured and
 *       redundant mode, {@code CONFIG_SCHEMA_REQUIRED}) are
 *       {@link dev.pagantic.orchestrate.facade.SystemRequest#validate()}, which the facade calls at INIT so that the
 *       failure goes through the lifecycle and comes back as a response's error. Ids are generated at INIT too
 *       ({@link dev.pagantic.orchestrate.facade.SystemRequest#withMissingIds(dev.pagantic.core.IdGenerator)}).</li>
 *   <li>{@link dev.pagantic.orchestrate.facade.OutputContract#repairAllowed()} defaults to true in our builder (the
 *       seed's Go zero value would be false).</li>
 *   <li>The accessors of the request and the response expose only core types, facade types, the JDK and the two
 *       values the request carries from elsewhere (its inference settings and directive), so adapters need no band or
 *       Jackson types. Conversions from the band ({@code ValidationReport}, {@code ToolExecution}) and from Jackson
 *       live in static factories the facade itself calls.</li>
 *   <li>Beyond the seed: caller-executed tools (OpenAI-protocol clients), the tool calls handed back with finish reason
 *       {@code tool_calls}, grammars read from files, and a seed and stop strings in the hints.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.orchestrate.facade;

import org.jspecify.annotations.NullMarked;
