/**
 * The terminal chat adapter: an interactive session over the {@code Orchestrator} facade, on a JLine terminal, with
 * replies streamed as they are generated, tool calls shown as they happen, and Ctrl-C to cancel a reply.
 *
 * <h2>Running it</h2>
 * {@link dev.pagantic.adapter.tui.TuiMain} is the program, {@code pagantic tui} in the distribution. With a GGUF model
 * run in process by llama.cpp, a model of an OpenAI-compatible server, or a script (no model; the demo
 * {@code get_weather} tool is registered in this mode, {@code --slow-ms} makes each word take a while):
 * <pre>
 * pagantic tui --model model.gguf --ctx-size 4096 --threads 4 --system "Be brief."
 * pagantic tui --endpoint http://127.0.0.1:8080/v1 --model-name stories260K --timeout 30
 * pagantic tui --scripted-tool 'get_weather:{"city":"Paris"}' --scripted "It is sunny in Paris." "Anything else?"
 * </pre>
 * {@code --help} lists the options. A reply gets at most {@code --max-tokens} tokens, 256 by default: the facade keeps
 * the conversation's history within the context window minus that room, cutting the oldest exchanges first, so a chat
 * lasts on a small model's 2048 tokens. {@code main} ends with {@code System.exit} only to report the exit status.
 *
 * <h2>The chat</h2>
 * {@link dev.pagantic.adapter.tui.ChatLoop} takes a JLine {@code Terminal} and the orchestrator and returns when the
 * chat ends, so that it runs in tests on a dumb terminal over piped streams. Each line is a chat message of one session
 * (a new session id per run, per {@code /reset} and per {@code /load}); lines starting with {@code /} are commands:
 * {@code /tools}, {@code /reset}, {@code /history}, {@code /save FILE} and {@code /load FILE} (the conversation in
 * the facade's JSON form, {@code FacadeJson.messagesToJson}), {@code /schema FILE} (structured mode with that JSON
 * Schema, {@code /schema off} to leave it), {@code /help} and {@code /exit}. After each turn a line gives the token
 * usage and the speed, from the response's {@code tokenUsage}.
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>A chat turn is drawn from its agent events.</b> The facade pushes seed 004's events of a chat request
 *       ({@code Orchestrator.execute(request, stream, events, cancellation)}) as they happen: the model's reasoning is
 *       shown as {@code (thinking) ...}, each tool call as {@code ⚙ calling get_weather {city=Paris}} before the
 *       tool runs and its result ({@code ↳ get_weather → ...}, or {@code ✗ ... failed: CODE: ...}) as soon as it ran,
 *       each on a line of its own, then the answer's text deltas. A structured turn has no agent events: its tool
 *       calls come from the stream ({@code onToolCall}) and its results from {@code SystemResponse.toolCallsMade()}
 *       when it ends. An {@code EventLog} watching the orchestrator's {@code tool} events would not be allowed here:
 *       reading an {@code Event} is a call into a band component, which the architecture rules forbid adapters.</li>
 *   <li><b>Ctrl-C cancels through a {@code Cancellation}.</b> Each turn gets a new one, passed to
 *       {@code Orchestrator.execute(request, stream, cancellation)}; the terminal's INT signal handler cancels the
 *       running one. The turn then ends with {@code CANCELLED_SIGNAL}, shown as {@code ⏹ cancelled}, and the chat
 *       goes on. At the prompt JLine's line reader owns Ctrl-C (it clears the line) and Ctrl-D (it ends the
 *       chat).</li>
 *   <li><b>The transcript is the loop's own.</b> {@code /history} and {@code /save} show what this run said: each
 *       successful turn's user message, the tool calls with their results, and the answer. A failed or cancelled turn
 *       adds nothing, as the orchestrator rolls the session back too. {@code /load} starts a new session whose first
 *       request carries the loaded messages before the next prompt, which the facade appends to the new session's
 *       history.</li>
 *   <li><b>Structured mode shows the validated JSON, not the stream.</b> A structured call's text is raw material
 *       (with tools registered it has a tool phase first, and a retry produces another attempt), so the printer
 *       shows only the tool calls while it runs and the structured output, pretty-printed, at the end. Structured
 *       requests carry no session id: the facade answers their last user message on its own.</li>
 *   <li><b>The registered tools are kept beside the registry.</b> {@code /tools} lists the {@code ToolDefinition}s the
 *       program registered, rather than asking the {@code ToolRegistry}, for the same architecture rule.</li>
 * </ul>
 *
 * <p>Like every adapter it is a thin shell: it turns keyboard input into a {@code SystemRequest}, renders what streams
 * back and formats the {@code SystemResponse}; it contains no prompt construction, no tool execution and no JSON Schema
 * validation. Dependency rule: adapters import only orchestrate's facade ({@code dev.pagantic.orchestrate.facade}),
 * core, and the builders of the engines and band components they wire up.
 */
@NullMarked
package dev.pagantic.adapter.tui;

import org.jspecify.annotations.NullMarked;
