package dev.pagantic.adapter.temporal;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link InvocationActivities} on an orchestrator built with the given {@link ReplayInterceptor}, heartbeating
 * while each activity runs.
 *
 * <p>Heartbeats come from a scheduled ticker, not from streamed tokens: a call that streams nothing for a long time
 * (a long prompt being read, an engine that does not stream, a tool) is alive all the same, and the ticker stops
 * exactly when the worker does ({@link #close()}, or the process dying), which is what the heartbeat timeout is there
 * to detect. A call that hangs in a live worker is bounded by the call timeout instead.
 */
final class InvocationActivitiesImpl implements InvocationActivities, AutoCloseable {

    /** The failure type of an attempt refused because an earlier attempt of its request still runs here. */
    static final String EARLIER_ATTEMPT_RUNNING = "EARLIER_ATTEMPT_RUNNING";

    /** How long a targeted run waits for its target after the orchestrator returned (a sibling ended the call). */
    private static final Duration TARGET_GRACE = Duration.ofSeconds(10);

    /** The most workflow runs whose journal a worker keeps (least recently used evicted). */
    private static final int MAX_CACHED_RUNS = 256;

    private static final Logger LOG = LoggerFactory.getLogger(InvocationActivitiesImpl.class);

    private final Orchestrator orchestrator;
    private final ReplayInterceptor interceptor;
    private final ResultCodec codec;
    private final Duration heartbeatInterval;
    private final Duration fanOutWindow;
    private final ScheduledExecutorService heartbeats;
    private final JournalCache journals = new JournalCache(MAX_CACHED_RUNS);

    InvocationActivitiesImpl(Orchestrator orchestrator, ReplayInterceptor interceptor, ResultCodec codec,
                             Duration heartbeatTimeout, Duration fanOutWindow) {
        this.orchestrator = orchestrator;
        this.interceptor = interceptor;
        this.codec = codec;
        // Several beats per timeout, so that one late tick does not time the call out; the SDK throttles what it
        // sends to the server to one beat per 80% of the timeout.
        this.heartbeatInterval = heartbeatTimeout.dividedBy(4);
        this.fanOutWindow = fanOutWindow;
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "pagantic-temporal-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public Advance advance(String requestJson, int known, List<JournalEntry> entries, @Nullable String target) {
        ActivityExecutionContext activity = activityContext();
        String run = activity == null ? null
                : activity.getInfo().getWorkflowId() + "/" + activity.getInfo().getRunId();
        List<JournalEntry> journal = journals.resolve(run, known, entries);
        ScheduledFuture<?> ticker = startHeartbeats(activity);
        try {
            Advance advance = run(FacadeJson.requestFromJson(requestJson), journal, target);
            if (advance.response() != null) {
                journals.forget(run);
            }
            return advance;
        } finally {
            if (ticker != null) {
                ticker.cancel(false);
            }
        }
    }

    /** Stops heartbeating: from now on Temporal sees this worker's running calls as dead once they time out. */
    @Override
    public void close() {
        heartbeats.shutdownNow();
    }

    private Advance run(SystemRequest request, List<JournalEntry> journal, @Nullable String target) {
        // Fanned-out calls of one request run side by side, on this worker too: each under its own request id.
        SystemRequest run = target == null ? request
                : request.toBuilder().requestId(request.requestId() + "@" + target).build();
        ReplayInterceptor.Session session = open(run, journal, target);
        // Cancelled once the outcome is known, before the session closes: the orchestrator may return while threads
        // it forked have not yet reached their calls (a redundant loop stops joining at the first abandoned
        // replica), and such a straggler, finding no session, must not run its call as if in process.
        Cancellation over = new Cancellation();
        SystemResponse response = null;
        RuntimeException thrown = null;
        try {
            try {
                response = orchestrator.execute(run, StreamHandler.NOOP, over);
            } catch (RuntimeException e) {
                // The orchestrator answers most failures with an error response, but some paths let the exception
                // that abandons the run (ReplayInterceptor.Suspended) through.
                thrown = e;
            }
            session.awaitOutcome(TARGET_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApplicationFailure.newFailureWithCause("interrupted", EARLIER_ATTEMPT_RUNNING, e);
        } finally {
            over.cancel("durable run over");
            interceptor.close(run.requestId(), session);
        }
        if (session.diverged() != null) {
            PaganticException diverged = session.diverged();
            throw ApplicationFailure.newNonRetryableFailureWithCause(diverged.getMessage(), diverged.code().name(),
                    diverged);
        }
        if (session.reported() != null) {
            return new Advance(null, session.reported(), null);
        }
        PaganticException failure = session.failure();
        if (failure != null) {
            // The type carries the failure taxonomy's code: the retry policy's doNotRetry list names the codes that
            // must not be retried, and a failure marked non-retryable stops retrying whatever its code. The detail
            // names the call, so that the workflow records the failure as that call's outcome.
            String key = session.running();
            throw failure.retryable()
                    ? ApplicationFailure.newFailureWithCause(failure.getMessage(), failure.code().name(), failure, key)
                    : ApplicationFailure.newNonRetryableFailureWithCause(failure.getMessage(), failure.code().name(),
                            failure, key);
        }
        if (session.bug() != null) {
            throw session.bug();
        }
        if (session.recorded() != null) {
            return new Advance(session.recorded(), null, null);
        }
        if (thrown != null) {
            throw thrown;
        }
        return new Advance(null, null, codec.record(null, ResultCodec.RESPONSE, "response", response));
    }

    /**
     * Opens this attempt's session. An earlier attempt of the same call that timed out may still be running on this
     * worker (a hung engine call): that is worth retrying once it ends, so it is reported as a retryable failure
     * whose type is not an error code (ORCHESTRATION_CONCURRENT_USE itself is never retried by the taxonomy).
     */
    private ReplayInterceptor.Session open(SystemRequest request, List<JournalEntry> journal,
                                           @Nullable String target) {
        try {
            return interceptor.open(request.requestId(), journal, target, fanOutWindow);
        } catch (PaganticException busy) {
            throw ApplicationFailure.newFailureWithCause(busy.getMessage(), EARLIER_ATTEMPT_RUNNING, busy);
        }
    }

    /** The running activity's context; null outside an activity (a direct call, in unit tests). */
    private static @Nullable ActivityExecutionContext activityContext() {
        try {
            return Activity.getExecutionContext();
        } catch (IllegalStateException notInAnActivity) {
            return null;
        }
    }

    /** Heartbeats this activity until cancelled; null outside an activity. */
    private @Nullable ScheduledFuture<?> startHeartbeats(@Nullable ActivityExecutionContext activity) {
        if (activity == null) {
            return null;
        }
        long every = Math.max(1, heartbeatInterval.toMillis());
        try {
            return heartbeats.scheduleAtFixedRate(() -> beat(activity), 0, every, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            return null; // this worker is closed: its calls are to be seen as dead
        }
    }

    private static void beat(ActivityExecutionContext activity) {
        try {
            activity.heartbeat(null);
        } catch (ActivityCompletionException over) {
            // Timed out, cancelled or gone on the server: this attempt's result no longer counts; an exception from
            // the task stops the ticker.
            LOG.debug("activity {} no longer accepts heartbeats: {}", activity.getInfo().getActivityId(),
                    over.toString());
            throw over;
        }
    }
}
