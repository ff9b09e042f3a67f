/**
 * Fake engines for users' unit tests. The module has no test-framework dependency, so that adapters can ship the fakes
 * for their scripted mode; the Engine contract kit that every engine module runs is {@code dev.pagantic.tck} in
 * {@code pagantic-engine-tck}.
 *
 * <h2>Fake engines</h2>
 * <ul>
 *   <li>{@link dev.pagantic.testkit.ScriptedEngine} replays a script, one step per call: a reply, tool calls, a
 *       verbatim {@link dev.pagantic.inference.Result}, a result computed from the request, or a failure. It records
 *       every request, so a test both decides what "the model" says and inspects what the code under test asked.
 *       Running out of script fails loudly, naming the call and quoting its last message.</li>
 *   <li>{@link dev.pagantic.testkit.EchoEngine} answers with the last user message: some engine, deterministic, for
 *       tests that do not care what it says.</li>
 *   <li>{@link dev.pagantic.testkit.FailingEngine} fails the first N calls with a chosen error code, then delegates:
 *       the fixture for retries and fallbacks.</li>
 *   <li>{@link dev.pagantic.testkit.SlowEngine} adds latency before a call and before every streamed token, waiting
 *       with {@link dev.pagantic.core.CallContext#sleep}, so cancellation and deadlines end the wait at once: the
 *       fixture for timeouts and cancellation.</li>
 *   <li>{@link dev.pagantic.testkit.ChaosEngine} injects faults into another engine's calls by seeded probabilities:
 *       latency, failures with real codes of every failure category, malformed JSON, calls of unknown tools or with
 *       broken arguments, truncated answers and failures in the middle of a stream, reporting each injection with
 *       its request id; with every probability 0 it passes the contract kit.</li>
 *   <li>{@link dev.pagantic.testkit.ChaosTools} gives tool bodies that throw, hang without honouring interruption,
 *       or are slow, in the shape of the tool layer's handler (the testkit does not depend on the tool layer).</li>
 * </ul>
 * The wrapping engines own their delegate (closing them closes it) and compose:
 * {@code SlowEngine.builder().delegate(FailingEngine.builder().delegate(scripted).build()).build()}.
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>A token is a whitespace-separated word of message content.</b> Real tokenizers are not available in unit
 *       tests and would make expectations opaque; words are exact and countable by eye. Prompt tokens are the words of
 *       all message contents (no per-message overhead, tool calls and tool definitions cost nothing), output tokens
 *       the words of the content, reasoning tokens those of the reasoning. The engines' {@code tokenCounter()} counts
 *       the same way, so usage and counting agree, and the engines declare
 *       {@link dev.pagantic.inference.Capability#TOKEN_COUNTING}. Generation time is a deterministic 1 ms per
 *       generated token, so tokens per second is finite and stable.</li>
 *   <li><b>Fakes honour the same contract as real engines.</b> {@code maxTokens} and the context window cut a reply
 *       at a word boundary with {@link dev.pagantic.core.FinishReason#LENGTH} (a cut reply loses its tool calls,
 *       which a model emits after its text), a stop string ends the content before it; the same seed gives the same
 *       reply, as any reply is scripted; a reply streams word by word, with a cancellation and deadline check
 *       before each token, and the deltas concatenate to the content exactly, whitespace included; undeclared
 *       capabilities are refused with {@code CONFIG_UNSUPPORTED_CAPABILITY}; a closed engine refuses with
 *       {@code INFERENCE_ENGINE_CLOSED}. Code tested against a fake therefore meets the behaviour of a real
 *       engine.</li>
 *   <li><b>Refused calls cost nothing.</b> A call refused before generation (closed, cancelled, expired, undeclared
 *       capability, prompt over the window) consumes no scripted step, no failure of a {@code FailingEngine}, and is
 *       not recorded, so a script of N steps serves the first N admitted calls however many were refused.</li>
 *   <li><b>Tool call ids are explicit.</b> A {@link dev.pagantic.core.ToolCall} always carries an id; the scripted
 *       engine's {@code replyCallingTool} numbers them {@code call_1}, {@code call_2}, ... per builder, so
 *       expectations never depend on random ids.</li>
 *   <li>No mutable static state: every counter, script and clock belongs to an engine or a test instance.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.testkit;

import org.jspecify.annotations.NullMarked;
