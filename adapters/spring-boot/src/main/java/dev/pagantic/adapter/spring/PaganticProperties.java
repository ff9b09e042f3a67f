package dev.pagantic.adapter.spring;

import dev.pagantic.engine.routing.RoutingEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The starter's settings, under the prefix {@code pagantic}: the engine, the orchestrator's system prompt and limits,
 * the conversation store and the registration of {@code @Tool} beans. For example:
 *
 * <pre>{@code
 * pagantic:
 *   engine:
 *     kind: llamacpp
 *     llamacpp:
 *       model-path: /models/qwen2.5-1.5b-instruct-q4_k_m.gguf
 *       context-size: 4096
 *   system-prompt: You are a support assistant.
 *   max-tokens: 512
 *   store:
 *     kind: jdbc
 * }</pre>
 *
 * Paths are plain file-system paths (read with {@code Path.of}), not Spring resource locations. No engine kind, no
 * engine: the starter then configures nothing unless the application declares an
 * {@code Engine} bean itself.
 */
@ConfigurationProperties(prefix = "pagantic")
public class PaganticProperties {

    /** The engine every request runs on. */
    private final Engine engine = new Engine();

    /** The system prompt of every request; none when unset. */
    private @Nullable String systemPrompt;

    /** The most tokens per inference. */
    private int maxTokens = 2048;

    /** The sampling temperature; the engine's default when unset. */
    private @Nullable Double temperature;

    /** The nucleus-sampling probability mass; the engine's default when unset. */
    private @Nullable Double topP;

    /** The most tool rounds of one chat turn. */
    private int maxToolIterations = 20;

    /** Live chat sessions. */
    private final Sessions sessions = new Sessions();

    /** Where chat sessions are kept. */
    private final Store store = new Store();

    /** Registration of tools found in the application context. */
    private final Tools tools = new Tools();

    public Engine getEngine() {
        return engine;
    }

    public @Nullable String getSystemPrompt() {
        return systemPrompt;
    }

    public void setSystemPrompt(@Nullable String systemPrompt) {
        this.systemPrompt = systemPrompt;
    }

    public int getMaxTokens() {
        return maxTokens;
    }

    public void setMaxTokens(int maxTokens) {
        this.maxTokens = maxTokens;
    }

    public @Nullable Double getTemperature() {
        return temperature;
    }

    public void setTemperature(@Nullable Double temperature) {
        this.temperature = temperature;
    }

    public @Nullable Double getTopP() {
        return topP;
    }

    public void setTopP(@Nullable Double topP) {
        this.topP = topP;
    }

    public int getMaxToolIterations() {
        return maxToolIterations;
    }

    public void setMaxToolIterations(int maxToolIterations) {
        this.maxToolIterations = maxToolIterations;
    }

    public Sessions getSessions() {
        return sessions;
    }

    public Store getStore() {
        return store;
    }

    public Tools getTools() {
        return tools;
    }

    /** Which engine runs the requests. */
    public enum EngineKind {
        /** A GGUF model in process through llama.cpp ({@code pagantic.engine.llamacpp.*}). */
        LLAMACPP,
        /** An OpenAI-compatible server: llama-server, vLLM, Ollama or a hosted API ({@code pagantic.engine.openai.*}). */
        OPENAI,
        /** A fleet of engines as one ({@code pagantic.engine.routing.*}). */
        ROUTING
    }

    /** The engine: its kind and the settings of that kind. */
    public static class Engine {

        /** The kind of engine; without one the starter builds no engine. */
        private @Nullable EngineKind kind;

        /**
         * Whether a model that cannot be loaded (a missing, corrupt or unsupported GGUF file) fails the application's
         * start. When false, the application starts, the health indicator reports the engine DOWN with the reason,
         * and every request fails with INFERENCE_MODEL_UNAVAILABLE.
         */
        private boolean failFast = false;

        /** The in-process llama.cpp engine. */
        private final LlamaCpp llamacpp = new LlamaCpp();

        /** The OpenAI-compatible engine. */
        private final OpenAi openai = new OpenAi();

        /** The routing engine over a fleet of replicas. */
        private final Routing routing = new Routing();

        public @Nullable EngineKind getKind() {
            return kind;
        }

        public void setKind(@Nullable EngineKind kind) {
            this.kind = kind;
        }

        public boolean isFailFast() {
            return failFast;
        }

        public void setFailFast(boolean failFast) {
            this.failFast = failFast;
        }

        public LlamaCpp getLlamacpp() {
            return llamacpp;
        }

        public OpenAi getOpenai() {
            return openai;
        }

        public Routing getRouting() {
            return routing;
        }
    }

    /** A GGUF model run in process by llama.cpp. */
    public static class LlamaCpp {

        /** The GGUF model file (a file-system path, relative to the working directory or absolute). */
        private @Nullable String modelPath;

        /** The context window in tokens, shared by the parallel slots. */
        private int contextSize = 2048;

        /** Layers offloaded to the GPU; 0 runs on the CPU. */
        private int gpuLayers = 0;

        /** CPU threads; the number of available processors when unset. */
        private @Nullable Integer threads;

        /** Requests served at once, each with contextSize / parallel tokens. */
        private int parallel = 1;

        public @Nullable String getModelPath() {
            return modelPath;
        }

        public void setModelPath(@Nullable String modelPath) {
            this.modelPath = modelPath;
        }

        public int getContextSize() {
            return contextSize;
        }

        public void setContextSize(int contextSize) {
            this.contextSize = contextSize;
        }

        public int getGpuLayers() {
            return gpuLayers;
        }

        public void setGpuLayers(int gpuLayers) {
            this.gpuLayers = gpuLayers;
        }

        public @Nullable Integer getThreads() {
            return threads;
        }

        public void setThreads(@Nullable Integer threads) {
            this.threads = threads;
        }

        public int getParallel() {
            return parallel;
        }

        public void setParallel(int parallel) {
            this.parallel = parallel;
        }
    }

    /** An OpenAI-compatible chat-completions server. */
    public static class OpenAi {

        /** The server's base URL, for example http://localhost:8080 (the engine posts to /v1/chat/completions). */
        private @Nullable String baseUrl;

        /** The API key, sent as a bearer token; none when unset. */
        private @Nullable String apiKey;

        /** The model name sent with each request (required). */
        private @Nullable String model;

        /** How long to wait for a connection. */
        private Duration connectTimeout = Duration.ofSeconds(10);

        /** How long one request may take. */
        private Duration requestTimeout = Duration.ofMinutes(10);

        /** The model's context window in tokens, for prompt-size checks. */
        private int contextWindow = 8192;

        public @Nullable String getBaseUrl() {
            return baseUrl;
        }

        public void setBaseUrl(@Nullable String baseUrl) {
            this.baseUrl = baseUrl;
        }

        public @Nullable String getApiKey() {
            return apiKey;
        }

        public void setApiKey(@Nullable String apiKey) {
            this.apiKey = apiKey;
        }

        public @Nullable String getModel() {
            return model;
        }

        public void setModel(@Nullable String model) {
            this.model = model;
        }

        public Duration getConnectTimeout() {
            return connectTimeout;
        }

        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }

        public int getContextWindow() {
            return contextWindow;
        }

        public void setContextWindow(int contextWindow) {
            this.contextWindow = contextWindow;
        }
    }

    /** A fleet of engines served as one. */
    public static class Routing {

        /** How a request picks its replica. */
        private RoutingEngine.Strategy strategy = RoutingEngine.Strategy.ROUND_ROBIN;

        /** Whether a failed request is retried once on another replica. */
        private boolean failover = true;

        /** The replicas, each a llama.cpp model or an OpenAI-compatible server. */
        private final List<Replica> replicas = new ArrayList<>();

        public RoutingEngine.Strategy getStrategy() {
            return strategy;
        }

        public void setStrategy(RoutingEngine.Strategy strategy) {
            this.strategy = strategy;
        }

        public boolean isFailover() {
            return failover;
        }

        public void setFailover(boolean failover) {
            this.failover = failover;
        }

        public List<Replica> getReplicas() {
            return replicas;
        }
    }

    /** One replica of a routing fleet. */
    public static class Replica {

        /** The replica's kind: llamacpp or openai. */
        private @Nullable EngineKind kind;

        /** The replica's llama.cpp settings, when its kind is llamacpp. */
        private final LlamaCpp llamacpp = new LlamaCpp();

        /** The replica's server, when its kind is openai. */
        private final OpenAi openai = new OpenAi();

        public @Nullable EngineKind getKind() {
            return kind;
        }

        public void setKind(@Nullable EngineKind kind) {
            this.kind = kind;
        }

        public LlamaCpp getLlamacpp() {
            return llamacpp;
        }

        public OpenAi getOpenai() {
            return openai;
        }
    }

    /** Live chat sessions (all of them stay in the store). */
    public static class Sessions {

        /** The most sessions kept live at once. */
        private int max = 1024;

        /** How long an idle session stays live. */
        private Duration ttl = Duration.ofMinutes(30);

        public int getMax() {
            return max;
        }

        public void setMax(int max) {
            this.max = max;
        }

        public Duration getTtl() {
            return ttl;
        }

        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }
    }

    /** Which conversation store keeps chat sessions. */
    public enum StoreKind {
        /** In the JVM's memory: lost when the application stops. */
        MEMORY,
        /** One crash-safe journal file per session in a directory ({@code pagantic.store.file.directory}). */
        FILE,
        /** Tables in the application's DataSource (PostgreSQL, SQLite), shared by every instance of a service. */
        JDBC
    }

    /** The conversation store. */
    public static class Store {

        /** The kind of store. */
        private StoreKind kind = StoreKind.MEMORY;

        /** The file store's settings. */
        private final FileStore file = new FileStore();

        /** The JDBC store's settings. */
        private final JdbcStore jdbc = new JdbcStore();

        public StoreKind getKind() {
            return kind;
        }

        public void setKind(StoreKind kind) {
            this.kind = kind;
        }

        public FileStore getFile() {
            return file;
        }

        public JdbcStore getJdbc() {
            return jdbc;
        }
    }

    /** The file store: a journal per session. */
    public static class FileStore {

        /** The directory of the journals (a file-system path); created when missing. */
        private @Nullable String directory;

        /** Whether every append is forced to disk before it returns. */
        private boolean fsync = true;

        public @Nullable String getDirectory() {
            return directory;
        }

        public void setDirectory(@Nullable String directory) {
            this.directory = directory;
        }

        public boolean isFsync() {
            return fsync;
        }

        public void setFsync(boolean fsync) {
            this.fsync = fsync;
        }
    }

    /** The JDBC store on the application's DataSource. */
    public static class JdbcStore {

        /** Whether the store's tables are created when missing (otherwise run the shipped SQL script yourself). */
        private boolean createSchema = true;

        public boolean isCreateSchema() {
            return createSchema;
        }

        public void setCreateSchema(boolean createSchema) {
            this.createSchema = createSchema;
        }
    }

    /** Tools found in the application context. */
    public static class Tools {

        /**
         * Whether beans with @Tool methods, and beans that are pagantic Tools, are registered as the orchestrator's
         * tools.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
