package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.ExecutionState;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the {@link Orchestrator} knows about one request while it runs (seed 001's {@code ExecutionContext}).
 * The ids, the mode and the start time are set at INIT and never change; the lifecycle state follows every
 * transition, the selected tools are resolved in PREPARE, the candidates are the replicas' outputs in redundant mode
 * and the last reranked (or retrieved) candidate set in plan mode, and the metadata is a free extension point. The orchestrator hands it to its
 * {@linkplain Orchestrator.Builder#executionListener execution listener} when the request ends.
 *
 * <p>Thread-safe: the mutable parts are replaced atomically with immutable values.
 */
public final class ExecutionContext {

    private final String requestId;
    private final String sessionId;
    private final String traceId;
    private final Mode mode;
    private final Instant startedAt;
    private final ExecutionLifecycle lifecycle;
    private volatile List<String> selectedTools = List.of();
    private volatile List<Candidate> candidates = List.of();
    private final Map<String, Object> metadata = new LinkedHashMap<>();

    ExecutionContext(SystemRequest request, Instant startedAt, ExecutionLifecycle lifecycle) {
        this.requestId = request.requestId();
        this.sessionId = request.sessionId();
        this.traceId = request.traceId();
        this.mode = request.mode();
        this.startedAt = Objects.requireNonNull(startedAt, "startedAt");
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    }

    /** The request id, as assigned at INIT. */
    public String requestId() {
        return requestId;
    }

    /** The session id; empty for a single-shot request. */
    public String sessionId() {
        return sessionId;
    }

    /** The trace id, as assigned at INIT. */
    public String traceId() {
        return traceId;
    }

    /** The request's mode. */
    public Mode mode() {
        return mode;
    }

    /** When the request entered INIT. */
    public Instant startedAt() {
        return startedAt;
    }

    /** Where the request stands in its lifecycle now. */
    public ExecutionState state() {
        return lifecycle.state();
    }

    /** The tools offered to the model, resolved in PREPARE (registered and caller tools after the whitelist). */
    public List<String> selectedTools() {
        return selectedTools;
    }

    /** The current candidate set: the replicas' outputs in redundant mode, the last candidates step's in plan mode. */
    public List<Candidate> candidates() {
        return candidates;
    }

    /** A copy of the metadata. */
    public synchronized Map<String, Object> metadata() {
        return Map.copyOf(metadata);
    }

    /**
     * Sets a metadata entry.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a blank key or a null value
     */
    public synchronized void putMetadata(String key, Object value) {
        if (key == null || key.isBlank() || value == null) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "metadata needs a key and a value");
        }
        metadata.put(key, value);
    }

    void selectTools(List<String> names) {
        this.selectedTools = List.copyOf(names);
    }

    void candidates(List<Candidate> values) {
        this.candidates = List.copyOf(values);
    }

    ExecutionLifecycle lifecycle() {
        return lifecycle;
    }

    @Override
    public String toString() {
        return "ExecutionContext[requestId=" + requestId + ", mode=" + mode + ", state=" + state().current() + "]";
    }
}
