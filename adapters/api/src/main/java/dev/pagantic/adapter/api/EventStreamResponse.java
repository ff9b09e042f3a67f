package dev.pagantic.adapter.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;

/** What every server-sent event stream of the server does to its HTTP response: commit it, complete it. */
final class EventStreamResponse {

    private EventStreamResponse() {
    }

    /** Commits the response as an event stream: status 200, {@code text/event-stream}, never buffered or cached. */
    static void open(HttpServletResponse response) {
        response.setStatus(200);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-cache");
        // Proxies such as nginx would otherwise buffer the stream and deliver it at the end.
        response.setHeader("X-Accel-Buffering", "no");
    }

    /**
     * Completes the response now, so that a graceful shutdown waiting for this request never cuts it; false when the
     * client had gone.
     */
    static boolean complete(HttpServletResponse response) {
        try {
            response.getOutputStream().close();
            return true;
        } catch (IOException | UncheckedIOException | IllegalStateException disconnected) {
            return false;
        }
    }
}
