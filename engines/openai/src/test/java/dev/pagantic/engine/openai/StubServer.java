package dev.pagantic.engine.openai;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A stub OpenAI-compatible server for tests, on the JDK's {@link HttpServer} at an ephemeral loopback port. It records
 * every request and answers with programmable {@link Reply replies}: JSON bodies with any status and headers,
 * server-sent event streams written chunk by chunk with pauses, slow answers, and connections dropped mid-stream. It
 * notices when the client closes the connection under a stream ({@link #awaitClientGone}).
 */
final class StubServer implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** One answer: writes the response to the exchange. */
    @FunctionalInterface
    interface Reply {
        void write(HttpExchange exchange, Recorded request, StubServer server) throws IOException;

        /** This reply, then the connection kept open and silent for the pause. */
        default Reply thenStall(Duration pause) {
            Reply first = this;
            return (exchange, request, server) -> {
                first.write(exchange, request, server);
                exchange.getResponseBody().flush();
                sleep(pause);
            };
        }
    }

    /** A request the server received. */
    record Recorded(String method, String path, Map<String, List<String>> headers, String body) {

        /** The body as JSON. */
        JsonNode json() {
            return JSON.readTree(body);
        }

        /** The first value of a header, or null. */
        String header(String name) {
            for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
                if (entry.getKey().equalsIgnoreCase(name) && !entry.getValue().isEmpty()) {
                    return entry.getValue().get(0);
                }
            }
            return null;
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private final Set<InetSocketAddress> clients = ConcurrentHashMap.newKeySet();
    private final CountDownLatch clientGone = new CountDownLatch(1);
    private final Function<Recorded, Reply> responder;

    private StubServer(Function<Recorded, Reply> responder) throws IOException {
        this.responder = responder;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        this.executor = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "stub-openai-server");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A server that answers every request as the responder says. */
    static StubServer start(Function<Recorded, Reply> responder) {
        try {
            return new StubServer(responder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A server that answers the requests in turn with these replies, repeating the last. */
    static StubServer answering(Reply... replies) {
        AtomicInteger next = new AtomicInteger();
        return start(request -> replies[Math.min(next.getAndIncrement(), replies.length - 1)]);
    }

    /** The base URL, without {@code /v1}. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request received so far. */
    /** How many connections the requests came on (one per client address and port). */
    int connections() {
        return clients.size();
    }

    List<Recorded> requests() {
        return List.copyOf(requests);
    }

    /** The last request received. */
    Recorded lastRequest() {
        if (requests.isEmpty()) {
            throw new AssertionError("the stub server received no request");
        }
        return requests.get(requests.size() - 1);
    }

    /** Waits until a write to a client failed because the client closed the connection. */
    boolean awaitClientGone(Duration timeout) throws InterruptedException {
        return clientGone.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow(); // interrupts replies that are still pausing
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Recorded request = new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    Map.copyOf(exchange.getRequestHeaders()), body);
            requests.add(request);
            clients.add(exchange.getRemoteAddress());
            responder.apply(request).write(exchange, request, this);
        } catch (IOException closed) {
            // the client went away, or a reply dropped the connection on purpose
        }
    }

    private void markClientGone() {
        clientGone.countDown();
    }

    // ------------------------------------------------------------------------------------------------------ replies

    /** A JSON body with the status and headers. */
    static Reply json(int status, String body, Map<String, String> headers) {
        return (exchange, request, server) -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
        };
    }

    /** A JSON body with the status. */
    static Reply json(int status, String body) {
        return json(status, body, Map.of());
    }

    /** An OpenAI error document with the status. */
    static Reply error(int status, String message) {
        return json(status, Wire.error(message));
    }

    /** Any body with the status and content type. */
    static Reply raw(int status, String contentType, String body) {
        return (exchange, request, server) -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
        };
    }

    /** A reply written after a pause (interrupted when the server closes). */
    static Reply delayed(Duration pause, Reply reply) {
        return (exchange, request, server) -> {
            if (sleep(pause)) {
                reply.write(exchange, request, server);
            }
        };
    }

    /** A stream of events, each written and flushed on its own, with the pause before each. */
    static Reply sse(Duration pause, List<String> events) {
        return (exchange, request, server) -> {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            for (String event : events) {
                if (!sleep(pause)) {
                    return;
                }
                try {
                    out.write(event.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                } catch (IOException clientClosed) {
                    server.markClientGone();
                    throw clientClosed;
                }
            }
        };
    }

    /** A stream of {@code data:} events: each payload as one event, then {@code data: [DONE]}. */
    static Reply sseData(Duration pause, List<String> payloads) {
        List<String> events = new ArrayList<>();
        payloads.forEach(payload -> events.add("data: " + payload + "\n\n"));
        events.add("data: [DONE]\n\n");
        return sse(pause, events);
    }

    /**
     * A stream that promises more bytes than it sends and then closes the connection: the client sees the connection
     * drop in the middle of the stream.
     */
    static Reply droppedStream(List<String> payloads) {
        return (exchange, request, server) -> {
            StringBuilder text = new StringBuilder();
            payloads.forEach(payload -> text.append("data: ").append(payload).append("\n\n"));
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, bytes.length + 10_000L);
            OutputStream out = exchange.getResponseBody();
            out.write(bytes);
            out.flush();
            // closing the exchange now fails its too-short body and closes the socket under the client
        };
    }

    /** Sleeps; false when interrupted (the server is closing). */
    static boolean sleep(Duration pause) {
        if (pause.isZero()) {
            return true;
        }
        try {
            Thread.sleep(pause.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
