package dev.pagantic.engine.openai;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Registration;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One inference call over HTTP: encodes the request, runs the exchange under the call context (cancellation aborts
 * it, the earlier of the deadline and the request timeout aborts it), and decodes the answer, whole or streamed.
 * Every way out releases the connection, and every failure is a {@link PaganticException} with the endpoint in its
 * details, except an exception thrown by the caller's handler, which is rethrown as it was.
 */
final class ChatCall {

    private static final Logger LOG = LoggerFactory.getLogger(ChatCall.class);

    /** The most of an error body that is read: enough for any error object, not a whole misrouted download. */
    private static final int MAX_ERROR_BYTES = 64 * 1024;

    /** What every call of one engine shares. */
    record Wiring(HttpClient client, URI endpoint, Map<String, String> headers, Duration requestTimeout,
                  ChatRequestEncoder encoder, ChatResponseDecoder decoder, HttpFailures failures,
                  ScheduledExecutorService timers, Set<Exchange> active, BooleanSupplier closed) {
    }

    private final Wiring wiring;
    private final CallContext context;
    private final Request request;
    private final StreamHandler handler; // NOOP: not streamed
    private final boolean streamed;
    private boolean readingBody;

    ChatCall(Wiring wiring, CallContext context, Request request, StreamHandler handler) {
        this.wiring = wiring;
        this.context = context;
        this.request = request;
        this.handler = handler;
        this.streamed = handler != StreamHandler.NOOP;
    }

    Result run() {
        byte[] body;
        try {
            body = wiring.encoder().encode(request, streamed);
        } catch (PaganticException invalid) {
            throw wiring.failures().withEndpoint(invalid);
        }
        Exchange exchange = new Exchange();
        wiring.active().add(exchange);
        if (wiring.closed().getAsBoolean()) {
            exchange.abort(Exchange.Abort.CLOSED); // closed between the caller's check and the registration
        }
        Registration registration = context.onCancel(() -> exchange.abort(Exchange.Abort.CANCELLED));
        ScheduledFuture<?> timer = null;
        long started = System.nanoTime();
        try {
            timer = scheduleTimeout(exchange);
            LOG.debug("POST {} ({} messages, stream {})", wiring.endpoint(), request.messages().size(),
                    streamed);
            Exchange.Received response = exchange.send(wiring.client(), httpRequest(body));
            return answer(response, started);
        } catch (Delivery.HandlerFailure failure) {
            throw failure.unwrap();
        } catch (IOException | RuntimeException failure) {
            PaganticException translated = translate(failure, exchange);
            LOG.debug("call to {} failed: {}", wiring.endpoint(), translated.getMessage());
            throw translated;
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
            registration.close();
            wiring.active().remove(exchange);
            exchange.release();
        }
    }

    private ScheduledFuture<?> scheduleTimeout(Exchange exchange) {
        Duration budget = wiring.requestTimeout();
        Exchange.Abort reason = Exchange.Abort.REQUEST_TIMEOUT;
        Optional<Duration> left = context.remaining();
        if (left.isPresent() && left.get().compareTo(budget) <= 0) {
            budget = left.get();
            reason = Exchange.Abort.DEADLINE;
        }
        Exchange.Abort why = reason;
        try {
            return wiring.timers().schedule(() -> exchange.abort(why), budget.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            exchange.abort(Exchange.Abort.CLOSED); // the engine closed its timers: it is closing
            throw closing;
        }
    }

    private HttpRequest httpRequest(byte[] body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(wiring.endpoint())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Content-Type", "application/json")
                .header("Accept", streamed ? "text/event-stream" : "application/json");
        wiring.headers().forEach(builder::setHeader);
        return builder.build();
    }

    private Result answer(Exchange.Received response, long started) throws IOException {
        int status = response.statusCode();
        InputStream body = response.body();
        if (status < 200 || status > 299) {
            byte[] error = body.readNBytes(MAX_ERROR_BYTES);
            throw wiring.failures().fromStatus(status, response.headers(), error, Instant.now());
        }
        readingBody = true;
        Delivery delivery = new Delivery(handler, context);
        boolean eventStream = response.headers().firstValue("Content-Type")
                .map(type -> type.toLowerCase(Locale.ROOT).startsWith("text/event-stream")).orElse(false);
        if (eventStream) {
            return streamed(body, delivery, started);
        }
        // A server that ignores "stream": true answers whole; the handler then gets the answer whole.
        String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
        context.throwIfDone();
        JsonNode root = wiring.decoder().parseObject(text, "the answer");
        Result result = wiring.decoder().decode(root, request, context, elapsed(started));
        return streamed ? delivery.whole(result) : result;
    }

    private Result streamed(InputStream body, Delivery delivery, long started) throws IOException {
        SseReader reader = new SseReader(body);
        ChatStreamDecoder stream = new ChatStreamDecoder(wiring.decoder(), delivery, request, context);
        try {
            SseReader.Event event;
            while ((event = reader.next()) != null) {
                if (event.data().strip().equals("[DONE]")) {
                    stream.done();
                    break;
                }
                for (JsonNode chunk : chunks(event)) {
                    stream.accept(chunk);
                }
                context.throwIfDone();
            }
        } catch (SseReader.OversizedLine oversized) {
            throw wiring.failures().malformed(oversized.getMessage(), oversized);
        } catch (IOException dropped) {
            // After the finish reason only the usage chunk and [DONE] are missing: the answer itself is whole.
            if (!stream.complete() || context.isDone()) {
                throw dropped;
            }
            LOG.debug("the stream from {} dropped after its finish reason: {}", wiring.endpoint(), dropped.toString());
        }
        if (!stream.complete()) {
            throw wiring.failures().truncatedStream();
        }
        return stream.finish(elapsed(started));
    }

    /** The chunks of one event: its data as one JSON object, or (leniently) one object per data line. */
    private List<JsonNode> chunks(SseReader.Event event) {
        try {
            return List.of(wiring.decoder().parseObject(event.data(), "a stream chunk"));
        } catch (PaganticException malformed) {
            if (!event.complete()) {
                throw wiring.failures().truncatedStream(); // the connection cut the last event
            }
            if (event.lines().size() < 2) {
                throw malformed;
            }
            List<JsonNode> chunks = new ArrayList<>();
            for (String line : event.lines()) {
                chunks.add(wiring.decoder().parseObject(line, "a stream chunk"));
            }
            return chunks;
        }
    }

    private PaganticException translate(Throwable failure, Exchange exchange) {
        Exchange.Abort abort = exchange.aborted();
        if (abort != null) {
            return aborted(abort, failure);
        }
        if (failure instanceof PaganticException known) {
            return wiring.failures().withEndpoint(known);
        }
        if (Thread.currentThread().isInterrupted()) {
            return cancelled("interrupted", failure);
        }
        if (failure instanceof IOException io) {
            return wiring.failures().io(io, readingBody);
        }
        if (failure instanceof UncheckedIOException io) {
            return wiring.failures().io(io.getCause(), readingBody);
        }
        if (failure instanceof JacksonException json) {
            return wiring.failures().malformed(json.getOriginalMessage(), json);
        }
        if (failure instanceof RejectedExecutionException) {
            return closed(failure);
        }
        throw (RuntimeException) failure; // a bug here: do not disguise it as a server failure
    }

    private PaganticException aborted(Exchange.Abort abort, Throwable cause) {
        switch (abort) {
            case CANCELLED:
                try {
                    context.throwIfDone();
                } catch (PaganticException cancelled) {
                    return wiring.failures().withEndpoint(cancelled);
                }
                return cancelled("cancelled by caller", cause);
            case DEADLINE:
                String deadline = context.deadline().map(Instant::toString).orElse("");
                return PaganticException.builder(ErrorCode.CANCELLED_TIMEOUT, "deadline exceeded at " + deadline)
                        .cause(cause).detail("request_id", context.requestId()).detail("deadline", deadline)
                        .details(endpoint()).build();
            case REQUEST_TIMEOUT:
                return wiring.failures().requestTimedOut(wiring.requestTimeout(), cause);
            case CLOSED:
                return closed(cause);
            case INTERRUPTED:
            default:
                return cancelled("interrupted", cause);
        }
    }

    private PaganticException cancelled(String why, Throwable cause) {
        return PaganticException.builder(ErrorCode.CANCELLED_SIGNAL, "cancelled: " + why).cause(cause)
                .detail("request_id", context.requestId()).details(endpoint()).build();
    }

    private PaganticException closed(Throwable cause) {
        return PaganticException.builder(ErrorCode.INFERENCE_ENGINE_CLOSED, "the engine was closed during the call")
                .cause(cause).details(endpoint()).build();
    }

    private Map<String, Object> endpoint() {
        return Map.of(HttpFailures.ENDPOINT, wiring.failures().endpoint());
    }

    private static Duration elapsed(long started) {
        return Duration.ofNanos(Math.max(0, System.nanoTime() - started));
    }
}
