package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.ApiExchange.REQUEST_ID_HEADER;
import static dev.pagantic.adapter.api.ApiExchange.RETRY_AFTER_SECONDS;
import static dev.pagantic.adapter.api.ApiExchange.nativeError;
import static dev.pagantic.adapter.api.ApiExchange.parse;
import static dev.pagantic.adapter.api.ApiExchange.requestId;
import static dev.pagantic.adapter.api.ApiExchange.retryAfter;
import static dev.pagantic.adapter.api.ApiExchange.send;
import static dev.pagantic.adapter.api.ApiExchange.sendError;
import static dev.pagantic.adapter.api.ApiExchange.traceId;

import dev.pagantic.adapter.api.ApiExchange.Dialect;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An HTTP server over an {@link Orchestrator}: OpenAI-compatible chat completions, the native
 * {@code SystemRequest} endpoint, request event timelines, the model list and a health check. See the package
 * documentation for the endpoints, the OpenAI mapping, status codes and limits.
 *
 * <pre>{@code
 * RequestTimelines timelines = RequestTimelines.create(1000);   // what the orchestrator records
 * try (Orchestrator pagantic = Orchestrator.builder().engine(engine).eventLog(timelines).build();
 *      ApiServer server = ApiServer.builder().orchestrator(pagantic).timelines(timelines).modelName("qwen3")
 *              .port(8080).bearerToken(System.getenv("PAGANTIC_API_TOKEN")).build().start()) {
 *     ...  // OpenAI clients use http://127.0.0.1:8080/v1 as their base URL
 * }
 * }</pre>
 *
 * <p>Each inference request holds a Jetty thread for as long as it runs; at most {@code maxConcurrentRequests} run at
 * once and the next one is answered 429 with {@code Retry-After} at once rather than queued. {@link #close()} is a
 * graceful shutdown: new requests get 503 (and {@code /health} reports {@code draining}), requests in flight finish
 * (up to the drain timeout; then they are cancelled), and only then does Jetty stop. The server does not own the
 * orchestrator: close that after the server.
 *
 * <p>Why this file is longer than 500 lines: its {@link Builder} (about 130 lines, one documented setter per option)
 * is nested, as every builder of the library is. The server itself is its routes; reading a request and writing its
 * answer ({@code ApiExchange}) and the concurrency limit with the graceful drain ({@code Admission}) live beside it.
 */
public final class ApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The default {@link Builder#idleTimeout(Duration)}: 30 seconds. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** The default {@link Builder#minRequestDataRate(long)}: 1024 bytes per second. */
    public static final long DEFAULT_MIN_REQUEST_DATA_RATE = 1024;

    private final Orchestrator orchestrator;
    /** The playground page, a classpath resource beside this class. */
    private static final String PLAYGROUND = "playground.html";

    private final EventTimeline timeline; // null: no event log wired
    private final String modelName;
    private final byte[] playgroundPage; // null: not packaged
    private final String host;
    private final int requestedPort;
    private final byte[] token; // null: no authentication
    private final ApiLimits limits;
    private final Duration drainTimeout;
    private final Duration requestTimeout;
    private final Duration idleTimeout;
    private final long minRequestDataRate;
    private final InstantSource clock;
    private final Admission admission;
    private final ChatCompletionRequestMapper requestMapper;
    private final ApiExchange exchange;
    private final ChatCompletionResponseMapper responseMapper = new ChatCompletionResponseMapper();
    private final Object lifecycle = new Object();
    private Javalin app; // guarded by lifecycle
    private boolean closed; // guarded by lifecycle
    private volatile int boundPort = -1;
    private volatile long startedAt;

    private ApiServer(Builder b) {
        this.orchestrator = b.orchestrator;
        this.timeline = b.events == null ? null : new EventTimeline(b.events);
        this.modelName = b.modelName;
        this.playgroundPage = readPlayground();
        this.host = b.host;
        this.requestedPort = b.port;
        this.token = b.bearerToken == null ? null : b.bearerToken.getBytes(StandardCharsets.UTF_8);
        this.limits = b.limits;
        this.drainTimeout = b.drainTimeout;
        this.requestTimeout = b.requestTimeout;
        this.idleTimeout = b.idleTimeout;
        this.minRequestDataRate = b.minRequestDataRate;
        this.clock = b.clock;
        this.admission = new Admission(b.maxConcurrentRequests);
        this.requestMapper = new ChatCompletionRequestMapper(b.limits);
        this.exchange = new ApiExchange(b.limits);
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
            startedAt = clock.instant().getEpochSecond();
            app = Javalin.create(this::configure).start(host, requestedPort);
            boundPort = app.port();
        }
        LOG.info("pagantic API serving model '{}' on http://{}:{} (authentication {}, at most {} requests at once)",
                modelName, host, boundPort, token == null ? "off" : "on", admission.capacity());
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
        admission.refuseNew();
        if (running == null) {
            return;
        }
        admission.drain(drainTimeout);
        running.stop();
        LOG.info("pagantic API stopped");
    }

    // ------------------------------------------------------------------------------------------------------ routes

    private void configure(JavalinConfig config) {
        config.startup.showJavalinBanner = false;
        config.startup.showOldJavalinVersionWarning = false;
        config.http.maxRequestSize = limits.maxBodyBytes();
        // Slow clients (slowloris): a connection silent for the idle timeout is closed, whether it is still sending
        // its headers or its body; a body that trickles in slower than the minimum rate is refused with 408. Jetty
        // parses headers without holding a thread, and the body is read before a concurrency permit is taken, so a
        // slow client never blocks the others.
        config.jetty.modifyHttpConfiguration(http -> {
            http.setIdleTimeout(idleTimeout.toMillis());
            http.setMinRequestDataRate(minRequestDataRate);
        });
        config.jetty.addConnector((server, http) -> {
            ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
            connector.setHost(host);
            connector.setPort(requestedPort);
            connector.setIdleTimeout(idleTimeout.toMillis());
            return connector;
        });
        config.routes.before("/v1/*", this::authenticate);
        config.routes.post("/v1/chat/completions", this::chatCompletions);
        config.routes.post("/v1/requests", this::nativeRequest);
        config.routes.get("/v1/requests/{id}/events", this::events);
        config.routes.get("/v1/models", this::models);
        config.routes.get("/v1/models/{id}", this::model);
        config.routes.get("/health", this::health);
        config.routes.get("/", this::playground);
        config.routes.exception(Exception.class, this::unexpected);
    }

    private void authenticate(Context ctx) {
        if (token == null) {
            return;
        }
        String header = ctx.header("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                && MessageDigest.isEqual(header.substring(7).strip().getBytes(StandardCharsets.UTF_8), token)) {
            return;
        }
        ctx.res().setHeader("WWW-Authenticate", "Bearer");
        // The body was not read: Jetty drops the connection after this answer, so the client must not reuse it.
        ctx.res().setHeader("Connection", "close");
        send(ctx, HttpStatuses.UNAUTHORIZED, ChatCompletionResponseMapper.error(HttpStatuses.UNAUTHORIZED,
                "invalid_api_key", "a valid bearer token is required (Authorization: Bearer <token>)"));
        ctx.skipRemainingHandlers();
    }

    /** {@code POST /v1/chat/completions}: OpenAI's chat completions, whole or streamed. */
    private void chatCompletions(Context ctx) {
        guarded(ctx, Dialect.OPENAI, raw -> {
            JsonNode body = parse(raw);
            String requestId = requestId(ctx);
            ChatCompletionCall call = requestMapper.map(body, requestId, traceId(ctx));
            SystemRequest request = withDefaultTimeout(call.request());
            ChatCompletionResponseMapper.Envelope envelope = ChatCompletionResponseMapper.envelope(requestId,
                    clock.instant().getEpochSecond(), call.model().isEmpty() ? modelName : call.model());
            ctx.res().setHeader(REQUEST_ID_HEADER, requestId);
            Cancellation cancellation = new Cancellation();
            if (!call.stream()) {
                SystemResponse response = execute(request, StreamHandler.NOOP, cancellation);
                if (response.error().isPresent()) {
                    sendError(ctx, Dialect.OPENAI, response.error().get());
                } else {
                    send(ctx, 200, responseMapper.completion(envelope, response, call.structured()));
                }
                return;
            }
            ChatStream stream = new ChatStream(ctx.res(), cancellation, responseMapper, envelope, !call.structured());
            SystemResponse response = execute(request, stream, cancellation);
            if (stream.clientGone()) {
                LOG.info("request {} ended {} after its client disconnected", requestId,
                        response.error().map(error -> error.code().name()).orElse("normally"));
            } else if (response.error().isPresent() && !stream.started()) {
                sendError(ctx, Dialect.OPENAI, response.error().get());
            } else if (response.error().isPresent()) {
                stream.fail(ChatCompletionResponseMapper.error(response.error().get()));
            } else {
                stream.complete(response, call.structured(), call.includeUsage());
            }
        });
    }

    /** {@code POST /v1/requests}: a native {@code SystemRequest} in, its {@code SystemResponse} out. */
    private void nativeRequest(Context ctx) {
        guarded(ctx, Dialect.NATIVE, raw -> {
            SystemRequest parsed;
            try {
                parsed = FacadeJson.requestFromJson(raw);
            } catch (JacksonException malformed) {
                // a value of the wrong JSON type that the wire format reads without checking: the client's mistake.
                // Jackson's text names Java types, so it is not echoed.
                LOG.debug("malformed native request: {}", malformed.getOriginalMessage());
                throw ApiFailure.badRequest("the request body is not a valid request: a field has the wrong JSON type");
            }
            exchange.checkMessages(parsed.messages());
            SystemRequest request = withDefaultTimeout(parsed.toBuilder()
                    .requestId(parsed.requestId().isEmpty() ? requestId(ctx) : parsed.requestId())
                    .traceId(parsed.traceId().isEmpty() ? traceId(ctx) : parsed.traceId())
                    .build());
            ctx.res().setHeader(REQUEST_ID_HEADER, request.requestId());
            SystemResponse response = execute(request, StreamHandler.NOOP, new Cancellation());
            int status = response.error().map(error -> HttpStatuses.of(error.code())).orElse(200);
            response.error().ifPresent(error -> retryAfter(ctx, error.code()));
            send(ctx, status, FacadeJson.toJson(response));
        });
    }

    /** {@code GET /v1/requests/{id}/events}: the request's event timeline. */
    private void events(Context ctx) {
        String requestId = ctx.pathParam("id");
        if (timeline == null) {
            send(ctx, HttpStatuses.NOT_FOUND, nativeError("NOT_FOUND", "no event log is wired to this server"));
            return;
        }
        ObjectNode document = timeline.of(requestId);
        if (document.path("events").isEmpty()) {
            send(ctx, HttpStatuses.NOT_FOUND,
                    nativeError("NOT_FOUND", "no events are recorded for request '" + requestId + "'"));
            return;
        }
        send(ctx, 200, JSON.writeValueAsString(document));
    }

    /** {@code GET /v1/models}: OpenAI's model list, with the one model served. */
    private void models(Context ctx) {
        ObjectNode root = JSON.createObjectNode().put("object", "list");
        root.putArray("data").add(modelNode());
        send(ctx, 200, JSON.writeValueAsString(root));
    }

    /** {@code GET /v1/models/{id}}: the served model, or 404. */
    private void model(Context ctx) {
        if (ctx.pathParam("id").equals(modelName)) {
            send(ctx, 200, JSON.writeValueAsString(modelNode()));
        } else {
            send(ctx, HttpStatuses.NOT_FOUND, ChatCompletionResponseMapper.error(HttpStatuses.NOT_FOUND,
                    "model_not_found", "this server serves model '" + modelName + "' only"));
        }
    }

    /**
     * {@code GET /}: the playground page, which chats through {@code /v1/chat/completions} (streamed) and draws the
     * request's timeline from {@code /v1/requests/{id}/events}. It is open like {@code /health}; the page sends the
     * bearer token the user types in.
     */
    private void playground(Context ctx) {
        if (playgroundPage == null) {
            send(ctx, HttpStatuses.NOT_FOUND, nativeError("NOT_FOUND", "the playground page is not packaged"));
            return;
        }
        ctx.contentType("text/html; charset=utf-8").result(playgroundPage);
    }

    private static byte[] readPlayground() {
        try (InputStream page = ApiServer.class.getResourceAsStream(PLAYGROUND)) {
            return page == null ? null : page.readAllBytes();
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** {@code GET /health}: 200 while serving, 503 while draining; never needs a token. */
    private void health(Context ctx) {
        ObjectNode root = JSON.createObjectNode().put("status", admission.draining() ? "draining" : "ok")
                .put("model", modelName);
        send(ctx, admission.draining() ? HttpStatuses.UNAVAILABLE : 200, JSON.writeValueAsString(root));
    }

    private void unexpected(Exception failure, Context ctx) {
        LOG.error("unexpected failure serving {} {}", ctx.method(), ctx.path(), failure);
        if (!ctx.res().isCommitted()) {
            send(ctx, HttpStatuses.INTERNAL_ERROR, ChatCompletionResponseMapper.error(HttpStatuses.INTERNAL_ERROR,
                    "internal_error", "the server failed to handle the request"));
        }
    }

    private ObjectNode modelNode() {
        return JSON.createObjectNode().put("id", modelName).put("object", "model").put("created", startedAt)
                .put("owned_by", "pagantic");
    }

    // ------------------------------------------------------------------------------------------------ inference

    /**
     * The body of an inference endpoint, run within the concurrency limit, every failure answered as JSON. The request
     * body is read first, outside the limit: a client that sends it slowly holds no permit that others need.
     */
    private void guarded(Context ctx, Dialect dialect, Body body) {
        if (admission.draining()) {
            refuseWhileDraining(ctx, dialect);
            return;
        }
        String raw;
        try {
            raw = exchange.readBody(ctx);
        } catch (ApiFailure failure) {
            ctx.res().setHeader("Connection", "close"); // the body is left unread: the connection cannot be reused
            sendError(ctx, dialect, failure);
            return;
        }
        if (admission.draining()) {
            refuseWhileDraining(ctx, dialect);
            return;
        }
        if (!admission.tryEnter()) {
            if (admission.draining()) {
                refuseWhileDraining(ctx, dialect);
            } else {
                ctx.res().setHeader("Retry-After", String.valueOf(RETRY_AFTER_SECONDS));
                sendError(ctx, dialect, new ApiFailure(HttpStatuses.TOO_MANY_REQUESTS, ErrorCode.INFERENCE_SATURATED,
                        "too many requests in flight (at most " + admission.capacity() + "); retry later",
                        RETRY_AFTER_SECONDS));
            }
            return;
        }
        try {
            body.run(raw);
        } catch (ApiFailure failure) {
            sendError(ctx, dialect, failure);
        } catch (PaganticException refusal) {
            // A facade or core type refused a value of the request (a schema keyword, a role, a hint).
            sendError(ctx, dialect, ApiFailure.of(refusal));
        } catch (RuntimeException bug) {
            unexpected(bug, ctx);
        } finally {
            admission.leave();
        }
    }

    private void refuseWhileDraining(Context ctx, Dialect dialect) {
        ctx.res().setHeader("Connection", "close");
        sendError(ctx, dialect, new ApiFailure(HttpStatuses.UNAVAILABLE, ErrorCode.INFERENCE_SATURATED,
                "the server is shutting down", 0));
    }

    private SystemResponse execute(SystemRequest request, StreamHandler stream, Cancellation cancellation) {
        SystemResponse response = admission.track(cancellation,
                () -> orchestrator.execute(request, stream, cancellation));
        response.error().ifPresent(error -> LOG.info("request {} failed: {} {}", response.requestId(),
                error.code(), error.message()));
        return response;
    }

    private SystemRequest withDefaultTimeout(SystemRequest request) {
        if (requestTimeout.isZero() || request.hints().hasTimeout()) {
            return request;
        }
        return request.toBuilder().hints(request.hints().toBuilder().timeout(requestTimeout).build()).build();
    }

    /** The body of an inference endpoint, given the request body as text. */
    @FunctionalInterface
    private interface Body {
        void run(String requestBody);
    }

    /**
     * Builds an {@link ApiServer}. Validated at {@link #build()} with {@code CONFIG_INVALID}: an orchestrator is
     * required; the port is 0 to 65535, the concurrency positive, the durations not negative.
     */
    public static final class Builder {
        private Orchestrator orchestrator;
        private RequestTimelines events;
        private String modelName = "pagantic";
        private String host = "127.0.0.1";
        private int port = 8080;
        private String bearerToken;
        private ApiLimits limits = ApiLimits.DEFAULTS;
        private int maxConcurrentRequests = 4;
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
        public Builder bearerToken(String value) {
            this.bearerToken = value;
            return this;
        }

        /** The per-request limits; {@link ApiLimits#DEFAULTS} by default. */
        public Builder limits(ApiLimits value) {
            this.limits = value;
            return this;
        }

        /** The most inference requests in flight; the next is answered 429. 4 by default. */
        public Builder maxConcurrentRequests(int value) {
            this.maxConcurrentRequests = value;
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
         * 408. {@link ApiServer#DEFAULT_MIN_REQUEST_DATA_RATE} by default; 0 for no minimum.
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
            require(drainTimeout != null && !drainTimeout.isNegative(), "the drain timeout must not be negative");
            require(requestTimeout != null && !requestTimeout.isNegative(),
                    "the request timeout must not be negative");
            require(clock != null, "the clock must not be null");
            require(idleTimeout != null && !idleTimeout.isNegative() && !idleTimeout.isZero(),
                    "the idle timeout must be positive");
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
