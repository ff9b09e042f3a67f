package dev.pagantic.adapter.api;

import io.javalin.http.Context;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The identity of an inference request: its id ({@code X-Request-Id}, chosen by the client or generated, reserved so
 * that two requests never share a timeline) and its W3C trace context ({@code traceparent}, {@code tracestate}).
 */
final class RequestIds {

    static final String HEADER = "X-Request-Id";
    /** A client-chosen request id ({@code X-Request-Id}) is used when it is this tame. */
    private static final Pattern TAME = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private final Set<String> active = ConcurrentHashMap.newKeySet();
    private final @Nullable EventTimeline timeline;

    /** @param timeline the recorded timelines, whose ids are taken too; null when no event log is wired */
    RequestIds(@Nullable EventTimeline timeline) {
        this.timeline = timeline;
    }

    /** The id the client asked for in {@code X-Request-Id} when it is tame; otherwise a random UUID. */
    static String wanted(Context ctx) {
        String header = ctx.header(HEADER);
        return header != null && TAME.matcher(header).matches() ? header : UUID.randomUUID().toString();
    }

    /**
     * Reserves a request id for a request: the client's id when no request with it is in flight and none has
     * recorded events under it; otherwise the id with a random suffix ({@code <id>.<8 hex digits>}), so that two
     * requests never share a timeline. The response's {@code X-Request-Id} tells the client which id it got. The
     * caller {@linkplain #release(String) releases} it when the request ends.
     */
    String reserve(String wanted) {
        String id = wanted;
        while (!active.add(id) || (timeline != null && timeline.has(id))) {
            active.remove(id);
            id = wanted + "." + UUID.randomUUID().toString().substring(0, 8);
        }
        return id;
    }

    /** Frees an id {@linkplain #reserve(String) reserved} for a request that ended, or never ran. */
    void release(String id) {
        active.remove(id);
    }

    /** The trace id of a valid {@code traceparent}; empty when there is none. */
    static String traceId(Context ctx) {
        return TraceParent.parse(ctx.header(TraceParent.HEADER)).map(TraceParent::traceId).orElse("");
    }

    /** A valid {@code traceparent} (and its {@code tracestate}), passed on so that an observer continues the trace. */
    static Map<String, String> traceContext(Context ctx) {
        String parent = ctx.header(TraceParent.HEADER);
        if (parent == null || TraceParent.parse(parent).isEmpty()) {
            return Map.of();
        }
        String state = ctx.header(TraceParent.STATE_HEADER);
        return state == null ? Map.of(TraceParent.HEADER, parent.strip())
                : Map.of(TraceParent.HEADER, parent.strip(), TraceParent.STATE_HEADER, state.strip());
    }
}
