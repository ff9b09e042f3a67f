package dev.pagantic.engine.openai;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Registration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
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

/**
 * One HTTP exchange with the server under a call context: cancellation aborts it, the earlier of the deadline and the
 * request timeout aborts it, closing the engine aborts it. Every way out releases the connection, and every failure
 * is a {@link PaganticException} with the endpoint in its details (a non-2xx answer mapped by {@link HttpFailures}),
 * except an exception thrown by the caller's stream handler, which is rethrown as it was. What the answer means is
 * the caller's: a chat completion ({@link ChatCall}) or embeddings ({@link EmbeddingCall}).
 */
final class HttpCall {

    private static final Logger LOG = LoggerFactory.getLogger(HttpCall.class);

    /** The most of an error body that is read: enough for any error object, not a whole misrouted download. */
    private static final int MAX_ERROR_BYTES = 64 * 1024;

    /** What every call of one engine shares. */
    record Wiring(HttpClient client, Map<String, String> headers, Duration requestTimeout,
                  ScheduledExecutorService timers, Set<Exchange> active, BooleanSupplier closed) {
    }

    /** Reads a successful (2xx) answer. */
    @FunctionalInterface
    interface Answer<T> {
        T read(Exchange.Received response) throws IOException;
    }

    private final Wiring wiring;
    private final HttpFailures failures;
    private final CallContext context;
    private boolean readingBody;

    HttpCall(Wiring wiring, HttpFailures failures, CallContext context) {
        this.wiring = wiring;
        this.failures = failures;
        this.context = context;
    }

    /** Posts the JSON body to the endpoint and reads the answer. */
    <T> T post(URI endpoint, byte[] body, String accept, Answer<T> answer) {
        Exchange exchange = new Exchange();
        wiring.active().add(exchange);
        if (wiring.closed().getAsBoolean()) {
            exchange.abort(Exchange.Abort.CLOSED); // closed between the caller's check and the registration
        }
        Registration registration = context.onCancel(() -> exchange.abort(Exchange.Abort.CANCELLED));
        ScheduledFuture<?> timer = null;
        try {
            timer = scheduleTimeout(exchange);
            LOG.debug("POST {} ({} bytes)", endpoint, body.length);
            Exchange.Received response = exchange.send(wiring.client(), request(endpoint, body, accept));
            int status = response.statusCode();
            if (status < 200 || status > 299) {
                byte[] error = response.body().readNBytes(MAX_ERROR_BYTES);
                throw failures.fromStatus(status, response.headers(), error, Instant.now());
            }
            readingBody = true;
            return answer.read(response);
        } catch (Delivery.HandlerFailure failure) {
            throw failure.unwrap();
        } catch (IOException | RuntimeException failure) {
            PaganticException translated = translate(failure, exchange);
            LOG.debug("call to {} failed: {}", endpoint, translated.getMessage());
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

    private HttpRequest request(URI endpoint, byte[] body, String accept) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Content-Type", "application/json")
                .header("Accept", accept);
        wiring.headers().forEach(builder::setHeader);
        return builder.build();
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

    private PaganticException translate(Throwable failure, Exchange exchange) {
        Exchange.Abort abort = exchange.aborted();
        if (abort != null) {
            return aborted(abort, failure);
        }
        if (failure instanceof PaganticException known) {
            return failures.withEndpoint(known);
        }
        if (Thread.currentThread().isInterrupted()) {
            return cancelled("interrupted", failure);
        }
        if (failure instanceof IOException io) {
            return failures.io(io, readingBody);
        }
        if (failure instanceof UncheckedIOException io) {
            return failures.io(io.getCause(), readingBody);
        }
        if (failure instanceof JacksonException json) {
            return failures.malformed(json.getOriginalMessage(), json);
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
                    return failures.withEndpoint(cancelled);
                }
                return cancelled("cancelled by caller", cause);
            case DEADLINE:
                String deadline = context.deadline().map(Instant::toString).orElse("");
                return PaganticException.builder(ErrorCode.CANCELLED_TIMEOUT, "deadline exceeded at " + deadline)
                        .cause(cause).detail("request_id", context.requestId()).detail("deadline", deadline)
                        .details(endpoint()).build();
            case REQUEST_TIMEOUT:
                return failures.requestTimedOut(wiring.requestTimeout(), cause);
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
        return Map.of(HttpFailures.ENDPOINT, failures.endpoint());
    }
}
