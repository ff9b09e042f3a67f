package dev.pagantic.engine.openai;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP exchange that another thread can abort at any point: while it connects and waits for the headers (the
 * {@code sendAsync} future is cancelled, which closes the connection) and while the body is read (the body stream is
 * closed, which fails the blocked read at once and drops the connection, so the server stops generating). The first
 * abort's reason is kept: the call reports it rather than the I/O error the abort caused.
 *
 * <p>Once the headers have arrived the future is never cancelled, not even by {@link #release()}: the caller gets the
 * response from the body handler, before the future completes, and may read the whole body while the future still
 * waits for a busy executor. The client returns the connection to its pool as soon as the last byte arrives, and
 * cancelling the future then closes that pooled connection, under whichever request took it next: that request
 * failed with "header parser received no bytes" from a healthy server. Closing the body stream instead is a no-op on
 * a body read to its end and drops the connection of a body left unread.
 */
final class Exchange {

    /** Why an exchange was aborted. */
    enum Abort {
        /** The call context was cancelled. */
        CANCELLED,
        /** The call context's deadline passed. */
        DEADLINE,
        /** The engine's request timeout passed. */
        REQUEST_TIMEOUT,
        /** The engine was closed. */
        CLOSED,
        /** The calling thread was interrupted. */
        INTERRUPTED
    }

    /** Whether the headers arrived or the exchange was aborted first: decides between the future and the body. */
    private enum Phase {
        WAITING,
        RESPONDED,
        ABORTED
    }

    private final AtomicReference<@Nullable Abort> abort = new AtomicReference<>();
    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.WAITING);
    private volatile @Nullable CompletableFuture<HttpResponse<InputStream>> pending;
    private volatile @Nullable InputStream body;

    /** What arrived: the status and headers, and the body to read as a stream. */
    record Received(int statusCode, HttpHeaders headers, InputStream body) {
    }

    /**
     * Sends the request and waits for the response headers; the body is then read from the stream. The headers are
     * taken from the body handler, which the client's own threads call as soon as they arrive: since Java 25 the
     * {@code sendAsync} future completes only after a hop to the common pool, which a caller running on a busy common
     * pool (a parallel stream, a {@code supplyAsync} task) would otherwise wait for forever. Transport failures
     * (no connection) still come through the future; on a busy common pool they wait for a free thread or for the
     * call's deadline or request timeout, whose abort completes the wait from the timer's thread.
     */
    Received send(HttpClient client, HttpRequest request) throws IOException {
        CompletableFuture<Received> arrived = new CompletableFuture<>();
        HttpResponse.BodyHandler<InputStream> handler = info -> {
            HttpResponse.BodySubscriber<InputStream> subscriber = HttpResponse.BodySubscribers.ofInputStream();
            subscriber.getBody().thenAccept(stream -> {
                body = stream;
                if (!phase.compareAndSet(Phase.WAITING, Phase.RESPONDED)) {
                    closeBody(); // aborted as the headers arrived: the unread body drops the connection
                }
                arrived.complete(new Received(info.statusCode(), info.headers(), stream));
            });
            return subscriber;
        };
        CompletableFuture<HttpResponse<InputStream>> future = client.sendAsync(request, handler);
        pending = future;
        if (phase.get() == Phase.ABORTED) {
            future.cancel(true); // aborted before the future was published
        }
        future.whenComplete((response, failure) -> {
            if (failure != null) {
                arrived.completeExceptionally(failure);
            } else {
                arrived.complete(new Received(response.statusCode(), response.headers(), response.body()));
            }
        });
        Received received;
        try {
            received = arrived.get();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            abort(Abort.INTERRUPTED);
            throw new IOException("interrupted while waiting for the response", interrupted);
        } catch (CancellationException cancelled) {
            throw new IOException("the exchange was aborted", cancelled);
        } catch (ExecutionException failed) {
            Throwable cause = failed.getCause();
            if (cause instanceof CancellationException) {
                throw new IOException("the exchange was aborted", cause);
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(cause == null ? "the exchange failed" : cause.toString(), cause);
        }
        body = received.body();
        phase.compareAndSet(Phase.WAITING, Phase.RESPONDED); // the future's own completion, without the handler
        if (abort.get() != null) {
            closeBody(); // aborted while the headers arrived
            throw new IOException("the exchange was aborted");
        }
        return received;
    }

    /** Aborts the exchange from any thread; only the first reason is kept. Quick and never throws. */
    void abort(Abort reason) {
        if (!abort.compareAndSet(null, reason)) {
            return;
        }
        stop();
    }

    /** Why the exchange was aborted; null when it was not. */
    @Nullable Abort aborted() {
        return abort.get();
    }

    /** Releases the connection: closes the body (an unread rest drops the connection rather than block it). */
    void release() {
        stop();
    }

    /** Cancels the future while no headers have arrived, and closes the body once they have (see the class comment). */
    private void stop() {
        if (phase.compareAndSet(Phase.WAITING, Phase.ABORTED)) {
            CompletableFuture<HttpResponse<InputStream>> future = pending;
            if (future != null) {
                future.cancel(true);
            }
        } else {
            closeBody();
        }
    }

    private void closeBody() {
        InputStream stream = body;
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException | RuntimeException ignored) {
                // closing is best effort: the exchange is over either way
            }
        }
    }
}
