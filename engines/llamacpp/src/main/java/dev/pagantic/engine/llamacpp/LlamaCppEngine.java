package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.EmbeddingModel;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.TokenCounter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@link Engine} that runs a GGUF model in process with llama.cpp (through java-llama.cpp), with decoder-level
 * constraints that fail closed.
 *
 * <h2>A call</h2>
 * <ol>
 *   <li>The request's grammar, or the grammar derived from its schema by the inference layer, or, when it offers tools,
 *       the grammar of the tool-call format the model's chat template teaches ({@link ToolFormat}) is chosen. Every grammar has been checked by
 *       the inference layer's parser before native code sees it (llama.cpp would silently generate unconstrained
 *       text), and the output is checked against it afterwards: {@code CONSTRAINT_GRAMMAR_REJECTED} if it does not
 *       conform. The binding's own JSON-Schema conversion, which aborts the JVM on bad input, is never used. A grammar
 *       over the inference layer's cost budget ({@code GrammarCost}) is refused ({@code CONFIG_GRAMMAR_INVALID}) in
 *       milliseconds, before a slot is taken: llama.cpp's grammar set-up cannot be interrupted, so the budget is what
 *       keeps it under a second; cancellation is checked once more just before native code starts.</li>
 *   <li>The messages are rendered with the model's chat template (tool calls, tool results and tool definitions
 *       included); a prompt that leaves no room in the context window is {@code INFERENCE_CONTEXT_EXCEEDED}, before
 *       any decoding (llama.cpp would otherwise cut the prompt silently).</li>
 *   <li>Tokens are generated and streamed one by one; cancellation, the deadline and closing are checked after every
 *       token. A tool-calling answer is read in its format into text, reasoning and {@link dev.pagantic.core.ToolCall}s
 *       (finish reason {@code TOOL_CALLS}); only its text streams.</li>
 * </ol>
 * Usage counts come from the model's tokenizer (the prompt, plus the beginning-of-sequence token) and from the tokens
 * generated; an unset temperature or top-p is llama.cpp's default (0.8, 0.95), 0 is greedy. The engine-specific
 * options a request may carry are listed in {@link RequestOptions}; unknown ones are refused.
 *
 * <h2>Concurrency and prompt reuse</h2>
 * A model has {@link Builder#parallel(int) parallel} slots (default 1), each with an equal share of the context
 * window; a request holds a slot from prompt to last token, and requests beyond the slots wait their turn (their
 * cancellation and deadline still apply). Measured on 2 cores, more slots gave no throughput, so one is the default.
 * The prompt prefix evaluated by a slot's previous request is reused (llama.cpp's prompt cache), so turn N of a
 * conversation evaluates only what is new; option {@code cache_prompt=false} turns it off.
 *
 * <h2>Lifecycle</h2>
 * Models are loaded into a {@link LlamaRuntime} and shared: build engines on the application's runtime, or let an
 * engine create a private one that it closes with itself. Closing during a request stops the request at its next
 * token ({@code INFERENCE_ENGINE_CLOSED}); later calls fail the same way. Nothing here blocks forever.
 *
 * <h2>Embeddings</h2>
 * With {@link Builder#embeddings(boolean) embeddings(true)} the engine also implements {@link EmbeddingModel}
 * (last-token pooling: llama.cpp's default pooling gives every input the same vector on these models, and mean pooling
 * aborts the JVM).
 */
public final class LlamaCppEngine implements Engine, EmbeddingModel {

    /** The default context window. */
    public static final int DEFAULT_CONTEXT_SIZE = 2048;
    /** The default logical batch size. */
    public static final int DEFAULT_BATCH_SIZE = 512;

    private final LlamaRuntime runtime;
    private final boolean ownsRuntime;
    private final SharedModel model;
    private final ModelInfo info;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile int dimension;

    private LlamaCppEngine(LlamaRuntime runtime, boolean ownsRuntime, SharedModel model, ModelInfo info) {
        this.runtime = runtime;
        this.ownsRuntime = ownsRuntime;
        this.model = model;
        this.info = info;
    }

    /** Starts building an engine; a model path is required. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Result infer(CallContext context, Request request) {
        return infer(context, request, StreamHandler.NOOP);
    }

    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "handler (use StreamHandler.NOOP)");
        requireOpen();
        context.throwIfDone();
        info.requireSupported(request);
        NativeInputGuard.requireSafe(request);
        try {
            return new Generation(model, info.contextWindow(), context, request, handler).run();
        } catch (RuntimeException failure) {
            throw asPagantic(failure);
        }
    }

    /**
     * A failure of the binding (its {@code LlamaException}, thrown for instance when llama.cpp refuses the parameters
     * of a new task) as {@code INFERENCE_ENGINE_ERROR}; anything else, such as a stream handler's own exception,
     * unchanged.
     */
    private static RuntimeException asPagantic(RuntimeException failure) {
        if (failure.getClass().getName().startsWith("de.kherud.")) {
            return PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "llama.cpp failed: " + failure.getMessage(),
                    failure);
        }
        return failure;
    }

    @Override
    public ModelInfo modelInfo() {
        return info;
    }

    /** Counts with the model's own tokenizer. */
    @Override
    public TokenCounter tokenCounter() {
        return text -> model.withoutSlot(llama -> llama.encode(text).length);
    }

    /**
     * {@inheritDoc}
     *
     * @throws PaganticException {@code CONFIG_UNSUPPORTED_CAPABILITY} unless built with {@code embeddings(true)}
     */
    @Override
    public float[] embed(CallContext context, String text) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(text, "text");
        requireOpen();
        if (!info.supports(Capability.EMBEDDINGS)) {
            throw PaganticException.of(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY,
                    "this engine was not built with embeddings(true)");
        }
        context.throwIfDone();
        if (text.indexOf('\0') >= 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "the text holds a NUL character");
        }
        return model.withSlot(context, llama -> {
            Generation.tokensThatFit(llama, "the text", text, info.contextWindow(), info.contextWindow());
            return llama.embed(text);
        });
    }

    @Override
    public int dimension() {
        if (dimension == 0) {
            dimension = embed(CallContext.background(), " ").length;
        }
        return dimension;
    }

    /** The prompt a request renders to, for the tests of this package. */
    String prompt(Request request) {
        return generation(request).prompt();
    }

    /** The tool-call format a request with tools is answered in, for the tests of this package. */
    String toolFormat(Request request) {
        return generation(request).toolFormat().map(ToolFormat::name).orElse("none");
    }

    private Generation generation(Request request) {
        return new Generation(model, info.contextWindow(), CallContext.background(), request, StreamHandler.NOOP);
    }

    /** The native model, for the tests of this package. */
    de.kherud.llama.LlamaModel nativeModel() {
        return model.unguarded();
    }

    /** The runtime the model belongs to. */
    public LlamaRuntime runtime() {
        return runtime;
    }

    /**
     * Closes the engine: later calls fail with {@code INFERENCE_ENGINE_CLOSED}. A private runtime is closed with it
     * (stopping a running request at its next token); a shared runtime and its models stay open. Idempotent.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && ownsRuntime) {
            runtime.close();
        }
    }

    private void requireOpen() {
        if (closed.get()) {
            throw PaganticException.builder(ErrorCode.INFERENCE_ENGINE_CLOSED, "the llama.cpp engine is closed")
                    .detail("model", info.name()).build();
        }
        model.requireOpen();
    }

    @Override
    public String toString() {
        return "LlamaCppEngine[" + info.name() + ", context=" + info.contextWindow() + "]";
    }

    /**
     * Builds a {@link LlamaCppEngine}, loading its model (or borrowing it from the runtime). Validated at
     * {@link #build()} with {@code CONFIG_INVALID}; a model that cannot be loaded is
     * {@code INFERENCE_MODEL_UNAVAILABLE}.
     */
    public static final class Builder {
        private Path modelPath;
        private int contextSize = DEFAULT_CONTEXT_SIZE;
        private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private int gpuLayers;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private int parallel = 1;
        private long seed = -1;
        private boolean embeddings;
        private LlamaRuntime runtime;
        private Path nativeLibraryPath;
        private LoadListener loadListener = LoadListener.NONE;

        private Builder() {
        }

        /** The GGUF model file (required). */
        public Builder modelPath(Path value) {
            this.modelPath = value;
            return this;
        }

        /** The context window in tokens, shared by the slots; {@value LlamaCppEngine#DEFAULT_CONTEXT_SIZE} by default. */
        public Builder contextSize(int value) {
            this.contextSize = value;
            return this;
        }

        /** CPU threads; the number of available processors by default. */
        public Builder threads(int value) {
            this.threads = value;
            return this;
        }

        /**
         * Layers to offload to the GPU; 0 (CPU only) by default. Needs a GPU build of the native library
         * ({@link #nativeLibraryPath(Path)}); the bundled library is CPU-only and ignores it.
         */
        public Builder gpuLayers(int value) {
            this.gpuLayers = value;
            return this;
        }

        /** The logical batch size of prompt evaluation; {@value LlamaCppEngine#DEFAULT_BATCH_SIZE} by default. */
        public Builder batchSize(int value) {
            this.batchSize = value;
            return this;
        }

        /** Parallel slots (requests served at once), each with {@code contextSize / parallel} tokens; 1 by default. */
        public Builder parallel(int value) {
            this.parallel = value;
            return this;
        }

        /** The default sampling seed; -1 (random) by default. A request's seed overrides it. */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** Whether the model also computes embeddings ({@link EmbeddingModel}); false by default. */
        public Builder embeddings(boolean value) {
            this.embeddings = value;
            return this;
        }

        /** The runtime to borrow the model from; by default the engine creates a private one and closes it. */
        public Builder runtime(LlamaRuntime value) {
            this.runtime = value;
            return this;
        }

        /** For a private runtime: where the native library is (see {@link LlamaRuntime.Builder#nativeLibraryPath}). */
        public Builder nativeLibraryPath(Path value) {
            this.nativeLibraryPath = value;
            return this;
        }

        /** Hears about the model load; none by default. */
        public Builder loadListener(LoadListener value) {
            this.loadListener = value;
            return this;
        }

        /**
         * The engine.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for invalid settings, {@code INFERENCE_MODEL_UNAVAILABLE}
         *                           for a model that cannot be loaded, {@code INFERENCE_ENGINE_CLOSED} for a closed
         *                           runtime
         */
        public LlamaCppEngine build() {
            require(modelPath != null, "a model path is required");
            require(contextSize > 0, "contextSize must be positive: " + contextSize);
            require(threads > 0, "threads must be positive: " + threads);
            require(gpuLayers >= 0, "gpuLayers must not be negative: " + gpuLayers);
            require(batchSize > 0, "batchSize must be positive: " + batchSize);
            require(parallel > 0 && contextSize / parallel > 0, "parallel must be within [1, contextSize]: "
                    + parallel);
            require(loadListener != null, "loadListener must not be null (use LoadListener.NONE)");
            require(runtime == null || nativeLibraryPath == null,
                    "a native library path is a runtime setting: give it to the runtime, not the engine");
            ModelSpec spec = new ModelSpec(modelPath.toAbsolutePath().normalize(), contextSize, threads, gpuLayers,
                    batchSize, parallel, seed, embeddings);
            boolean owns = runtime == null;
            LlamaRuntime using = owns ? privateRuntime() : runtime;
            try {
                SharedModel model = using.acquire(spec, loadListener);
                return new LlamaCppEngine(using, owns, model, modelInfo(spec));
            } catch (RuntimeException failure) {
                if (owns) {
                    using.close();
                }
                throw failure;
            }
        }

        private LlamaRuntime privateRuntime() {
            LlamaRuntime.Builder builder = LlamaRuntime.builder();
            if (nativeLibraryPath != null) {
                builder.nativeLibraryPath(nativeLibraryPath);
            }
            return builder.build();
        }

        private static ModelInfo modelInfo(ModelSpec spec) {
            List<Capability> capabilities = new ArrayList<>(List.of(Capability.GRAMMAR, Capability.SCHEMA,
                    Capability.TOOLS, Capability.STREAMING, Capability.TOKEN_COUNTING, Capability.SEED,
                    Capability.STOP));
            if (spec.embeddings()) {
                capabilities.add(Capability.EMBEDDINGS);
            }
            String name = spec.path().getFileName().toString().replaceFirst("\\.gguf$", "");
            return ModelInfo.of(name, spec.slotContext(), capabilities.toArray(Capability[]::new));
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid LlamaCppEngine configuration: "
                        + message);
            }
        }
    }
}
