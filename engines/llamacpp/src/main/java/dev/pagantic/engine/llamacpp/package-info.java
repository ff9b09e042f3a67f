/**
 * An {@link dev.pagantic.inference.Engine} that runs GGUF models in process through llama.cpp, by way of the
 * java-llama.cpp JNI binding (planned; not yet implemented).
 *
 * <h2>What it will provide</h2>
 * <ul>
 *   <li>Loading a model file into an object the application creates, shares between engines as it chooses, and
 *       closes; a loaded native model is never held in static state.</li>
 *   <li>Chat templates applied to pagantic's {@link dev.pagantic.core.Message}s, with tool definitions and tool-call
 *       envelopes parsed back into {@link dev.pagantic.core.ToolCall}s.</li>
 *   <li>GBNF grammars passed to the decoder, so output conforms at generation time (grammars come from, and are
 *       checked by, {@code dev.pagantic.inference.grammar}).</li>
 *   <li>Token streaming to a {@link dev.pagantic.inference.StreamHandler}, with cancellation and deadlines of the
 *       {@link dev.pagantic.core.CallContext} honoured between tokens.</li>
 *   <li>Exact token counting with the model's tokenizer, and embeddings where the model supports them, each declared
 *       as a {@link dev.pagantic.inference.Capability}.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Depends on core and inference (plus the vendor binding), never on orchestrate or the band. Native failures are
 * wrapped in {@link dev.pagantic.core.PaganticException}s with {@code INFERENCE_*} codes. The engine passes the
 * Engine contract kit of {@code pagantic-testkit}. Its tests use the small GGUF models in the folder named by
 * {@code PAGANTIC_TEST_MODEL_DIR} (default {@code ../shared/models} from the repository root); model files are never
 * committed.
 */
package dev.pagantic.engine.llamacpp;
