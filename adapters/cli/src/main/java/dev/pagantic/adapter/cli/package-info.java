/**
 * The command-line adapter: the {@code pagantic} command (picocli), which runs prompts through the orchestration
 * facade and prints the response.
 *
 * <h2>Commands</h2>
 * <ul>
 *   <li>{@code chat [PROMPT...]}: chat mode; the reply is streamed to stdout token by token. The prompt is the
 *       arguments joined with spaces, or standard input when there are none (or the one argument is {@code -}).
 *       {@code --session ID} keeps the conversation under that id (with {@code --session-dir DIR} in crash-safe
 *       journals, so that it continues across runs); {@code --interactive} reads one prompt per line from standard
 *       input, one turn each in one session, until end of input or a line {@code /exit}.</li>
 *   <li>{@code extract --schema FILE.json | --schema-inline JSON [--grammar FILE.gbnf] [--no-repair] [--lenient]}:
 *       structured mode; the JSON Schema is read with {@code Schema.fromJsonSchema}, the output is repaired (unless
 *       {@code --no-repair}) and validated behind the facade, and the structured output is printed as JSON. Output that
 *       still violates the schema is a failure, or with {@code --lenient} printed with warnings on stderr.</li>
 *   <li>{@code vote -n N [--quorum SHARE]} with the schema options: redundant mode with N replicas; prints the winner
 *       and the confidence ({@code confidence: 0.67 (voting)}). A winner with less than the quorum's share of the
 *       votes (default 0.51, a strict majority) is no consensus: {@code ORCHESTRATION_NO_CONSENSUS}, exit code 6.</li>
 *   <li>{@code plan --plan FILE.json}: plan mode with the plan file ({@code StaticPlanner.fromJson}); prints each
 *       step's output as {@code [name] output}, then the final content.</li>
 *   <li>{@code adversarial}, {@code judge-vote}, {@code refine}: the facade's multi-model modes on the selected engine,
 *       which plays every part; each prints the mode's answer, {@code --json} the response with every phase.</li>
 * </ul>
 * The distribution's {@code pagantic} adds {@code tui}, {@code serve} and {@code mcp} through
 * {@link dev.pagantic.adapter.cli.PaganticCli#main(String[], java.util.List)}: adapters do not depend on each other,
 * so only the distribution module can put the other adapters' programs beside these commands.
 * Options of every model-using command: {@code --system TEXT}, {@code --max-tokens N}, {@code --temperature T},
 * {@code --top-p P}, {@code --seed N}, {@code --stop TEXT} (repeatable), {@code --timeout SECONDS} (the request's
 * deadline), {@code --json} (the whole
 * {@code SystemResponse} in the facade's wire form, {@code FacadeJson.toJson}, instead of the plain rendering; a
 * failure before any response, a usage error included, prints {@code {"error": {"code", "category", "retryable",
 * "message", "details"}, "exit_code": N}} instead, so that stdout is always one JSON document) and
 * {@code --verbose} (the request's event timeline on stderr after the response: one line per event with the time
 * since the first event, layer/action, the event's data, its duration and error). Every command has {@code --help};
 * {@code --version} prints the project version.
 *
 * <h2>Engines</h2>
 * Exactly one of these selects the engine; they may come before or after the command name (after wins):
 * <ul>
 *   <li>{@code --model FILE.gguf} with {@code --ctx-size}, {@code --threads}, {@code --gpu-layers}: llama.cpp in
 *       process ({@code LlamaCppEngine} on a {@code LlamaRuntime} of the run). While the model loads, stderr shows
 *       {@code loading model X...} (a spinner on a terminal: the binding reports no intermediate progress) and then
 *       {@code loaded X in N ms}.</li>
 *   <li>{@code --endpoint URL --model-name NAME}: an OpenAI-compatible server (llama-server, vLLM, Ollama, a hosted
 *       API or pagantic's own HTTP adapter) through {@code OpenAiCompatibleEngine}, with the API key from
 *       {@code $OPENAI_API_KEY} when set.</li>
 *   <li>{@code --scripted REPLY} (repeatable): the testkit's {@code ScriptedEngine}, answering the replies in order,
 *       one per model call. It is for trying the command (and its tests) without a model.</li>
 * </ul>
 * Without any of them the command fails with {@code CONFIG_NO_ENGINE} and says which options to give.
 *
 * <h2>Exit codes</h2>
 * 0 success; 1 usage error (picocli: an unknown option, a missing argument); 2 {@code ConfigurationFailure}; 3
 * {@code InferenceFailure}; 4 {@code ToolFailure}; 5 {@code ConstraintFailure} or {@code ValidationFailure}; 6
 * {@code OrchestrationFailure}; 130 {@code Cancellation} (Ctrl-C, which cancels the request in flight, or the
 * {@code --timeout} deadline); 70 an unexpected internal error. Failures are printed on stderr as
 * {@code error: CODE (Category): message}; see {@link dev.pagantic.adapter.cli.ExitCodes}. The same table ends every
 * command's help.
 *
 * <h2>Running it</h2>
 * The distribution module builds the command: {@code distribution/target/pagantic/bin/pagantic} after
 * {@code mvn -B -q -DskipTests install} (no Maven when it runs). {@link dev.pagantic.adapter.cli.PaganticCli#main}
 * ends with {@code System.exit} to report the exit code (the JVM would end by itself: the llama.cpp engine lets it go
 * once closed); {@link dev.pagantic.adapter.cli.PaganticCli#run} runs the command on given streams and returns the
 * exit code instead (what the tests use). Library logging goes through slf4j-simple at level {@code warn}
 * ({@code simplelogger.properties}), so that stdout holds only the response.
 *
 * <h2>The adapter boundary</h2>
 * An adapter is a thin shell. This one turns arguments and standard input into a {@code SystemRequest}, hands it to
 * the {@code Orchestrator} and prints the {@code SystemResponse} or its error. It contains no prompt construction, no
 * tool execution and no JSON Schema validation: those live behind the facade. It imports only orchestrate's facade
 * ({@code dev.pagantic.orchestrate.facade}), core, and the engines and band components it wires up (llama.cpp, the
 * testkit, the file conversation store, the event log), of which it calls nothing but their builders and
 * {@code close()}; it never imports another adapter. That last rule is why the event timeline comes from the facade's
 * {@code RequestTimelines} and the load indicator only notes that a load started (see {@code EngineSelection}). As a program it owns the console: commands write to the streams they are given, which
 * {@code main} connects to stdout and stderr (UTF-8).
 */
@NullMarked
package dev.pagantic.adapter.cli;

import org.jspecify.annotations.NullMarked;
