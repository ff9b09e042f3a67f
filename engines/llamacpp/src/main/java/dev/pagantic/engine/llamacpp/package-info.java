/**
 * An {@link dev.pagantic.inference.Engine} that runs GGUF models in process with llama.cpp, through the java-llama.cpp
 * JNI binding (4.2.0, llama.cpp b4916): {@link dev.pagantic.engine.llamacpp.LlamaCppEngine}, on models held by an
 * application-owned {@link dev.pagantic.engine.llamacpp.LlamaRuntime}.
 *
 * <pre>{@code
 * try (LlamaRuntime runtime = LlamaRuntime.create();
 *      LlamaCppEngine engine = LlamaCppEngine.builder().runtime(runtime)
 *              .modelPath(Path.of("models/qwen2.5-1.5b-instruct-q4_k_m.gguf")).contextSize(4096).build()) {
 *     Result result = engine.infer(ctx, request);
 * }
 * }</pre>
 *
 * <h2>Design decisions, each from a measured behaviour of the binding</h2>
 * <ul>
 *   <li><b>Constraints fail closed.</b> llama.cpp ignores a grammar it cannot parse and generates unconstrained text,
 *       so every grammar is parsed by the inference layer first (a request with a malformed one cannot even be built)
 *       and the output is matched against it afterwards ({@code CONSTRAINT_GRAMMAR_REJECTED}). Schemas become grammars
 *       in the inference layer, never through the binding's {@code jsonSchemaToGrammar}, which aborts the JVM on bad
 *       input.</li>
 *   <li><b>Nothing that aborts the JVM is reachable.</b> The chat template's JSON input is written by Jackson with
 *       every string made safe (lone surrogates, characters beyond U+FFFF, which the binding's return path garbles, and
 *       NUL, which native code takes for the end of the text); Jinja is always on, so tools in the template are safe;
 *       no chat template is chosen by name; request options are a closed list ({@code n_probs}, OpenAI's
 *       {@code logprobs}, aborts at any value); embeddings use last-token pooling (mean pooling aborts on llama
 *       models). Numbers beyond the float range (a temperature or a penalty of {@code 1e300}) and NaN or infinite
 *       logit biases would reach the binding's JSON as {@code Infinity} or {@code NaN}, and a grammar terminal that
 *       can match U+0000 makes llama.cpp throw from the sampler: all abort the JVM and are refused in Java
 *       ({@code NativeInputGuard}, {@code RequestOptions}). A chat template's {@code raise_exception} aborts the JVM
 *       too, so for a template that calls it the conversation is rendered in the shape such templates accept: a
 *       late system message (the orchestrator's retrieved context) folded into the next user message, adjacent
 *       messages of one role joined; what cannot be brought there (an assistant message first) is refused before
 *       rendering ({@code ChatShape}). Child-JVM tests ({@code NativeAbortTest},
 *       {@code NativeSafetyTest}) prove each.</li>
 *   <li><b>Cancellation from the generating thread.</b> The binding's {@code cancel()} from another thread hangs the
 *       waiting thread, and an abandoned generation blocks the model until its token budget is spent, so the engine
 *       checks the call context after every token and cancels on the thread that generates, on every way out.</li>
 *   <li><b>Models are loaded once.</b> Closing a native model frees no memory, so a runtime keeps each model until it
 *       closes, shared by engines with equal load settings; a slot semaphore is the lifecycle guard that makes close
 *       during a request stop that request instead of hanging it.</li>
 *   <li><b>The native library is extracted privately.</b> Left alone the binding deletes files in the shared temporary
 *       directory, extracts to a fixed name and prints to standard output; the runtime points it at a private
 *       directory (named with the pid, so that the directories of killed processes can be removed later), or at a
 *       GPU build given as the native library path.</li>
 *   <li><b>Logging.</b> llama.cpp's own log is switched off: the binding's log callback delivers nothing in 4.2.0, and
 *       the alternative is about 145 lines on standard error per load. The engine logs loads through SLF4J.</li>
 *   <li><b>Tool calls in the model's own format.</b> The chat template's tool-call format is recognised as
 *       llama.cpp b4916's chat layer does ({@code ToolFormats}: Hermes 2 Pro/Qwen 2.5, Llama 3.x, Mistral Nemo,
 *       Functionary v3.1 and v3.2, FireFunction v2, Command R7B, DeepSeek R1, generic); each {@code ToolFormat}
 *       builds the grammar of its syntax with every tool's arguments constrained by its schema and reads the output
 *       back. Text stays free under {@code tool_choice=auto} through a grammar that admits free text until the
 *       format's opening: llama.cpp's lazy grammars abort the JVM through the binding. A template that teaches no
 *       tool calls gets the generic JSON format, described by the engine itself so that prompt and grammar agree.
 *       Templates that raise on a conversation abort the JVM too, so each format adapts what its template
 *       refuses.</li>
 *   <li><b>The header is read in Java.</b> {@code GgufMetadata} reads the architecture and chat templates before
 *       loading; an architecture the native library does not hold as a name ({@code NativeArchitectures}, read from
 *       the library) is refused naming it, the llama.cpp build and the way out.</li>
 *   <li><b>The JVM still ends when {@code main} returns.</b> The binding leaves a non-daemon thread attached for good;
 *       {@code ExitWatch} ends the JVM once only such threads are left, as the launcher would have.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Depends on core and inference plus the binding (and Jackson, SLF4J), never on orchestrate or the band. Failures are
 * {@link dev.pagantic.core.PaganticException}s: {@code INFERENCE_MODEL_UNAVAILABLE} for a model that cannot be loaded,
 * {@code INFERENCE_CONTEXT_EXCEEDED} before decoding a prompt that does not fit, {@code INFERENCE_ENGINE_CLOSED},
 * {@code INFERENCE_ENGINE_ERROR} for a native failure, {@code CONFIG_*} for input refused in Java. The engine passes the
 * testkit's Engine contract kit; its tests use the GGUF models of the folder named by {@code PAGANTIC_TEST_MODEL_DIR}
 * (default {@code ../shared/models} from the repository root), skipped with a message when missing, failed in CI.
 */
package dev.pagantic.engine.llamacpp;
