package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.LOG;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP server over an {@link Orchestrator}: OpenAI-compatible chat completions, the native
 * {@code SystemRequest} endpoint, request event timelines, the model list and a health check. See the package
 * documentation for the endpoints, the OpenAI mapping, status codes and limits.
 *
 * <pre>{@code
 * RequestTimelines timelines = RequestTimelines.create(1000);   // what the orchestrator records
 * try (Orchestrator pagantic = Orchestrator.builder().engine(engine).eventLog(timelines).build();
 *      ApiServer server = ApiServer.builder().orchestrator(pagantic).timelines(timelines).modelName("llama-3.2-1b")
 *              .port(8080).bearerToken(System.getenv("PAGANTIC_API_TOKEN")).build().start()) {
 *     ...  // OpenAI clients use http://127.0.0.1:8080/v1 as their base URL
 * }
 * }</pre>
 *
 * <p>Each inference request holds a Jetty thread for as long as it runs or waits; at most
 * {@code maxConcurrentRequests} run at once, up to {@code queueSize} more wait in a FIFO queue ({@link RequestQueue})
 * for up to {@code queueTimeout}, and only a request that finds the queue full, or waits too long, is answered 429 with
 * {@code Retry-After}. {@link #close()} is a graceful shutdown: new and queued requests get 503 (and {@code /health}
 * reports {@code draining}), requests in flight finish (up to the drain timeout; then they are cancelled), and only
 * then does Jetty stop. The server does not own the orchestrator: close that after the server.
 */
public final class ApiServer implements AutoCloseable {

    /** The default {@link Builder#idleTimeout(Duration)}: 30 seconds. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** The default {@link Builder#queueSize(int)}: 64 requests. */
    public static final int DEFAULT_QUEUE_SIZE = 64;
    /** The default {@link Builder#queueTimeout(Duration)}: 5 minutes. */
    public static final Duration DEFAULT_QUEUE_TIMEOUT = Duration.ofMinutes(5);
    /** The default {@link Builder#minRequestDataRate(long)}: 1024 bytes per second. */
    public static final long DEFAULT_MIN_REQUEST_DATA_RATE = 1024;

    private final String host;
    private final int requestedPort;
    private final ApiLimits limits;
    private final Duration drainTimeout;
    private final Duration idleTimeout;
    private final InstantSource clock;
    private final BearerAuthentication authentication;
    private final Admission admission;
    private final Inference inference;
    private final ServedModels models;
    private final ChatCompletionsRoute chatCompletions;
    private final EmbeddingsRoute embeddings;
    private final NativeRoutes nativeRoutes;
    private final OperationsRoutes operations;
    private final Object lifecycle = new Object();
    private @Nullable Javalin app; // guarded by lifecycle
    private boolean closed; // guarded by lifecycle
    private volatile int boundPort = -1;

    private ApiServer(Builder b) {
        this.host = b.host;
        this.requestedPort = b.port;
        this.limits = b.limits;
        this.drainTimeout = b.drainTimeout;
        this.idleTimeout = b.idleTimeout;
        this.clock = b.clock;
        this.authentication = new BearerAuthentication(b.bearerToken);
        this.admission = new Admission(new RequestQueue(b.maxConcurrentRequests, b.queueSize, b.queueTimeout),
                new RequestBodies(b.limits, new BodyReader(b.minRequestDataRate, System::nanoTime)));
        this.inference = new Inference(b.requestTimeout);
        this.models = new ServedModels(b.modelName, b.aliases, Objects.requireNonNull(b.orchestrator), b.embedder,
                b.others);
        EventTimeline timeline = b.events == null ? null : new EventTimeline(b.events);
        RequestIds ids = new RequestIds(timeline);
        this.chatCompletions = new ChatCompletionsRoute(admission, inference, ids, models, b.limits, b.clock);
        this.embeddings = new EmbeddingsRoute(admission, inference, models, b.limits);
        this.nativeRoutes = new NativeRoutes(admission, inference, b.orchestrator, ids, b.limits, timeline);
        this.operations = new OperationsRoutes(admission, b.modelName);
    }

    /** Starts building a server; an orchestrator is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds the port and starts serving.
     *
     * @return this server
     * @throws IllegalStateException when it was started or closed before
     */
    public ApiServer start() {
        synchronized (lifecycle) {
            if (app != null || closed) {
                throw new IllegalStateException("an ApiServer starts once");
            }
            models.startedAt(clock.instant().getEpochSecond());
            Javalin started = Javalin.create(this::configure).start(host, requestedPort);
            app = started;
            boundPort = started.port();
        }
        RequestQueue.Stats queue = admission.stats();
        LOG.info("pagantic API serving model '{}' on http://{}:{} (authentication {}, {} slot(s), queue of {})",
                models.name(), host, boundPort, authentication.enabled() ? "on" : "off", queue.slots(),
                queue.capacity());
        return this;
    }

    /** The bound port (the ephemeral one chosen for port 0); -1 before {@link #start()}. */
    public int port() {
        return boundPort;
    }

    /** The base URL of the server, such as {@code http://127.0.0.1:8080}; OpenAI clients add {@code /v1}. */
    public String baseUrl() {
        String shown = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + shown + ":" + boundPort;
    }

    /**
     * Shuts down gracefully: refuses new requests with 503, waits up to the drain timeout for requests in flight to
     * finish, cancels those still running after it, and stops Jetty. Idempotent.
     */
    @Override
    public void close() {
        Javalin running;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            running = app;
        }
        admission.drain();
        if (running == null) {
            models.close();
            return;
        }
        LOG.info("pagantic API draining: {} request(s) in flight", admission.stats().running());
        if (!admission.awaitIdle(drainTimeout)) {
            LOG.warn("requests still running after {}; cancelling {}", drainTimeout,
                    inference.cancelAll("the server is shutting down"));
            admission.awaitIdle(Duration.ofSeconds(5));
        }
        running.stop();
        models.close();
        LOG.info("pagantic API stopped");
    }

    private void configure(JavalinConfig config) {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        config.http.maxRequestSize = limits.maxBodyBytes();
        // Slow clients (slowloris): a connection silent for the idle timeout is closed, whether it is still sending
        // its headers or its body; a body that trickles in slower than the minimum rate is refused with 408 by
        // BodyReader, not by Jetty's own minimum data rate, which also counts the time a busy server took to read
        // bytes that had long arrived (see BodyReader). Jetty parses headers without holding a thread, and the body
        // is read before a concurrency permit is taken, so a slow client never blocks the others.
        config.jetty.modifyHttpConfiguration(http -> {
            http.setIdleTimeout(idleTimeout.toMillis());
            http.setMinRequestDataRate(0);
        });
        config.jetty.addConnector((server, http) -> {
            ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
            connector.setHost(host);
            connector.setPort(requestedPort);
            connector.setIdleTimeout(idleTimeout.toMillis());
            return connector;
        });
        // A known path with another method is 405 (with Allow), not 404; both get OpenAI's JSON error below.
        config.http.prefer405over404 = true;
        config.routes.before("/v1/*", authentication::check);
        config.routes.post("/v1/chat/completions", chatCompletions::handle);
        config.routes.post("/v1/embeddings", embeddings::handle);
        config.routes.post("/v1/requests", nativeRoutes::request);
        config.routes.get("/v1/requests/{id}/events", nativeRoutes::events);
        config.routes.get("/v1/models", models::list);
        config.routes.get("/v1/models/{id}", models::one);
        config.routes.get("/health", operations::health);
        config.routes.get("/metrics", operations::metrics);
        config.routes.get("/", operations::playground);
        config.routes.error(HttpStatuses.NOT_FOUND, operations::routeNotFound);
        config.routes.error(HttpStatuses.METHOD_NOT_ALLOWED, operations::methodNotAllowed);
        config.routes.exception(Exception.class, Responses::unexpected);
    }

    /**
     * Builds an {@link ApiServer}. Validated at {@link #build()} with {@code CONFIG_INVALID}: an orchestrator is
     * required; the port is 0 to 65535, the concurrency positive, the durations not negative.
     */
    public static final class Builder {
        private @Nullable Orchestrator orchestrator;
        private @Nullable RequestTimelines events;
        private String modelName = "pagantic";
        private String host = "127.0.0.1";
        private int port = 8080;
        private @Nullable String bearerToken;
        private ApiLimits limits = ApiLimits.DEFAULTS;
        private int maxConcurrentRequests = 4;
        private int queueSize = DEFAULT_QUEUE_SIZE;
        private Duration queueTimeout = DEFAULT_QUEUE_TIMEOUT;
        private final Set<String> aliases = new LinkedHashSet<>();
        private @Nullable TextEmbedder embedder;
        private final Map<String, Supplier<ServedModel>> others = new LinkedHashMap<>();
        private Duration drainTimeout = Duration.ofSeconds(30);
        private Duration requestTimeout = Duration.ZERO;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private long minRequestDataRate = DEFAULT_MIN_REQUEST_DATA_RATE;
        private InstantSource clock = InstantSource.system();

        private Builder() {
        }

        /** The orchestrator every request runs on (required; the server does not close it). */
        public Builder orchestrator(Orchestrator value) {
            this.orchestrator = value;
            return this;
        }

        /**
         * The timelines the orchestrator writes to ({@code Orchestrator.builder().eventLog(timelines)}), which
         * {@code GET /v1/requests/{id}/events} and the web page read.
         */
        public Builder timelines(RequestTimelines value) {
            this.events = Objects.requireNonNull(value, "timelines");
            return this;
        }

        /** The model name that {@code /v1/models} lists and responses echo by default; {@code pagantic} by default. */
        public Builder modelName(String value) {
            this.modelName = value;
            return this;
        }

        /** The interface to bind; {@code 127.0.0.1} by default ({@code 0.0.0.0} for every interface). */
        public Builder host(String value) {
            this.host = value;
            return this;
        }

        /** The port; 0 for an ephemeral one ({@link ApiServer#port()} tells which); 8080 by default. */
        public Builder port(int value) {
            this.port = value;
            return this;
        }

        /** The bearer token every {@code /v1} request must carry; null or blank (the default) for none. */
        public Builder bearerToken(@Nullable String value) {
            this.bearerToken = value;
            return this;
        }

        /** The per-request limits; {@link ApiLimits#DEFAULTS} by default. */
        public Builder limits(ApiLimits value) {
            this.limits = value;
            return this;
        }

        /** The most inference requests running at once (the slots); the next ones wait in the queue. 4 by default. */
        public Builder maxConcurrentRequests(int value) {
            this.maxConcurrentRequests = value;
            return this;
        }

        /**
         * The most requests that wait, in arrival order, for a slot; one more is answered 429 with
         * {@code Retry-After}. {@value ApiServer#DEFAULT_QUEUE_SIZE} by default; 0 for no queue (429 as soon as every
         * slot is busy).
         */
        public Builder queueSize(int value) {
            this.queueSize = value;
            return this;
        }

        /**
         * How long a request may wait in the queue before it is answered 429 with {@code Retry-After};
         * {@link ApiServer#DEFAULT_QUEUE_TIMEOUT} (5 minutes) by default.
         */
        public Builder queueTimeout(Duration value) {
            this.queueTimeout = value;
            return this;
        }

        /**
         * Another name the served model answers to ({@code "gpt-4o-mini"} for clients that cannot change the model
         * they name): requests naming it are served and echo it, and {@code /v1/models} lists it. A request naming
         * neither the model nor an alias is answered 404 {@code model_not_found}.
         */
        public Builder alias(String value) {
            require(value != null && !value.isBlank(), "an alias must not be blank");
            this.aliases.add(value);
            return this;
        }

        /**
         * What computes {@code /v1/embeddings} (an engine's {@code embed} method, such as
         * {@code llamaEngine::embed}); without it that endpoint answers 404. None by default.
         */
        public Builder embeddings(TextEmbedder value) {
            this.embedder = Objects.requireNonNull(value, "embeddings");
            return this;
        }

        /**
         * Another model to serve, besides the default one ({@link #orchestrator}), for requests whose {@code model}
         * names it. It is loaded when a request first names it (that request waits; the others go on), listed by
         * {@code /v1/models} from the start, and closed with the server. A loader that throws is answered 400 with
         * OpenAI's code {@code model_not_available} and its message (a {@code PaganticException}'s code is kept), to
         * that request and every later one naming the model.
         *
         * @param name   the name requests use; distinct from the default model's, its aliases and the other models'
         * @param loader opens the model; it is called at most once
         */
        public Builder model(String name, Supplier<ServedModel> loader) {
            require(name != null && !name.isBlank(), "a model name must not be blank");
            require(!others.containsKey(name), "the model '" + name + "' is given twice");
            others.put(name, Objects.requireNonNull(loader, "loader"));
            return this;
        }

        /** How long {@link ApiServer#close()} waits for requests in flight before cancelling them; 30 s default. */
        public Builder drainTimeout(Duration value) {
            this.drainTimeout = value;
            return this;
        }

        /** The timeout of requests that set none ({@code CANCELLED_TIMEOUT}, 408); zero (the default) for none. */
        public Builder requestTimeout(Duration value) {
            this.requestTimeout = value;
            return this;
        }

        /**
         * How long a connection may stay silent (while sending its headers or body, or between requests) before the
         * server closes it; {@link ApiServer#DEFAULT_IDLE_TIMEOUT} (30 s) by default. Bounds slowloris clients.
         */
        public Builder idleTimeout(Duration value) {
            this.idleTimeout = value;
            return this;
        }

        /**
         * The slowest rate, in bytes per second, at which a request body may arrive; slower bodies are refused with
         * 408. The rate is measured over the time the server waits for bytes that have not arrived yet, the first
         * second of waiting free, so a busy server never refuses a fast client whose body it read late.
         * {@link ApiServer#DEFAULT_MIN_REQUEST_DATA_RATE} by default; 0 for no minimum.
         */
        public Builder minRequestDataRate(long bytesPerSecond) {
            this.minRequestDataRate = bytesPerSecond;
            return this;
        }

        /** The clock of the {@code created} timestamps; the system clock by default. */
        public Builder clock(InstantSource value) {
            this.clock = value;
            return this;
        }

        /**
         * The server, not yet started.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for a missing orchestrator or an invalid setting
         */
        public ApiServer build() {
            require(orchestrator != null, "an orchestrator is required");
            require(modelName != null && !modelName.isBlank(), "the model name must not be blank");
            require(host != null && !host.isBlank(), "the host must not be blank");
            require(port >= 0 && port <= 65_535, "the port must be in 0..65535: " + port);
            require(limits != null, "limits must not be null");
            require(maxConcurrentRequests > 0, "maxConcurrentRequests must be positive: " + maxConcurrentRequests);
            require(queueSize >= 0, "the queue size must not be negative: " + queueSize);
            require(queueTimeout != null && !queueTimeout.isNegative(), "the queue timeout must not be negative");
            require(drainTimeout != null && !drainTimeout.isNegative(), "the drain timeout must not be negative");
            require(requestTimeout != null && !requestTimeout.isNegative(),
                    "the request timeout must not be negative");
            require(clock != null, "the clock must not be null");
            require(idleTimeout != null && !idleTimeout.isNegative() && !idleTimeout.isZero(),
                    "the idle timeout must be positive");
            require(!others.containsKey(modelName) && others.keySet().stream().noneMatch(aliases::contains),
                    "another model must not be named as the default model or one of its aliases");
            require(minRequestDataRate >= 0, "minRequestDataRate must not be negative: " + minRequestDataRate);
            if (bearerToken != null && bearerToken.isBlank()) {
                bearerToken = null;
            }
            return new ApiServer(this);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
            }
        }
    }
}
