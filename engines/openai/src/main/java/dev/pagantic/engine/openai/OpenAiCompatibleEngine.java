package dev.pagantic.engine.openai;

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
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * An {@link Engine} that talks to an OpenAI-compatible {@code POST {baseUrl}/v1/chat/completions}: llama.cpp's
 * llama-server, vLLM, Ollama, LM Studio, hosted APIs, or pagantic's own HTTP adapter.
 *
 * <pre>{@code
 * try (OpenAiCompatibleEngine engine = OpenAiCompatibleEngine.builder()
 *         .baseUrl("http://localhost:8080")                 // with or without /v1
 *         .modelName("qwen2.5-1.5b-instruct")
 *         .constraintMode(ConstraintMode.GRAMMAR)           // llama-server honours GBNF grammars
 *         .contextWindow(4096)
 *         .build()) {
 *     Result result = engine.infer(ctx, request, StreamHandler.onContent(System.out::print));
 * }
 * }</pre>
 *
 * <h2>A call</h2>
 * The request becomes a chat completions body (messages with tool calls and results, tools, {@code response_format}
 * for a schema, {@code grammar} in {@link ConstraintMode#GRAMMAR} mode, sampling fields, and the request's options as
 * top-level fields). With {@code StreamHandler.NOOP} (or without a handler) the call is {@code stream: false}; with one
 * it streams server-sent events,
 * delivering content and reasoning deltas as they arrive and each tool call, complete, at the end. Requests needing
 * a capability the engine does not declare are refused with {@code CONFIG_UNSUPPORTED_CAPABILITY} before anything is
 * sent.
 *
 * <h2>Cancellation and time</h2>
 * Cancelling the {@link CallContext} aborts the HTTP exchange at once, from the cancelling thread (the connection is
 * closed, so the server stops generating): {@code CANCELLED_SIGNAL}. The earlier of the context's deadline
 * ({@code CANCELLED_TIMEOUT}) and the engine's {@linkplain Builder#requestTimeout request timeout}
 * ({@code INFERENCE_ENGINE_ERROR}, retryable: the server is too slow or hung) bounds the whole call, headers and
 * body. Both are also checked between streamed deltas.
 *
 * <h2>Failures</h2>
 * Refused connections, I/O failures, dropped streams and HTTP 5xx are {@code INFERENCE_ENGINE_ERROR} (retryable);
 * 404 is {@code INFERENCE_MODEL_UNAVAILABLE}; a 4xx about the context length is {@code INFERENCE_CONTEXT_EXCEEDED};
 * 429 is {@code INFERENCE_SATURATED} with {@code retry_after_ms} from {@code Retry-After}; other 4xx (401 and 403
 * included) are {@code CONFIG_INVALID} with the server's message; unparseable answers are
 * {@code INFERENCE_MALFORMED_RESPONSE}. Every failure carries the details {@code endpoint} and {@code model}, and
 * {@code status} when the server answered; the API key never appears in a message or a detail.
 *
 * <h2>Embeddings</h2>
 * The engine is also an {@link EmbeddingModel} against the same server's {@code POST {baseUrl}/v1/embeddings}:
 * {@link #embed(CallContext, String)}, and {@link #embedAll(CallContext, List)} for a batch in one request. The
 * vectors travel as base64 (read as float arrays too, for servers that ignore {@code encoding_format}); cancellation,
 * timeouts and failures are those of a chat call.
 *
 * <h2>Lifecycle</h2>
 * Thread-safe: calls run concurrently on the engine's own {@link HttpClient}. {@link #close()} aborts calls in flight
 * and refuses later ones with {@code INFERENCE_ENGINE_CLOSED}.
 */
public final class OpenAiCompatibleEngine implements Engine, EmbeddingModel {

    /** The default context window reported in {@link ModelInfo} when none is configured. */
    public static final int DEFAULT_CONTEXT_WINDOW = 8192;
    /** The default time to establish a connection. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** The default bound of a whole call: generous, since long generations on slow hardware take minutes. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(10);

    private final ModelInfo info;
    private final URI endpoint;
    private final ConstraintMode constraintMode;
    private final ChatCall.Wiring wiring;
    private final EmbeddingCall.Wiring embeddings;
    private volatile int dimension;
    private final ScheduledThreadPoolExecutor timers;
    private final Set<Exchange> active;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OpenAiCompatibleEngine(Builder builder, URI endpoint, Map<String, String> headers) {
        this.endpoint = endpoint;
        this.constraintMode = builder.constraintMode;
        Set<Capability> capabilities = EnumSet.of(Capability.STREAMING, Capability.SEED, Capability.STOP);
        if (builder.tools) {
            capabilities.add(Capability.TOOLS);
        }
        capabilities.addAll(builder.constraintMode.capabilities());
        this.info = new ModelInfo(builder.modelName, builder.contextWindow, capabilities);
        this.timers = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "pagantic-openai-timeouts");
            thread.setDaemon(true);
            return thread;
        });
        timers.setRemoveOnCancelPolicy(true);
        this.active = ConcurrentHashMap.newKeySet();
        JsonMapper json = JsonMapper.builder().build();
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(builder.connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                // h2c upgrade requests confuse some plain-HTTP servers; over TLS, ALPN picks the version safely
                .version(endpoint.getScheme().equals("https") ? HttpClient.Version.HTTP_2
                        : HttpClient.Version.HTTP_1_1)
                .build();
        HttpCall.Wiring http = new HttpCall.Wiring(client, headers, builder.requestTimeout, timers, active,
                closed::get);
        HttpFailures failures = new HttpFailures(endpoint.toString(), builder.modelName, builder.apiKey, json);
        this.wiring = new ChatCall.Wiring(http, endpoint,
                new ChatRequestEncoder(json, builder.modelName, builder.constraintMode),
                new ChatResponseDecoder(json, failures, builder.contextWindow), failures);
        URI embeddingsEndpoint = URI.create(endpoint.toString().replaceFirst("chat/completions$", "embeddings"));
        HttpFailures embeddingFailures = new HttpFailures(embeddingsEndpoint.toString(), builder.modelName,
                builder.apiKey, json);
        this.embeddings = new EmbeddingCall.Wiring(http, embeddingsEndpoint, builder.modelName, json,
                new ChatResponseDecoder(json, embeddingFailures, builder.contextWindow), embeddingFailures);
    }

    /** Starts building an engine; a base URL and a model name are required. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Result infer(CallContext context, Request request) {
        return call(context, request, StreamHandler.NOOP);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Streams the answer ({@code stream: true}); {@link StreamHandler#NOOP}, which nobody listens to, makes an
     * unstreamed call.
     */
    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        return call(context, request, Objects.requireNonNull(handler, "handler"));
    }

    private Result call(CallContext context, Request request, StreamHandler handler) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(request, "request");
        requireOpen();
        try {
            context.throwIfDone();
            info.requireSupported(request);
        } catch (PaganticException refused) {
            throw wiring.failures().withEndpoint(refused);
        }
        return new ChatCall(wiring, context, request, handler).run();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Posts to {@code {baseUrl}/v1/embeddings} (the server must serve an embedding model under this engine's model
     * name); failures are mapped as for chat, a 404 included ({@code INFERENCE_MODEL_UNAVAILABLE}).
     */
    @Override
    public float[] embed(CallContext context, String text) {
        return embedAll(context, List.of(text)).get(0);
    }

    /**
     * The embeddings of several texts in one request, in their order.
     *
     * @throws PaganticException as {@link #embed(CallContext, String)}; {@code CONFIG_INVALID} for no texts
     */
    public List<float[]> embedAll(CallContext context, List<String> texts) {
        Objects.requireNonNull(context, "context");
        List<String> inputs = List.copyOf(texts);
        requireOpen();
        if (inputs.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "embedAll needs at least one text");
        }
        try {
            context.throwIfDone();
        } catch (PaganticException done) {
            throw embeddings.failures().withEndpoint(done);
        }
        List<float[]> vectors = List.of(EmbeddingCall.run(embeddings, context, inputs));
        dimension = vectors.get(0).length;
        return vectors;
    }

    /** The dimension of the server's embeddings, learnt from the first embedding (asked for here if none yet). */
    @Override
    public int dimension() {
        if (dimension == 0) {
            embed(CallContext.background(), " ");
        }
        return dimension;
    }

    @Override
    public ModelInfo modelInfo() {
        return info;
    }

    /** The estimate: an HTTP server exposes no tokenizer in the chat completions API. */
    @Override
    public TokenCounter tokenCounter() {
        return TokenCounter.estimate();
    }

    /** The URL the engine posts to: the base URL followed by {@code /v1/chat/completions}. */
    public URI endpoint() {
        return endpoint;
    }

    /** How the server is trusted to constrain output. */
    public ConstraintMode constraintMode() {
        return constraintMode;
    }

    /**
     * Closes the engine: calls in flight are aborted with {@code INFERENCE_ENGINE_CLOSED} (their connections closed),
     * later calls fail the same way. Idempotent. The HTTP client is the engine's own; on JDK 17 it has no close and its
     * daemon threads end when idle.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            for (Exchange exchange : active) {
                exchange.abort(Exchange.Abort.CLOSED);
            }
            timers.shutdownNow();
        }
    }

    private void requireOpen() {
        if (closed.get()) {
            throw PaganticException.builder(ErrorCode.INFERENCE_ENGINE_CLOSED, "the OpenAI-compatible engine is closed")
                    .detail(HttpFailures.ENDPOINT, endpoint.toString()).detail("model", info.name()).build();
        }
    }

    @Override
    public String toString() {
        return "OpenAiCompatibleEngine[" + info.name() + " at " + endpoint + ", " + constraintMode + "]";
    }

    /**
     * Builds an {@link OpenAiCompatibleEngine}. Nothing is sent until the first call; {@link #build()} validates the
     * settings and fails with {@code CONFIG_INVALID} naming the one that is wrong.
     */
    public static final class Builder {
        private @Nullable String baseUrl;
        private String apiKey = "";
        private @Nullable String modelName;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private int contextWindow = DEFAULT_CONTEXT_WINDOW;
        private ConstraintMode constraintMode = ConstraintMode.JSON_SCHEMA;
        private boolean tools = true;

        private Builder() {
        }

        /**
         * The server's base URL (required), {@code http} or {@code https}, with or without a trailing {@code /v1}:
         * {@code http://localhost:8080}, {@code https://api.openai.com/v1}. Credentials go to {@link #apiKey} or
         * {@link #header}, never into the URL.
         */
        public Builder baseUrl(String value) {
            this.baseUrl = value;
            return this;
        }

        /** The API key, sent as {@code Authorization: Bearer <key>}; none by default (local servers need none). */
        public Builder apiKey(@Nullable String value) {
            this.apiKey = value == null ? "" : value.strip();
            return this;
        }

        /** The served model's name, sent as {@code model} and reported in {@link ModelInfo} (required). */
        public Builder modelName(String value) {
            this.modelName = value;
            return this;
        }

        /** The time to establish a connection; 10 s by default. */
        public Builder connectTimeout(Duration value) {
            this.connectTimeout = value;
            return this;
        }

        /**
         * The longest a whole call may take, answer included; 10 minutes by default. The call context's deadline
         * applies too; the earlier one wins.
         */
        public Builder requestTimeout(Duration value) {
            this.requestTimeout = value;
            return this;
        }

        /** An extra header sent with every request (an organisation id, a gateway's key); replaces an equal name. */
        public Builder header(String name, String value) {
            Objects.requireNonNull(name, "name");
            headers.remove(headerKey(name));
            headers.put(name, Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Extra headers; see {@link #header}. */
        public Builder headers(Map<String, String> values) {
            values.forEach(this::header);
            return this;
        }

        /** The context window to report in {@link ModelInfo} and usage; 8192 by default; 0 for unknown. */
        public Builder contextWindow(int value) {
            this.contextWindow = value;
            return this;
        }

        /** What the server is trusted to enforce; {@link ConstraintMode#JSON_SCHEMA} by default. */
        public Builder constraintMode(ConstraintMode value) {
            this.constraintMode = value;
            return this;
        }

        /**
         * Whether the server supports function calling (declared as {@link Capability#TOOLS}); true by default. Turn
         * it off for a server without it (llama-server without {@code --jinja}), so that tools are refused rather
         * than ignored.
         */
        public Builder tools(boolean value) {
            this.tools = value;
            return this;
        }

        /**
         * The engine.
         *
         * @throws PaganticException {@code CONFIG_INVALID} naming the setting that is missing or invalid
         */
        public OpenAiCompatibleEngine build() {
            require(baseUrl != null && !baseUrl.isBlank(), "a base URL is required, e.g. http://localhost:8080");
            require(modelName != null && !modelName.isBlank(), "a model name is required");
            require(connectTimeout != null && connectTimeout.compareTo(Duration.ZERO) > 0,
                    "connectTimeout must be positive: " + connectTimeout);
            require(requestTimeout != null && requestTimeout.compareTo(Duration.ZERO) > 0,
                    "requestTimeout must be positive: " + requestTimeout);
            require(requestTimeout.compareTo(Duration.ofDays(365)) <= 0,
                    "requestTimeout must be at most a year: " + requestTimeout);
            require(contextWindow >= 0, "contextWindow must not be negative: " + contextWindow);
            require(constraintMode != null, "constraintMode must not be null");
            URI endpoint = endpoint(baseUrl.strip());
            Map<String, String> sent = new LinkedHashMap<>();
            for (Map.Entry<String, String> header : headers.entrySet()) {
                require(!header.getKey().equalsIgnoreCase("Authorization") || apiKey.isEmpty(),
                        "an Authorization header and an API key are both set: use one");
                checkHeader(header.getKey(), header.getValue());
                sent.put(header.getKey(), header.getValue());
            }
            if (!apiKey.isEmpty()) {
                // checked here, not by the HTTP client, whose message would quote the key
                require(apiKey.chars().allMatch(c -> c > 0x20 && c < 0x7f),
                        "the API key holds whitespace or characters a header cannot carry");
                sent.put("Authorization", "Bearer " + apiKey);
            }
            return new OpenAiCompatibleEngine(this, endpoint, Map.copyOf(sent));
        }

        private static URI endpoint(String base) {
            URI uri;
            try {
                uri = new URI(base);
            } catch (URISyntaxException invalid) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "invalid OpenAiCompatibleEngine "
                        + "configuration: the base URL is not a URL: " + invalid.getReason()).cause(invalid).build();
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            require(scheme.equals("http") || scheme.equals("https"),
                    "the base URL must be http or https, e.g. http://localhost:8080: " + base);
            require(uri.getHost() != null, "the base URL has no host: " + base);
            require(uri.getRawUserInfo() == null,
                    "the base URL must not carry credentials: use apiKey(...) or header(...)");
            require(uri.getRawQuery() == null && uri.getRawFragment() == null,
                    "the base URL must not have a query or fragment: " + base);
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            while (path.endsWith("/")) {
                path = path.substring(0, path.length() - 1);
            }
            if (path.endsWith("/v1")) {
                path = path.substring(0, path.length() - "/v1".length());
            }
            return URI.create(scheme + "://" + uri.getRawAuthority() + path + "/v1/chat/completions");
        }

        private static void checkHeader(String name, String value) {
            try {
                HttpRequest.newBuilder(URI.create("http://localhost/")).setHeader(name, value);
            } catch (IllegalArgumentException refused) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "invalid OpenAiCompatibleEngine "
                        + "configuration: header '" + name + "' cannot be set (a restricted name, or a value with"
                        + " line breaks)").detail("header", name).build();
            }
        }

        private String headerKey(String name) {
            for (String existing : headers.keySet()) {
                if (existing.equalsIgnoreCase(name)) {
                    return existing;
                }
            }
            return name.toLowerCase(Locale.ROOT);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid OpenAiCompatibleEngine configuration: "
                        + message);
            }
        }
    }
}
