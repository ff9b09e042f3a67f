package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.LOG;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.agent.AgentEventListener;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The work of admitted requests: the served models' orchestrator calls with the server's default timeout, each
 * under a {@link Cancellation} that {@link ApiServer#close()} cancels when the drain times out.
 */
final class Inference {

    private final Duration requestTimeout;
    private final Set<Cancellation> inFlight = ConcurrentHashMap.newKeySet();

    /** @param requestTimeout the timeout of requests that set none; zero for none */
    Inference(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    /**
     * Runs a request on a model's orchestrator; its agent events go to {@code events}. A failure is logged and
     * returned in the response.
     */
    SystemResponse execute(Orchestrator orchestrator, SystemRequest request, StreamHandler stream,
                           AgentEventListener events, Cancellation cancellation) {
        SystemResponse response = tracked(cancellation,
                () -> orchestrator.execute(request, stream, events, cancellation));
        response.error().ifPresent(error -> LOG.info("request {} failed: {} {}", response.requestId(),
                error.code(), error.message()));
        return response;
    }

    /** Runs work that observes {@code cancellation}, which stays cancellable by a shutdown while it runs. */
    <T> T tracked(Cancellation cancellation, Supplier<T> work) {
        inFlight.add(cancellation);
        try {
            return work.get();
        } finally {
            inFlight.remove(cancellation);
        }
    }

    /** The context of work outside the orchestrator (embeddings): the cancellation and the default timeout. */
    CallContext context(Cancellation cancellation) {
        CallContext context = CallContext.background().withCancellation(cancellation);
        return requestTimeout.isZero() ? context : context.withTimeout(requestTimeout);
    }

    /** The request with the server's default timeout when it sets none. */
    SystemRequest withDefaultTimeout(SystemRequest request) {
        if (requestTimeout.isZero() || request.hints().hasTimeout()) {
            return request;
        }
        return request.toBuilder().hints(request.hints().toBuilder().timeout(requestTimeout).build()).build();
    }

    /** Cancels every request still running (a shutdown whose drain timed out); returns how many. */
    int cancelAll(String reason) {
        int running = inFlight.size();
        inFlight.forEach(cancellation -> cancellation.cancel(reason));
        return running;
    }
}
