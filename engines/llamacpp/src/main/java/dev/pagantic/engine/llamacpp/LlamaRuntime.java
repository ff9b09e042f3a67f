package dev.pagantic.engine.llamacpp;

import de.kherud.llama.LlamaModel;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's llama.cpp runtime: it prepares the native library and holds the loaded models, which engines
 * borrow. Create one per application (it is an ordinary object, never static state), build engines with
 * {@link LlamaCppEngine.Builder#runtime(LlamaRuntime)}, and close it when the application ends.
 *
 * <h2>Why models are shared and kept</h2>
 * java-llama.cpp frees no native memory when a model is closed (about 34 MB and a thread per load stay behind), so
 * loading the same file again and again leaks. The runtime loads a model once per distinct set of load settings and
 * keeps it until the runtime closes; engines built with equal settings share it, with its slots.
 *
 * <h2>Failures</h2>
 * A missing, unreadable or non-GGUF file, and a model whose architecture ({@code general.architecture} in its header)
 * the native library does not know, are refused in Java before any native code runs; a file the native loader rejects
 * (truncated, corrupt) fails cleanly too. All are {@code INFERENCE_MODEL_UNAVAILABLE} with the path and the reason,
 * and the runtime stays usable. An unknown architecture (a Qwen3 model on the bundled llama.cpp b4916, say) is named,
 * with the llama.cpp build and the way out: a current llama-server behind the OpenAI-compatible engine, or a newer
 * native library. Which architectures the library knows is read from the library itself
 * ({@link NativeArchitectures}).
 *
 * <h2>Process-wide effects</h2>
 * A JVM loads the native library once; the first runtime decides where it comes from (see
 * {@link Builder#nativeLibraryPath(Path)}). The binding leaves a non-daemon thread attached to the JVM for good once a
 * model has run; so that a program still ends when {@code main} returns, the runtime then watches for the moment only
 * such threads are left and ends the JVM as the launcher would have ({@code ExitWatch}): no {@code System.exit}
 * needed.
 */
public final class LlamaRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LlamaRuntime.class);
    private static final String GGUF_MAGIC = "GGUF";

    private final Path libraryDirectory;
    private final NativeArchitectures architectures;
    private final Map<ModelSpec, SharedModel> models = new LinkedHashMap<>();
    private boolean closed;

    private LlamaRuntime(Optional<Path> nativeLibraryPath) {
        this.libraryDirectory = NativeLibrary.prepare(nativeLibraryPath);
        this.architectures = new NativeArchitectures(libraryDirectory.resolve(NativeLibrary.libraryName()));
    }

    /** A runtime using the native library bundled with java-llama.cpp (CPU), unless one is configured already. */
    public static LlamaRuntime create() {
        return builder().build();
    }

    /** Starts building a runtime. */
    public static Builder builder() {
        return new Builder();
    }

    /** The directory the native library is loaded from. */
    public Path libraryDirectory() {
        return libraryDirectory;
    }

    /** The files of the models loaded so far, in load order. */
    public synchronized List<Path> loadedModels() {
        return models.keySet().stream().map(ModelSpec::path).toList();
    }

    /** Closes every loaded model (each once no request holds it); engines using them then fail as closed. */
    @Override
    public void close() {
        List<SharedModel> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(models.values());
        }
        toClose.forEach(SharedModel::close);
    }

    /** The loaded model for the spec, loading it on first use. */
    synchronized SharedModel acquire(ModelSpec spec, LoadListener listener) {
        if (closed) {
            throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_CLOSED, "the llama.cpp runtime is closed");
        }
        SharedModel loaded = models.get(spec);
        if (loaded != null) {
            listener.onEvent(new LoadEvent(spec.path(), LoadEvent.Stage.REUSED, Duration.ZERO, Optional.empty()));
            return loaded;
        }
        long started = System.nanoTime();
        listener.onEvent(new LoadEvent(spec.path(), LoadEvent.Stage.STARTED, Duration.ZERO, Optional.empty()));
        try {
            GgufMetadata metadata = checkGguf(spec.path());
            checkArchitecture(spec.path(), metadata);
            SharedModel model = new SharedModel(spec, load(spec, listener, started), ChatTemplates.of(metadata));
            models.put(spec, model);
            ExitWatch.start();
            return model;
        } catch (PaganticException refused) {
            listener.onEvent(failed(spec, started, refused.description()));
            throw refused;
        }
    }

    private static LlamaModel load(ModelSpec spec, LoadListener listener, long started) {
        try {
            LlamaModel model = new LlamaModel(spec.toParameters());
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            LOG.info("loaded {} in {} ms (context {}, slots {}, gpu layers {})", spec.path(), took.toMillis(),
                    spec.contextSize(), spec.parallel(), spec.gpuLayers());
            listener.onEvent(new LoadEvent(spec.path(), LoadEvent.Stage.LOADED, took, Optional.empty()));
            return model;
        } catch (RuntimeException nativeFailure) { // the binding's LlamaException is package-private
            throw unavailable(spec.path(), "the native loader refused it: " + nativeFailure.getMessage(),
                    nativeFailure);
        }
    }

    /** Refuses what is certainly not a model before native code sees it, and reads the metadata of what may be. */
    private static GgufMetadata checkGguf(Path path) {
        if (!Files.isRegularFile(path)) {
            throw unavailable(path, Files.exists(path) ? "it is not a regular file" : "the file does not exist", null);
        }
        try (InputStream in = Files.newInputStream(path)) {
            String magic = new String(in.readNBytes(GGUF_MAGIC.length()), StandardCharsets.ISO_8859_1);
            if (!magic.equals(GGUF_MAGIC)) {
                throw unavailable(path, "it is not a GGUF file (no GGUF magic at its start)", null);
            }
        } catch (IOException e) {
            throw unavailable(path, "it cannot be read: " + e.getMessage(), e);
        }
        try {
            return GgufMetadata.read(path);
        } catch (IOException e) {
            throw unavailable(path, "its GGUF header is corrupt: " + e.getMessage(), e);
        }
    }

    /** Refuses a model of an architecture the native library certainly does not know, saying what to do instead. */
    private void checkArchitecture(Path path, GgufMetadata metadata) {
        String architecture = metadata.string(GgufMetadata.ARCHITECTURE).orElse("");
        if (architectures.mayKnow(architecture)) {
            return;
        }
        String library = NativeLibrary.isBundled(libraryDirectory)
                ? "the bundled llama.cpp (build " + NativeLibrary.BUNDLED_BUILD + ", from java-llama.cpp "
                + NativeLibrary.BINDING_VERSION + ")"
                : "the llama.cpp library in " + libraryDirectory;
        String reason = "its architecture '" + architecture + "' is not supported by " + library + ". Serve the "
                + "model with a current llama-server and use the OpenAI-compatible engine (pagantic-engine-openai) "
                + "against it, or load a newer llama.cpp build of java-llama.cpp's native library (nativeLibraryPath)";
        throw PaganticException.builder(ErrorCode.INFERENCE_MODEL_UNAVAILABLE, "cannot load model " + path + ": "
                        + reason)
                .detail("path", path.toString())
                .detail("reason", reason)
                .detail("architecture", architecture)
                .detail("llama_cpp_build", NativeLibrary.isBundled(libraryDirectory) ? NativeLibrary.BUNDLED_BUILD
                        : "unknown")
                .build();
    }

    private static LoadEvent failed(ModelSpec spec, long started, String reason) {
        return new LoadEvent(spec.path(), LoadEvent.Stage.FAILED, Duration.ofNanos(System.nanoTime() - started),
                Optional.of(reason));
    }

    private static PaganticException unavailable(Path path, String reason, Throwable cause) {
        PaganticException.Builder failure = PaganticException.builder(ErrorCode.INFERENCE_MODEL_UNAVAILABLE,
                        "cannot load model " + path + ": " + reason)
                .detail("path", path.toString())
                .detail("reason", reason);
        if (cause != null) {
            failure.cause(cause);
        }
        return failure.build();
    }

    @Override
    public synchronized String toString() {
        return "LlamaRuntime[library=" + libraryDirectory + ", models=" + loadedModels() + "]";
    }

    /** Builds a {@link LlamaRuntime}. */
    public static final class Builder {
        private Path nativeLibraryPath;

        private Builder() {
        }

        /**
         * A directory holding a native library to load instead of the bundled CPU build: a CUDA build of
         * java-llama.cpp's {@code libjllama} for GPU offload (the binding's {@code cuda12} jar holds none). Ignored
         * when the {@value NativeLibrary#LIBRARY_PATH_PROPERTY} system property is set or a native library is loaded
         * already.
         */
        public Builder nativeLibraryPath(Path value) {
            this.nativeLibraryPath = Objects.requireNonNull(value, "nativeLibraryPath");
            return this;
        }

        /**
         * The runtime.
         *
         * @throws PaganticException {@code CONFIG_INVALID} when the native library directory lacks the library
         */
        public LlamaRuntime build() {
            return new LlamaRuntime(Optional.ofNullable(nativeLibraryPath));
        }
    }
}
