package dev.pagantic.adapter.api;

import dev.pagantic.core.Cancellation;
import dev.pagantic.orchestrate.agent.AgentEvent;
import dev.pagantic.orchestrate.agent.AgentEventListener;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.SystemResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The streamed form of the native endpoint {@code POST /v1/requests}: a chat request's agent events (seed 004) as
 * server-sent events while the request runs, then its {@code SystemResponse}.
 *
 * <pre>
 * event: turn_start
 * data: {"type":"turn_start","request_id":"r-1","session_id":"","trace_id":"...","timestamp":"..."}
 *
 * event: steering_mode
 * data: {"type":"steering_mode",...,"mode":"steer","queue_size":2}
 * ...
 * event: response
 * data: {"request_id":"r-1",...,"content":"..."}   (the SystemResponse, as the whole endpoint returns it)
 * </pre>
 *
 * A client asks for it with {@code "stream": true} in the request body or {@code Accept: text/event-stream}
 * ({@link #requested}). Each event's {@code data} is {@link FacadeJson#toJson(AgentEvent)}; the last event,
 * {@code response}, is the response document, with its {@code error} when the request failed.
 *
 * <p>The response is committed (status 200, {@code text/event-stream}) lazily, with the first event or a successful
 * response: a request that fails before its first event (a malformed envelope, an engine that is down) gets
 * the error status and document of the unstreamed endpoint ({@link #end} returns false and the server sends them).
 * Modes other than chat emit no agent events: their stream is the {@code response} event alone.
 *
 * <p>When a write fails, the client has gone: the request's {@link Cancellation} is cancelled so that the facade stops
 * at the next token, and nothing more is written. Thread-safe: text deltas come from the engine's generating thread.
 */
final class RequestEventStream implements AgentEventListener {

    private static final Logger LOG = LoggerFactory.getLogger(RequestEventStream.class);
    private static final String EVENT_STREAM = "text/event-stream";

    private final HttpServletResponse response;
    private final Cancellation cancellation;
    private final Object lock = new Object();
    private boolean started; // guarded by lock
    private boolean gone; // guarded by lock

    RequestEventStream(HttpServletResponse response, Cancellation cancellation) {
        this.response = Objects.requireNonNull(response, "response");
        this.cancellation = Objects.requireNonNull(cancellation, "cancellation");
    }

    /** Whether the client asked for the stream: {@code "stream": true} in the body, or an event-stream Accept. */
    static boolean requested(HttpServletRequest request, JsonNode body) {
        if (body.path("stream").asBoolean(false)) {
            return true;
        }
        String accept = request.getHeader("Accept");
        return accept != null && accept.toLowerCase(Locale.ROOT).contains(EVENT_STREAM);
    }

    @Override
    public void onEvent(AgentEvent event) {
        synchronized (lock) {
            send(event.eventType(), FacadeJson.toJson(event));
        }
    }

    /**
     * Ends the stream with the {@code response} event; false, with nothing written, for a failed request whose stream
     * had not started (the caller then answers it as the unstreamed endpoint does).
     */
    boolean end(SystemResponse result) {
        synchronized (lock) {
            if (!started && result.error().isPresent()) {
                return false;
            }
            send("response", FacadeJson.toJson(result));
            close();
            return true;
        }
    }

    private void send(String name, String json) {
        if (gone) {
            return;
        }
        try {
            start();
            OutputStream out = response.getOutputStream();
            out.write(("event: " + name + "\ndata: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException | UncheckedIOException | IllegalStateException disconnected) {
            gone = true;
            LOG.debug("client of a streamed native request went away: {}", disconnected.toString());
            cancellation.cancel("the client disconnected");
        }
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        EventStreamResponse.open(response);
    }

    private void close() {
        if (!gone) {
            gone = !EventStreamResponse.complete(response);
        }
    }
}
