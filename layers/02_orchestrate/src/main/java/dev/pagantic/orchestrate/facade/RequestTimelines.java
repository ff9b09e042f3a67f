package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Preconditions;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An {@link EventLog} that keeps the events of the most recent requests as facade values, for adapters that show a
 * request's timeline (the command line's {@code --verbose}, the terminal's live tool calls, the HTTP API's events
 * endpoint and its web page) without reaching into the observe layer. Give it to
 * {@link Orchestrator.Builder#eventLog}; a {@link Builder#listener listener} sees each event as it is recorded.
 *
 * <p>Thread-safe. The oldest request's events are dropped when more than {@link Builder#maxRequests} requests are
 * kept.
 */
public final class RequestTimelines implements EventLog {

    /** One event of a request's timeline. */
    public record TimelineEvent(Instant timestamp, String layer, String action, Map<String, Object> data,
                                Duration duration, Optional<String> errorCode, Optional<String> errorMessage,
                                String requestId, String sessionId, String traceId, String spanId,
                                String parentSpanId, String causedBy) {

        public TimelineEvent {
            requireNonNull(timestamp, "timestamp");
            data = Collections.unmodifiableMap(new LinkedHashMap<>(data)); // JSON nulls kept (a default temperature)
            requireNonNull(duration, "duration");
        }

        /** Whether the event records a failure. */
        public boolean failed() {
            return errorCode.isPresent();
        }
    }

    private final int maxRequests;
    private final Consumer<TimelineEvent> listener;
    private final LinkedHashMap<String, List<Event>> requests = new LinkedHashMap<>();

    private RequestTimelines(Builder builder) {
        this.maxRequests = builder.maxRequests;
        this.listener = builder.listener;
    }

    /** Timelines of at most the given number of recent requests. */
    public static RequestTimelines create(int maxRequests) {
        return builder().maxRequests(maxRequests).build();
    }

    /** Starts building timelines. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void record(Event event) {
        Objects.requireNonNull(event, "event");
        synchronized (requests) {
            requests.computeIfAbsent(event.correlation().requestId(), id -> new ArrayList<>()).add(event);
            while (requests.size() > maxRequests) {
                requests.remove(requests.keySet().iterator().next());
            }
        }
        listener.accept(entry(event));
    }

    /** Every event kept, request by request, oldest request first. */
    @Override
    public List<Event> events() {
        synchronized (requests) {
            return requests.values().stream().flatMap(List::stream).toList();
        }
    }

    /**
     * The events of a request in time order: by their timestamps, which for a timed event (a tool call, a step) is
     * when it started, not when it was recorded; events of the same instant keep the order they were recorded in.
     * Empty for an unknown or dropped request.
     */
    public List<TimelineEvent> of(String requestId) {
        List<Event> events;
        synchronized (requests) {
            events = new ArrayList<>(requests.getOrDefault(requestId, List.of()));
        }
        events.sort(Comparator.comparing(Event::timestamp)); // stable
        return events.stream().map(RequestTimelines::entry).toList();
    }

    private static TimelineEvent entry(Event event) {
        return new TimelineEvent(event.timestamp(), event.layer(), event.action(), event.data(), event.duration(),
                event.error().map(error -> error.code()), event.error().map(error -> error.message()),
                event.correlation().requestId(), event.correlation().sessionId(), event.correlation().traceId(),
                event.correlation().spanId(), event.correlation().parentSpanId(), event.correlation().causedBy());
    }

    /** The ids of the requests kept, oldest first. */
    public List<String> requestIds() {
        synchronized (requests) {
            return List.copyOf(requests.keySet());
        }
    }

    /** Builds {@link RequestTimelines}. */
    public static final class Builder {
        private int maxRequests = 1000;
        private Consumer<TimelineEvent> listener = event -> { };

        private Builder() {
        }

        /** The most requests kept; 1000 by default. */
        public Builder maxRequests(int value) {
            this.maxRequests = value;
            return this;
        }

        /** Sees every event as it is recorded, on the recording thread; it must be quick. None by default. */
        public Builder listener(Consumer<TimelineEvent> value) {
            this.listener = requireNonNull(value, "listener");
            return this;
        }

        /** The timelines; {@code CONFIG_INVALID} for a non-positive maximum. */
        public RequestTimelines build() {
            require(maxRequests > 0, "maxRequests must be positive: ", maxRequests);
            return new RequestTimelines(this);
        }
    }
}
