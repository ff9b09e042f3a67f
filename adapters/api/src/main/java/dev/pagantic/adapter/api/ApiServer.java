package dev.pagantic.adapter.api;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.agent.AgentEventListener;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
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
 * <p>Each inference request holds a Jetty thread for as long as it runs or waits; at most
 * {@code maxConcurrentRequests} run at once, up to {@code queueSize} more wait in a FIFO queue ({@link RequestQueue})
 * for up to {@code queueTimeout}, and only a request that finds the queue full, or waits too long, is answered 429 with
 * {@code Retry-After}. {@link #close()} is a graceful shutdown: new and queued requests get 503 (and {@code /health}
 * reports {@code draining}), requests in flight finish (up to the drain timeout; then they are cancelled), and only
 * then does Jetty stop. The server does not own the orchestrator: close that after the server.
 */
public final class ApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A client-chosen request id ({@code X-Request-Id}) is used when it is this tame. */
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final String REQUEST_ID_HEADER = "X-Request-Id";
    private static final int RETRY_AFTER_SECONDS = 1;

    /** The default {@link Builder#idleTimeout(Duration)}: 30 seconds. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** The default {@link Builder#queueSize(int)}: 64 requests. */
    public static final int DEFAULT_QUEUE_SIZE = 64;
    /** The default {@link Builder#queueTimeout(Duration)}: 5 minutes. */
    public static final Duration DEFAULT_QUEUE_TIMEOUT = Duration.ofMinutes(5);
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
    private final int maxConcurrent;
    private final Set<String> aliases;
    private final TextEmbedder embedder; // null: no embeddings
    private final RequestQueue queue;
    private final Set<String> activeRequestIds = ConcurrentHashMap.newKeySet();
    private final Duration drainTimeout;
    private final Duration requestTimeout;
    private final Duration idleTimeout;
    private final BodyReader bodyReader;
    private final InstantSource clock;
    private final Set<Cancellation> inFlight = ConcurrentHashMap.newKeySet();
    private final ChatCompletionRequestMapper requestMapper;
    private final ChatCompletionResponseMapper responseMapper = new ChatCompletionResponseMapper();
    private final Object lifecycle = new Object();
    private volatile boolean draining;
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
        this.maxConcurrent = b.maxConcurrentRequests;
        this.aliases = Set.copyOf(b.aliases);
        this.embedder = b.embedder;
        this.queue = new RequestQueue(b.maxConcurrentRequests, b.queueSize, b.queueTimeout);
        this.drainTimeout = b.drainTimeout;
        this.requestTimeout = b.requestTimeout;
        this.idleTimeout = b.idleTimeout;
        this.bodyReader = new BodyReader(b.minRequestDataRate, System::nanoTime);
        this.clock = b.clock;
        this.requestMapper = new ChatCompletionRequestMapper(b.limits);
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
        LOG.info("pagantic API serving model '{}' on http://{}:{} (authentication {}, {} slot(s), queue of {})",
                modelName, host, boundPort, token == null ? "off" : "on", maxConcurrent, queue.stats().capacity());
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
        draining = true;
        if (running == null) {
            return;
        }
        queue.close();
        LOG.info("pagantic API draining: {} request(s) in flight", queue.stats().running());
        if (!awaitIdle(drainTimeout)) {
            LOG.warn("requests still running after {}; cancelling {}", drainTimeout, inFlight.size());
            inFlight.forEach(cancellation -> cancellation.cancel("the server is shutting down"));
            awaitIdle(Duration.ofSeconds(5));
        }
        running.stop();
        LOG.info("pagantic API stopped");
    }

    /** Waits until no request runs (the queue is closed, so none can start). */
    private boolean awaitIdle(Duration timeout) {
        try {
            return queue.awaitIdle(timeout);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    // ------------------------------------------------------------------------------------------------------ routes

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
        config.routes.before("/v1/*", this::authenticate);
        config.routes.post("/v1/chat/completions", this::chatCompletions);
        config.routes.post("/v1/embeddings", this::embeddings);
        config.routes.post("/v1/requests", this::nativeRequest);
        config.routes.get("/v1/requests/{id}/events", this::events);
        config.routes.get("/v1/models", this::models);
        config.routes.get("/v1/models/{id}", this::model);
        config.routes.get("/health", this::health);
        config.routes.get("/metrics", this::metrics);
        config.routes.get("/", this::playground);
        config.routes.error(HttpStatuses.NOT_FOUND, this::routeNotFound);
        config.routes.error(HttpStatuses.METHOD_NOT_ALLOWED, this::methodNotAllowed);
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
        send(ctx, HttpStatuses.UNAUTHORIZED, OpenAiError.document(HttpStatuses.UNAUTHORIZED, "invalid_api_key", null,
                "a valid bearer token is required (Authorization: Bearer <token>)", ErrorCode.CONFIG_INVALID));
        ctx.skipRemainingHandlers();
    }

    /**
     * {@code POST /v1/chat/completions}: OpenAI's chat completions, whole or streamed; {@code n} choices are runs of
     * the request one after the other on the slot it holds, so that each run after the first reuses the prompt the
     * engine has cached.
     */
    private void chatCompletions(Context ctx) {
        guarded(ctx, Dialect.OPENAI, raw -> {
            JsonNode body = parse(raw);
            String requestId = reserveRequestId(requestId(ctx));
            ChatCompletionCall call;
            String model;
            try {
                ChatCompletionCall mapped = requestMapper.map(body, requestId, traceId(ctx));
                call = new ChatCompletionCall(mapped.request().toBuilder().traceContext(traceContext(ctx)).build(),
                        mapped.model(), mapped.stream(), mapped.includeUsage(), mapped.structured(), mapped.choices(),
                        mapped.seed());
                model = servedModel(body);
            } catch (RuntimeException refused) {
                activeRequestIds.remove(requestId);
                throw refused;
            }
            return new Admitted(() -> runChatCompletion(ctx, call, model), () -> activeRequestIds.remove(requestId));
        });
    }

    private void runChatCompletion(Context ctx, ChatCompletionCall call, String model) {
        String requestId = call.request().requestId();
        ChatCompletionResponseMapper.Envelope envelope = ChatCompletionResponseMapper.envelope(requestId,
                clock.instant().getEpochSecond(), model);
        ctx.res().setHeader(REQUEST_ID_HEADER, requestId);
        Cancellation cancellation = new Cancellation();
        ChatStream stream = call.stream()
                ? new ChatStream(ctx.res(), cancellation, responseMapper, envelope, !call.structured()) : null;
        List<SystemResponse> choices = new ArrayList<>();
        TokenUsage usage = TokenUsage.ZERO;
        for (int index = 0; index < call.choices(); index++) {
            SystemResponse response = execute(choice(call, index), stream == null ? StreamHandler.NOOP : stream,
                    cancellation);
            if (stream != null && stream.clientGone()) {
                LOG.info("request {} ended {} after its client disconnected", requestId,
                        response.error().map(error -> error.code().name()).orElse("normally"));
                return;
            }
            if (response.error().isPresent()) {
                if (stream != null && stream.started()) {
                    stream.fail(OpenAiError.of(response.error().get()));
                } else {
                    sendError(ctx, Dialect.OPENAI, response.error().get());
                }
                return;
            }
            usage = usage.plus(response.tokenUsage());
            choices.add(response);
            if (stream != null) {
                stream.completeChoice(response, call.structured());
            }
        }
        if (stream == null) {
            send(ctx, 200, responseMapper.completion(envelope, choices, call.structured()));
        } else {
            stream.end(usage, call.includeUsage());
        }
    }

    /**
     * The request of choice {@code index}: the first is the request itself; each later one has a request id of its
     * own ({@code <id>.<index>}, so that timelines never merge) and, when the client gave a seed, the seed plus the
     * index, so that the choices differ and the same seed still gives the same choices.
     */
    private SystemRequest choice(ChatCompletionCall call, int index) {
        SystemRequest request = withDefaultTimeout(call.request());
        if (index == 0) {
            return request;
        }
        ExecutionHints hints = request.hints();
        ExecutionHints.Builder varied = hints.toBuilder();
        call.seed().ifPresent(seed -> varied.seed(seed + index));
        return request.toBuilder().requestId(request.requestId() + "." + index).hints(varied.build()).build();
    }

    /**
     * The model name a request is answered with: the served model when it names none (or a blank one), it, or one of
     * its aliases;
     * otherwise OpenAI's 404 {@code model_not_found}.
     */
    private String servedModel(JsonNode body) {
        JsonNode model = body.path("model");
        if (model.isMissingNode() || model.isNull()) {
            return modelName;
        }
        if (!model.isString()) {
            throw ApiFailure.badParam("model", "invalid_type", "'model' must be a string");
        }
        String name = model.stringValue();
        if (name.isBlank()) {
            return modelName;
        }
        if (name.equals(modelName) || aliases.contains(name)) {
            return name;
        }
        throw ApiFailure.of(HttpStatuses.NOT_FOUND, ErrorCode.CONFIG_INVALID, "model_not_found",
                "The model '" + shorten(name) + "' does not exist: this server serves '" + modelName + "'"
                        + (aliases.isEmpty() ? "" : " (also as " + String.join(", ", new TreeSet<>(aliases)) + ")"));
    }

    /** {@code POST /v1/embeddings}: OpenAI's embeddings of a string or an array of strings, as floats or base64. */
    private void embeddings(Context ctx) {
        guarded(ctx, Dialect.OPENAI, raw -> {
            JsonNode body = parse(raw);
            EmbeddingsCall call = EmbeddingsCall.of(body, limits);
            String model = servedModel(body);
            if (embedder == null) {
                throw ApiFailure.of(HttpStatuses.NOT_FOUND, ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY,
                        "model_not_found", "model '" + model + "' does not compute embeddings on this server");
            }
            return new Admitted(() -> {
                Cancellation cancellation = new Cancellation();
                inFlight.add(cancellation);
                try {
                    CallContext context = requestTimeout.isZero() ? CallContext.background().withCancellation(
                            cancellation) : CallContext.background().withCancellation(cancellation)
                            .withTimeout(requestTimeout);
                    List<float[]> vectors = new ArrayList<>();
                    int tokens = 0;
                    for (String input : call.inputs()) {
                        vectors.add(embedder.embed(context, input));
                        tokens += Math.max(1, input.length() / 4);
                    }
                    send(ctx, 200, call.response(model, vectors, tokens));
                } finally {
                    inFlight.remove(cancellation);
                }
            }, () -> { });
        });
    }

    /** {@code POST /v1/requests}: a native {@code SystemRequest} in, its {@code SystemResponse} out. */
    private void nativeRequest(Context ctx) {
        guarded(ctx, Dialect.NATIVE, raw -> {
            JsonNode body = parse(raw); // syntax errors reported as for the OpenAI endpoint
            SystemRequest parsed;
            try {
                parsed = FacadeJson.requestFromJson(raw);
            } catch (JacksonException malformed) {
                // a value of the wrong JSON type that the wire format reads without checking: the client's mistake.
                // Jackson's text names Java types, so it is not echoed.
                LOG.debug("malformed native request: {}", malformed.getOriginalMessage());
                throw ApiFailure.badRequest("the request body is not a valid request: a field has the wrong JSON type");
            }
            checkLimits(parsed.messages());
            String requestId = reserveRequestId(parsed.requestId().isEmpty() ? requestId(ctx) : parsed.requestId());
            SystemRequest request = withDefaultTimeout(parsed.toBuilder().requestId(requestId)
                    .traceId(parsed.traceId().isEmpty() ? traceId(ctx) : parsed.traceId())
                    .traceContext(traceContext(ctx))
                    .build());
            return new Admitted(() -> {
                ctx.res().setHeader(REQUEST_ID_HEADER, request.requestId());
                Cancellation cancellation = new Cancellation();
                RequestEventStream events = RequestEventStream.requested(ctx.req(), body)
                        ? new RequestEventStream(ctx.res(), cancellation) : null;
                SystemResponse response = execute(request, StreamHandler.NOOP,
                        events == null ? AgentEventListener.NOOP : events, cancellation);
                if (events != null && events.end(response)) {
                    return;
                }
                int status = response.error().map(error -> HttpStatuses.of(error.code())).orElse(200);
                response.error().ifPresent(error -> retryAfter(ctx, error.code()));
                send(ctx, status, FacadeJson.toJson(response));
            }, () -> activeRequestIds.remove(requestId));
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
        ArrayNode data = root.putArray("data");
        data.add(modelNode(modelName));
        new TreeSet<>(aliases).forEach(alias -> data.add(modelNode(alias)));
        send(ctx, 200, JSON.writeValueAsString(root));
    }

    /** {@code GET /v1/models/{id}}: the served model, or 404. */
    private void model(Context ctx) {
        String id = ctx.pathParam("id");
        if (id.equals(modelName) || aliases.contains(id)) {
            send(ctx, 200, JSON.writeValueAsString(modelNode(id)));
        } else {
            send(ctx, HttpStatuses.NOT_FOUND, OpenAiError.document(HttpStatuses.NOT_FOUND, "model_not_found", null,
                    "The model '" + shorten(id) + "' does not exist: this server serves '" + modelName + "'",
                    ErrorCode.CONFIG_INVALID));
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

    /**
     * {@code GET /health}: 200 while serving, 503 while draining, with the queue's state (slots, running, waiting,
     * capacity, admitted, refused, wait times); never needs a token.
     */
    private void health(Context ctx) {
        ObjectNode root = JSON.createObjectNode().put("status", draining ? "draining" : "ok")
                .put("model", modelName);
        RequestQueue.Stats stats = queue.stats();
        root.putObject("queue").put("slots", stats.slots()).put("running", stats.running())
                .put("waiting", stats.waiting()).put("capacity", stats.capacity()).put("admitted", stats.admitted())
                .put("refused", stats.refused()).put("wait_ms_total", stats.waitedMillisTotal())
                .put("wait_ms_max", stats.waitedMillisMax());
        send(ctx, draining ? HttpStatuses.UNAVAILABLE : 200, JSON.writeValueAsString(root));
    }

    /**
     * {@code GET /metrics}: the queue's state in Prometheus' text format, as llama-server's {@code /metrics} reports
     * its requests processing and deferred; open like {@code /health}.
     */
    private void metrics(Context ctx) {
        RequestQueue.Stats stats = queue.stats();
        StringBuilder text = new StringBuilder();
        metric(text, "pagantic_requests_processing", "gauge", "Inference requests running on a slot.",
                stats.running());
        metric(text, "pagantic_requests_deferred", "gauge", "Inference requests waiting in the queue.",
                stats.waiting());
        metric(text, "pagantic_requests_admitted_total", "counter", "Inference requests that reached a slot.",
                stats.admitted());
        metric(text, "pagantic_requests_refused_total", "counter",
                "Inference requests refused by the queue (full, timed out, client gone, shutting down).",
                stats.refused());
        metric(text, "pagantic_queue_wait_seconds_total", "counter", "Time admitted requests waited in the queue.",
                stats.waitedMillisTotal() / 1000.0);
        metric(text, "pagantic_queue_wait_seconds_max", "gauge", "The longest wait of an admitted request.",
                stats.waitedMillisMax() / 1000.0);
        ctx.status(200).contentType("text/plain; version=0.0.4; charset=utf-8").result(text.toString());
    }

    private static void metric(StringBuilder text, String name, String type, String help, Number value) {
        text.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(' ').append(type).append('\n')
                .append(name).append(' ').append(value).append('\n');
    }

    /** Any path no route serves: OpenAI's 404 document ({@code unknown_url}). */
    private void routeNotFound(Context ctx) {
        if (!ctx.res().isCommitted()) {
            send(ctx, HttpStatuses.NOT_FOUND, OpenAiError.document(HttpStatuses.NOT_FOUND, "unknown_url", null,
                    "Invalid URL (" + ctx.method() + " " + shorten(ctx.path()) + ")", ErrorCode.CONFIG_INVALID));
        }
    }

    /** A served path with another method: OpenAI's 405 document, with the {@code Allow} header Javalin set. */
    private void methodNotAllowed(Context ctx) {
        if (!ctx.res().isCommitted()) {
            send(ctx, HttpStatuses.METHOD_NOT_ALLOWED, OpenAiError.document(HttpStatuses.METHOD_NOT_ALLOWED,
                    "method_not_allowed", null, ctx.method() + " is not allowed on " + shorten(ctx.path()),
                    ErrorCode.CONFIG_INVALID));
        }
    }

    private void unexpected(Exception failure, Context ctx) {
        LOG.error("unexpected failure serving {} {}", ctx.method(), ctx.path(), failure);
        if (!ctx.res().isCommitted()) {
            send(ctx, HttpStatuses.INTERNAL_ERROR, OpenAiError.document(HttpStatuses.INTERNAL_ERROR, "server_error",
                    null, "the server failed to handle the request", null));
        }
    }

    private ObjectNode modelNode(String id) {
        return JSON.createObjectNode().put("id", id).put("object", "model").put("created", startedAt)
                .put("owned_by", "pagantic");
    }

    /** A client-chosen text echoed in a message, cut to a sane length. */
    private static String shorten(String text) {
        return text.length() <= 128 ? text : text.substring(0, 128) + "...";
    }

    // ------------------------------------------------------------------------------------------------ inference

    /**
     * An inference endpoint: the body is read, decoded and mapped first, outside the queue (a client that sends it
     * slowly, or sends a bad request, holds no slot and makes nobody wait); then the request waits its turn in the
     * queue, runs, and frees its slot. Every failure is answered as JSON.
     */
    private void guarded(Context ctx, Dialect dialect, Body body) {
        if (draining) {
            refuseWhileDraining(ctx, dialect);
            return;
        }
        Admitted admitted;
        try {
            requireJson(ctx);
            admitted = body.prepare(readBody(ctx));
        } catch (ApiFailure failure) {
            sendError(ctx, dialect, failure);
            return;
        } catch (PaganticException refusal) {
            // A facade or core type refused a value of the request (a schema keyword, a role, a hint).
            sendError(ctx, dialect, ApiFailure.of(refusal));
            return;
        }
        try {
            queue.enter(new ClientConnection(ctx)::gone);
        } catch (RequestQueue.Refused refused) {
            admitted.abandon();
            refuse(ctx, dialect, refused.reason());
            return;
        } catch (InterruptedException interrupted) {
            admitted.abandon();
            Thread.currentThread().interrupt();
            refuseWhileDraining(ctx, dialect);
            return;
        }
        try {
            admitted.run();
        } catch (ApiFailure failure) {
            sendError(ctx, dialect, failure);
        } catch (PaganticException refusal) {
            sendError(ctx, dialect, ApiFailure.of(refusal));
        } catch (RuntimeException bug) {
            unexpected(bug, ctx);
        } finally {
            queue.leave();
        }
    }

    /** Answers a request the queue did not admit. */
    private void refuse(Context ctx, Dialect dialect, RequestQueue.Refusal reason) {
        switch (reason) {
            case FULL -> sendError(ctx, dialect, ApiFailure.of(HttpStatuses.TOO_MANY_REQUESTS,
                    ErrorCode.INFERENCE_SATURATED, "rate_limit_exceeded", "the server is busy: " + maxConcurrent
                            + " request(s) running and " + queue.stats().capacity() + " waiting; retry later")
                    .retryAfter(RETRY_AFTER_SECONDS));
            case TIMED_OUT -> sendError(ctx, dialect, ApiFailure.of(HttpStatuses.TOO_MANY_REQUESTS,
                    ErrorCode.INFERENCE_SATURATED, "rate_limit_exceeded", "the request waited longer than the queue "
                            + "timeout for a free slot; retry later").retryAfter(RETRY_AFTER_SECONDS));
            case CLIENT_GONE -> LOG.info("a queued {} {} left the queue: its client disconnected", ctx.method(),
                    ctx.path());
            case CLOSED -> refuseWhileDraining(ctx, dialect);
            default -> throw new IllegalStateException("unknown refusal " + reason);
        }
    }

    private void refuseWhileDraining(Context ctx, Dialect dialect) {
        ctx.res().setHeader("Connection", "close");
        sendError(ctx, dialect, ApiFailure.of(HttpStatuses.UNAVAILABLE, ErrorCode.INFERENCE_SATURATED,
                "service_unavailable", "the server is shutting down"));
    }

    private SystemResponse execute(SystemRequest request, StreamHandler stream, Cancellation cancellation) {
        return execute(request, stream, AgentEventListener.NOOP, cancellation);
    }

    private SystemResponse execute(SystemRequest request, StreamHandler stream, AgentEventListener events,
                                   Cancellation cancellation) {
        inFlight.add(cancellation);
        try {
            SystemResponse response = orchestrator.execute(request, stream, events, cancellation);
            response.error().ifPresent(error -> LOG.info("request {} failed: {} {}", response.requestId(),
                    error.code(), error.message()));
            return response;
        } finally {
            inFlight.remove(cancellation);
        }
    }

    private SystemRequest withDefaultTimeout(SystemRequest request) {
        if (requestTimeout.isZero() || request.hints().hasTimeout()) {
            return request;
        }
        return request.toBuilder().hints(request.hints().toBuilder().timeout(requestTimeout).build()).build();
    }

    private void checkLimits(List<Message> messages) {
        if (messages.size() > limits.maxMessages()) {
            throw ApiFailure.badParam("messages", "array_above_max_length", "too many messages: " + messages.size()
                    + " (the limit is " + limits.maxMessages() + ")");
        }
        for (int i = 0; i < messages.size(); i++) {
            int length = messages.get(i).content().length();
            if (length > limits.maxMessageChars()) {
                throw ApiFailure.badParam("messages[" + i + "].content", "string_above_max_length", "messages[" + i
                        + "] is too long: " + length + " characters (the limit is " + limits.maxMessageChars() + ")");
            }
        }
    }

    // --------------------------------------------------------------------------------------------------- exchange

    /** The body as text, refused with 413 beyond the limit (by its declared length before reading it). */
    private String readBody(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limits.maxBodyBytes()) {
            throw tooLarge();
        }
        int cap = (int) Math.min(limits.maxBodyBytes() + 1, Integer.MAX_VALUE - 8);
        try (ServletInputStream in = ctx.req().getInputStream()) {
            byte[] bytes = bodyReader.read(in, cap);
            if (bytes.length > limits.maxBodyBytes()) {
                throw tooLarge();
            }
            return utf8(bytes);
        } catch (ApiFailure refused) {
            throw refused;
        } catch (IOException | RuntimeException unreadable) {
            // The minimum data rate (BodyReader), Jetty's idle timeout, its size limit on a chunked body (a runtime
            // BadMessageException), or a reset connection. The exception's text names Jetty's classes, so it goes to
            // the debug log only, never to the client.
            if (statusOf(unreadable) == HttpStatuses.CONTENT_TOO_LARGE) {
                throw tooLarge();
            }
            LOG.debug("the body of {} {} could not be read: {}", ctx.method(), ctx.path(), unreadable.toString());
            throw ApiFailure.of(HttpStatuses.REQUEST_TIMEOUT, ErrorCode.CANCELLED_TIMEOUT, "timeout",
                    "the request body could not be read: it arrived too slowly or the connection failed");
        }
    }

    /** The HTTP status Jetty attached to a failure (or to one of its causes); 0 when none. */
    private static int statusOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HttpException http) {
                return http.getCode();
            }
        }
        return 0;
    }

    private ApiFailure tooLarge() {
        return ApiFailure.of(HttpStatuses.CONTENT_TOO_LARGE, ErrorCode.CONFIG_INVALID, "request_too_large",
                "the request body is larger than the limit of " + limits.maxBodyBytes() + " bytes");
    }

    /** The body as text; bytes that are not UTF-8 are refused rather than replaced, which would alter the prompt. */
    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException invalid) {
            throw ApiFailure.badRequest("the request body is not valid UTF-8");
        }
    }

    /**
     * Inference endpoints take JSON, as OpenAI's do: a body of another declared type is 415, and a charset other than
     * UTF-8 too. A request without a Content-Type is read as JSON, as curl's {@code -d} without a header and many
     * clients send it.
     */
    private static void requireJson(Context ctx) {
        String type = ctx.req().getContentType();
        if (type == null || type.isBlank()) {
            return;
        }
        String[] parts = type.split(";");
        String media = parts[0].strip().toLowerCase(Locale.ROOT);
        boolean json = media.equals("application/json") || (media.startsWith("application/")
                && media.endsWith("+json"));
        for (int i = 1; i < parts.length && json; i++) {
            String parameter = parts[i].strip().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("charset=")) {
                String charset = parameter.substring("charset=".length()).replace("\"", "");
                json = charset.equals("utf-8") || charset.equals("utf8");
            }
        }
        if (!json) {
            throw ApiFailure.of(HttpStatuses.UNSUPPORTED_MEDIA_TYPE, ErrorCode.CONFIG_INVALID,
                    "unsupported_media_type", "the request body must be JSON (Content-Type: application/json), not '"
                            + shorten(type) + "'");
        }
    }

    /**
     * The body as a JSON tree. A syntax error is reported with its line and column and a nesting limit as such;
     * Jackson's own texts name its classes and settings, so they go to the debug log only.
     */
    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (StreamConstraintsException tooDeep) {
            LOG.debug("request body refused by a parser limit: {}", tooDeep.getOriginalMessage());
            throw ApiFailure.badRequest("the request body is nested too deeply or holds a value too large to read");
        } catch (JacksonException notJson) {
            LOG.debug("request body is not JSON: {}", notJson.getOriginalMessage());
            TokenStreamLocation where = notJson.getLocation();
            throw ApiFailure.badRequest("We could not parse the JSON body of your request"
                    + (where == null || where.getLineNr() < 1 ? "" : " (line " + where.getLineNr() + ", column "
                    + where.getColumnNr() + ")") + ": it is not valid JSON");
        }
    }

    private static String requestId(Context ctx) {
        String header = ctx.header(REQUEST_ID_HEADER);
        return header != null && REQUEST_ID.matcher(header).matches() ? header : UUID.randomUUID().toString();
    }

    /**
     * Reserves a request id for a request: the client's id when no request with it is in flight and none has
     * recorded events under it; otherwise the id with a random suffix ({@code <id>.<8 hex digits>}), so that two
     * requests never share a timeline. The response's {@code X-Request-Id} tells the client which id it got. The
     * caller releases it from {@code activeRequestIds} when the request ends.
     */
    private String reserveRequestId(String wanted) {
        String id = wanted;
        while (!activeRequestIds.add(id) || (timeline != null && timeline.has(id))) {
            activeRequestIds.remove(id);
            id = wanted + "." + UUID.randomUUID().toString().substring(0, 8);
        }
        return id;
    }

    private static String traceId(Context ctx) {
        return TraceParent.parse(ctx.header(TraceParent.HEADER)).map(TraceParent::traceId).orElse("");
    }

    /** A valid {@code traceparent} (and its {@code tracestate}), passed on so that an observer continues the trace. */
    private static Map<String, String> traceContext(Context ctx) {
        String parent = ctx.header(TraceParent.HEADER);
        if (TraceParent.parse(parent).isEmpty()) {
            return Map.of();
        }
        String state = ctx.header(TraceParent.STATE_HEADER);
        return state == null ? Map.of(TraceParent.HEADER, parent.strip())
                : Map.of(TraceParent.HEADER, parent.strip(), TraceParent.STATE_HEADER, state.strip());
    }

    private void sendError(Context ctx, Dialect dialect, SystemError error) {
        retryAfter(ctx, error.code());
        int status = HttpStatuses.of(error.code());
        send(ctx, status, dialect == Dialect.OPENAI ? OpenAiError.of(error)
                : FacadeJson.toJson(SystemResponse.failure(SystemRequest.builder().build(), error)));
    }

    private void sendError(Context ctx, Dialect dialect, ApiFailure failure) {
        if (failure.retryAfterSeconds() > 0) {
            ctx.res().setHeader("Retry-After", String.valueOf(failure.retryAfterSeconds()));
        }
        send(ctx, failure.status(), dialect == Dialect.OPENAI ? OpenAiError.of(failure) : FacadeJson.toJson(SystemResponse.failure(SystemRequest.builder().build(),
                        SystemError.of(failure.code(), failure.getMessage()))));
    }

    private static void retryAfter(Context ctx, ErrorCode code) {
        if (code == ErrorCode.INFERENCE_SATURATED) {
            ctx.res().setHeader("Retry-After", String.valueOf(RETRY_AFTER_SECONDS));
        }
    }

    /** An error of the native endpoints that has no pagantic error code (an unknown request id). */
    private static String nativeError(String code, String message) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("error").put("code", code).put("category", "NotFound").put("retryable", false)
                .put("message", message).putObject("details");
        return JSON.writeValueAsString(root);
    }

    /**
     * Writes a whole JSON response and completes it at once, rather than leaving it to Javalin after the handler:
     * a graceful shutdown that sees the request finished must find its response on the wire.
     */
    private static void send(Context ctx, int status, String json) {
        HttpServletResponse res = ctx.res();
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        res.setStatus(status);
        res.setContentType("application/json");
        res.setCharacterEncoding("UTF-8");
        res.setContentLength(bytes.length);
        try (OutputStream out = res.getOutputStream()) {
            out.write(bytes);
        } catch (IOException disconnected) {
            LOG.debug("client went away before its {} response: {}", status, disconnected.toString());
        }
    }

    /** Which error document an endpoint answers with. */
    private enum Dialect {
        /** {@code {"error": {"message", "type", "param", "code"}}}. */
        OPENAI,
        /** {@link FacadeJson}'s response document with its error object. */
        NATIVE
    }

    /** The first part of an inference endpoint: the request body read, checked and mapped, outside the queue. */
    @FunctionalInterface
    private interface Body {
        /** @throws ApiFailure or PaganticException for a request that is refused before it waits for a slot */
        Admitted prepare(String requestBody);
    }

    /**
     * The second part: what runs once the request has a slot, and what releases what the first part reserved (its
     * request id) whether it ran or never got a slot.
     */
    private record Admitted(Runnable work, Runnable release) {

        void run() {
            try {
                work.run();
            } finally {
                release.run();
            }
        }

        void abandon() {
            release.run();
        }
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
        private int queueSize = DEFAULT_QUEUE_SIZE;
        private Duration queueTimeout = DEFAULT_QUEUE_TIMEOUT;
        private final Set<String> aliases = new LinkedHashSet<>();
        private TextEmbedder embedder;
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
