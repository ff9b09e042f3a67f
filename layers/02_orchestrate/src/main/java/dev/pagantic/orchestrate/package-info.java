/**
 * Layer 02, the control hub. A pagantic system is not one inference call but a
 * controlled multi-step loop: this layer breaks requests into steps, enforces ordering and state transitions, and
 * manages tool loops, retries, branching and voting around {@link dev.pagantic.inference.Engine} calls.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li><b>Patterns.</b> {@code AgentLoop}: stateful multi-turn chat with a tool loop bounded by a maximum number of
 *       tool iterations (default 20) and a schema-constrained structured variant. {@code SpecializedLoop}: stateless
 *       single-shot structured output, in two phases when tools are configured (gather with tools, then produce the
 *       structured answer). {@code PlanExecutor}: runs an {@code ExecutionPlan} of typed steps, each handled by a
 *       {@code StepHandler}, chaining each step's output into the next; a {@code Planner} creates plans, the
 *       executor never does. {@code RedundantLoop}: N-version inference (default N = 3) with a
 *       {@code VotingStrategy} (majority, unanimity, custom) that yields the winner, a confidence and the combined
 *       token usage. The patterns compose: a plan step may run any of the loops.</li>
 *   <li><b>Lifecycle.</b> Every request passes through INIT, (PLAN,) PREPARE, EXECUTE, VALIDATE and COMPLETE, or ends
 *       in ERROR or CANCELLED. A retry is a lifecycle transition (VALIDATE back to EXECUTE, incrementing the attempt
 *       count), not a separate mechanism, and every transition is an observable event.</li>
 *   <li><b>Intermediate representation.</b> Data crossing plan steps uses this layer's own IR types (step input and
 *       output wrappers, candidates, retrieved context with provenance); other layers keep their native types and
 *       are converted at the integration site.</li>
 *   <li><b>Structured output.</b> The pipeline composes a grammar at the decoder (when the engine declares
 *       {@link dev.pagantic.inference.Capability#GRAMMAR}), then JSON repair, enum normalisation and schema
 *       validation from the constraint layer.</li>
 * </ul>
 *
 * <h2>Dependencies and structural typing</h2>
 * Orchestrate is the only layer that reaches across the band (layers 03 to 10); no band layer imports it. Where it
 * consumes a band capability it declares the single-method port it needs as a {@code @FunctionalInterface} in this
 * package ({@code ContextProvider}, {@code CandidateReranker}, {@code PromptProvider}, {@code StepHandler},
 * {@code VotingStrategy}, {@code Planner}), and band types plug in by method reference, for example
 * {@code ContextProvider provider = contextBuilder::build;}. Where the specification mirrors a type, such as
 * {@code RerankCandidate} for the rerank layer's candidate, orchestrate keeps its own copy and the call site converts.
 * Any lambda of the right shape stands in for a port in tests.
 *
 * <h2>Outcomes, not only exceptions</h2>
 * Every pattern has a throwing convenience ({@code call}, {@code chat}, {@code executeOrThrow}) and a reporting form
 * ({@code SpecializedLoop.run}, {@code RedundantLoop.run}, {@code PlanExecutor.execute}, {@code AgentLoop.chatTurn})
 * whose outcome keeps what a failed call still produced: the usage, the tool executions, the completed steps. The
 * facade builds failed responses from them.
 *
 * <h2>Package layout</h2>
 * The boundary contracts ({@code SystemRequest}, {@code SystemResponse}, {@code SystemError}, {@code Mode},
 * {@code ExecutionHints}, {@code OutputContract}, and later the facade that routes a mode to its pattern) live in
 * {@link dev.pagantic.orchestrate.facade}, the only part of this layer that adapters may use. The interception SPI,
 * through which engine calls, tool calls and plan steps can be run elsewhere (for example as durable workflow
 * activities), lives in {@link dev.pagantic.orchestrate.spi}; the lifecycle state machine in
 * {@link dev.pagantic.orchestrate.lifecycle}. Dependencies point one way: the facade uses this package, this package
 * uses the lifecycle and the SPI, and those use only core and inference. The architecture rules depend on this layout.
 *
 * <h2>Streamed events (seed 004)</h2>
 * An {@link dev.pagantic.orchestrate.AgentLoop} chat turn pushes {@link dev.pagantic.orchestrate.AgentEvent}s
 * ({@code turn_start}, {@code steering_mode}, {@code thinking}, {@code tool_call}, {@code tool_result},
 * {@code text_delta}, {@code turn_end}) to the {@link dev.pagantic.orchestrate.AgentEventListener} of its
 * {@link dev.pagantic.orchestrate.TurnOptions}, whose {@code steering} and {@code followUp}
 * {@link dev.pagantic.orchestrate.MessageQueue}s let the caller interrupt a tool round or continue the turn. A
 * {@link dev.pagantic.orchestrate.PlanExecutor} pushes {@link dev.pagantic.orchestrate.PlanEvent}s
 * ({@code plan_created}, {@code plan_step_start}, {@code plan_step_end}) to its
 * {@link dev.pagantic.orchestrate.PlanEventListener}, and a {@link dev.pagantic.orchestrate.Replanner} may revise the
 * remaining steps after a failure (each accepted revision is a {@link dev.pagantic.orchestrate.PlanTrace} in
 * {@link dev.pagantic.orchestrate.PlanResult#revisions()}). The exact order is in the class comments of
 * {@code AgentLoop} and {@code PlanExecutor}, and in {@code docs/layers/02-orchestrate-events.md}.
 *
 * <h2>Conventions</h2>
 * Configurations are builders validated at {@code build()} (a missing engine is {@code CONFIG_NO_ENGINE}); defaults are
 * the specification's (max tokens 2048, max tool iterations 20, N 3). Every operation takes a
 * {@link dev.pagantic.core.CallContext} first and honours cancellation between steps and between tool calls.
 */
package dev.pagantic.orchestrate;
