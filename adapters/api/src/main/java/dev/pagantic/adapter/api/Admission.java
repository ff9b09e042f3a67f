package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.LOG;
import static dev.pagantic.adapter.api.Responses.RETRY_AFTER_SECONDS;
import static dev.pagantic.adapter.api.Responses.sendError;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import io.javalin.http.Context;
import java.time.Duration;

/**
 * The way into an inference endpoint. The body is read, decoded and mapped first, outside the queue (a client that
 * sends it slowly, or sends a bad request, holds no slot and makes nobody wait); then the request waits its turn in
 * the {@link RequestQueue}, runs, and frees its slot. A full queue or a wait past its timeout is 429 with
 * {@code Retry-After}, a client that disconnects while queued leaves the queue, and a draining server answers 503.
 * Every failure is answered as JSON in the endpoint's {@link Dialect}.
 */
final class Admission {

    private final RequestQueue queue;
    private final RequestBodies bodies;
    private volatile boolean draining;

    Admission(RequestQueue queue, RequestBodies bodies) {
        this.queue = queue;
        this.bodies = bodies;
    }

    /** The first part of an inference endpoint: the request body checked and mapped, outside the queue. */
    @FunctionalInterface
    interface Body {
        /** @throws ApiFailure or PaganticException for a request that is refused before it waits for a slot */
        Admitted prepare(String requestBody);
    }

    /**
     * The second part: what runs once the request has a slot, and what releases what the first part reserved (its
     * request id) whether it ran or never got a slot.
     */
    record Admitted(Runnable work, Runnable release) {

        /** Work that reserved nothing. */
        static Admitted of(Runnable work) {
            return new Admitted(work, () -> { });
        }

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

    /** Serves one request of an inference endpoint: prepared, queued, run, its slot freed. */
    void serve(Context ctx, Dialect dialect, Body body) {
        if (draining) {
            refuseWhileDraining(ctx, dialect);
            return;
        }
        Admitted admitted;
        try {
            RequestBodies.requireJson(ctx);
            admitted = body.prepare(bodies.read(ctx));
        } catch (ApiFailure failure) {
            sendError(ctx, dialect, failure);
            return;
        } catch (PaganticException refusal) {
            // A facade or core type refused a value of the request (a schema keyword, a role, a hint).
            sendError(ctx, dialect, ApiFailure.of(refusal));
            return;
        }
        if (enter(ctx, dialect, admitted)) {
            run(ctx, dialect, admitted);
        }
    }

    /** Waits for a slot; false when the request was answered (refused) instead. */
    private boolean enter(Context ctx, Dialect dialect, Admitted admitted) {
        try {
            queue.enter(new ClientConnection(ctx)::gone);
            return true;
        } catch (RequestQueue.Refused refused) {
            admitted.abandon();
            refuse(ctx, dialect, refused.reason());
        } catch (InterruptedException interrupted) {
            admitted.abandon();
            Thread.currentThread().interrupt();
            refuseWhileDraining(ctx, dialect);
        }
        return false;
    }

    private void run(Context ctx, Dialect dialect, Admitted admitted) {
        try {
            admitted.run();
        } catch (ApiFailure failure) {
            sendError(ctx, dialect, failure);
        } catch (PaganticException refusal) {
            sendError(ctx, dialect, ApiFailure.of(refusal));
        } catch (RuntimeException bug) {
            Responses.unexpected(bug, ctx);
        } finally {
            queue.leave();
        }
    }

    /** Answers a request the queue did not admit. */
    private void refuse(Context ctx, Dialect dialect, RequestQueue.Refusal reason) {
        switch (reason) {
            case FULL -> sendError(ctx, dialect, ApiFailure.of(HttpStatuses.TOO_MANY_REQUESTS,
                    ErrorCode.INFERENCE_SATURATED, "rate_limit_exceeded", "the server is busy: "
                            + queue.stats().slots() + " request(s) running and " + queue.stats().capacity()
                            + " waiting; retry later").retryAfter(RETRY_AFTER_SECONDS));
            case TIMED_OUT -> sendError(ctx, dialect, ApiFailure.of(HttpStatuses.TOO_MANY_REQUESTS,
                    ErrorCode.INFERENCE_SATURATED, "rate_limit_exceeded", "the request waited longer than the queue "
                            + "timeout for a free slot; retry later").retryAfter(RETRY_AFTER_SECONDS));
            case CLIENT_GONE -> LOG.info("a queued {} {} left the queue: its client disconnected", ctx.method(),
                    ctx.path());
            case CLOSED -> refuseWhileDraining(ctx, dialect);
            default -> throw new IllegalStateException("unknown refusal " + reason);
        }
    }

    private static void refuseWhileDraining(Context ctx, Dialect dialect) {
        ctx.res().setHeader("Connection", "close");
        sendError(ctx, dialect, ApiFailure.of(HttpStatuses.UNAVAILABLE, ErrorCode.INFERENCE_SATURATED,
                "service_unavailable", "the server is shutting down"));
    }

    /** True once the server began to shut down: every new or queued request is answered 503. */
    boolean draining() {
        return draining;
    }

    /** Starts the shutdown: new and queued requests are refused from now on. */
    void drain() {
        draining = true;
        queue.close();
    }

    /** Waits until no request runs (after {@link #drain()}, none can start); false when the time ran out. */
    boolean awaitIdle(Duration timeout) {
        try {
            return queue.awaitIdle(timeout);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The queue's state, for the health and metrics endpoints. */
    RequestQueue.Stats stats() {
        return queue.stats();
    }
}
