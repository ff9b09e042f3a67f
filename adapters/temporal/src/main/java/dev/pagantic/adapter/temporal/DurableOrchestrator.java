package dev.pagantic.adapter.temporal;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowServiceException;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link SystemRequest}s durably on Temporal, or in process when no Temporal cluster is configured or reachable,
 * with the same results either way.
 *
 * <p>Each request becomes a {@link RequestWorkflow} whose workflow id is the request id. Every engine call and tool
 * call the orchestrator makes runs as its own activity (through orchestrate's interception SPI), retried according to
 * the failure taxonomy: codes that are retryable are retried with backoff, the others fail at once. A completed call
 * is recorded in the workflow history and never runs again: a worker that dies mid-plan is replaced by another that
 * replays the recorded calls and runs only the rest.
 *
 * <pre>{@code
 * DurableOrchestrator durable = DurableOrchestrator.builder()
 *         .orchestrator(Orchestrator.builder().engine(engine).planner(StaticPlanner.fromJson(plan)))
 *         .client(WorkflowClient.newInstance(WorkflowServiceStubs.newServiceStubs(
 *                 WorkflowServiceStubsOptions.newBuilder().setTarget("temporal:7233").build())))
 *         .taskQueue("pagantic")
 *         .build();
 * durable.registerWith(workerFactory.newWorker("pagantic"));   // on the worker processes
 * workerFactory.start();
 * SystemResponse response = durable.execute(request);
 * }</pre>
 *
 * <p>The orchestrator is built here, with the durable interceptor, and must be built the same way on every worker
 * and client of a task queue (same engines, tools, planner and settings): the recorded calls are replayed against it.
 */
public final class DurableOrchestrator implements AutoCloseable {

    /** The task queue used when none is given. */
    public static final String DEFAULT_TASK_QUEUE = "pagantic";

    private static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(DurableOrchestrator.class);

    private final Orchestrator orchestrator;
    private final ReplayInterceptor interceptor;
    private final ResultCodec codec;
    private final @Nullable WorkflowClient client;
    private final String taskQueue;
    private final ActivityOptions activityOptions;
    private final Duration workflowTimeout;
    private final Duration heartbeatTimeout;
    private final Duration fanOutWindow;
    private final List<InvocationActivitiesImpl> registered = new CopyOnWriteArrayList<>();

    private DurableOrchestrator(Builder b, Orchestrator orchestrator, ReplayInterceptor interceptor,
                                ResultCodec codec) {
        this.orchestrator = orchestrator;
        this.interceptor = interceptor;
        this.codec = codec;
        this.client = b.client;
        this.taskQueue = b.taskQueue;
        this.workflowTimeout = b.workflowTimeout;
        this.heartbeatTimeout = b.heartbeatTimeout();
        this.fanOutWindow = b.fanOutWindow;
        ActivityOptions.Builder activity = ActivityOptions.newBuilder();
        if (b.activityTaskQueue != null) {
            activity.setTaskQueue(b.activityTaskQueue);
        }
        this.activityOptions = activity
                .setStartToCloseTimeout(b.callTimeout)
                .setHeartbeatTimeout(heartbeatTimeout)
                .setRetryOptions(retryOptions(b.maximumAttempts, b.initialRetryInterval))
                .build();
    }

    /** A new builder. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The retry policy of every call: retryable error codes are retried with exponential backoff, up to
     * {@code maximumAttempts}; the codes the taxonomy marks as not retryable are never retried.
     */
    public static RetryOptions retryOptions(int maximumAttempts, Duration initialInterval) {
        List<String> doNotRetry = new ArrayList<>();
        for (ErrorCode code : ErrorCode.values()) {
            if (!code.retryable()) {
                doNotRetry.add(code.name());
            }
        }
        return RetryOptions.newBuilder()
                .setInitialInterval(initialInterval)
                .setBackoffCoefficient(2.0)
                .setMaximumAttempts(maximumAttempts)
                .setDoNotRetry(doNotRetry.toArray(String[]::new))
                .build();
    }

    /** Whether requests go to Temporal (a client is configured); without one every request runs in process. */
    public boolean isDurable() {
        return client != null;
    }

    /** The task queue workflows are submitted to and workers poll. */
    public String taskQueue() {
        return taskQueue;
    }

    /**
     * Registers the workflow and its activities with a worker polling {@link #taskQueue()}; the worker's factory
     * must then be started. Any number of workers (processes) may serve the same queue.
     */
    public void registerWith(Worker worker) {
        registerWorkflowWith(worker);
        registerActivitiesWith(worker);
    }

    /** Registers only the workflow (deterministic and light) with a worker polling {@link #taskQueue()}. */
    public void registerWorkflowWith(Worker worker) {
        Objects.requireNonNull(worker, "worker").registerWorkflowImplementationFactory(RequestWorkflow.class,
                () -> new RequestWorkflowImpl(activityOptions));
    }

    /**
     * Registers only the activities (the engine and tool calls) with a worker polling the activity task queue
     * ({@link Builder#activityTaskQueue}, else {@link #taskQueue()}): the workers that hold the models.
     */
    public void registerActivitiesWith(Worker worker) {
        Objects.requireNonNull(worker, "worker");
        InvocationActivitiesImpl activities = new InvocationActivitiesImpl(orchestrator, interceptor, codec,
                heartbeatTimeout, fanOutWindow);
        registered.add(activities);
        worker.registerActivitiesImplementations(activities);
    }

    /**
     * Runs the request: as a Temporal workflow when a client is configured (its workflow id is the request id, one is
     * generated when the request has none), else, or when the cluster cannot be reached, in process. Like
     * {@link Orchestrator#execute(SystemRequest)} it does not throw for a failed request: the response's error says
     * why.
     */
    public SystemResponse execute(SystemRequest request) {
        Objects.requireNonNull(request, "request");
        if (client == null) {
            return orchestrator.execute(request);
        }
        SystemRequest identified = request.requestId() == null
                ? request.toBuilder().requestId(UUID.randomUUID().toString()).build()
                : request;
        RequestWorkflow workflow = client.newWorkflowStub(RequestWorkflow.class, WorkflowOptions.newBuilder()
                .setWorkflowId(identified.requestId())
                .setTaskQueue(taskQueue)
                .setWorkflowExecutionTimeout(workflowTimeout)
                .build());
        try {
            WorkflowClient.start(workflow::run, FacadeJson.toJson(identified));
        } catch (RuntimeException e) {
            if (unreachable(e)) {
                LOG.warn("Temporal is unreachable ({}); running request {} in process", e.getMessage(),
                        identified.requestId());
                return orchestrator.execute(identified);
            }
            throw e;
        }
        DurableResult result;
        try {
            result = io.temporal.client.WorkflowStub.fromTyped(workflow).getResult(DurableResult.class);
        } catch (WorkflowException e) {
            return SystemResponse.failure(identified, errorOf(e));
        }
        return response(identified, result);
    }

    /**
     * Stops the heartbeats of this instance's activities and closes the orchestrator (and so its engines' sessions);
     * the Temporal client and the workers are the caller's to close. Calls still running here are from then on seen
     * by Temporal as dead once the heartbeat timeout passes, and retried elsewhere.
     */
    @Override
    public void close() {
        registered.forEach(InvocationActivitiesImpl::close);
        orchestrator.close();
    }

    /**
     * The final response, as the worker's last run computed it: decoded, not recomputed, so that nothing runs again
     * here (this process may hold no engines at all), whatever the mode.
     */
    private SystemResponse response(SystemRequest request, DurableResult result) {
        try {
            return (SystemResponse) codec.value(result.response());
        } catch (PaganticException | ClassCastException unreadable) {
            return SystemResponse.failure(request, SystemError.of(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                    "cannot read the durable result of request " + request.requestId() + ": "
                            + unreadable.getMessage()));
        }
    }

    private static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StatusRuntimeException grpc) {
                Status.Code code = grpc.getStatus().getCode();
                return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
            }
        }
        return e instanceof WorkflowServiceException && e.getCause() == null;
    }

    private static SystemError errorOf(WorkflowException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof ApplicationFailure app) {
                ErrorCode code = RequestWorkflowImpl.errorCode(app.getType());
                if (code != null) {
                    return SystemError.of(code, app.getOriginalMessage());
                }
            }
            if (t instanceof TimeoutFailure) {
                return SystemError.of(ErrorCode.CANCELLED_TIMEOUT, "durable execution timed out: " + t.getMessage());
            }
            if (t instanceof CanceledFailure || t instanceof TerminatedFailure) {
                return SystemError.of(ErrorCode.CANCELLED_SIGNAL, "durable execution stopped: " + t.getMessage());
            }
        }
        return SystemError.of(ErrorCode.INFERENCE_ENGINE_ERROR, "durable execution failed: " + e.getMessage());
    }

    /** Builds a {@link DurableOrchestrator}. */
    public static final class Builder {
        private Orchestrator.@Nullable Builder orchestrator;
        private @Nullable WorkflowClient client;
        private String taskQueue = DEFAULT_TASK_QUEUE;
        private @Nullable String activityTaskQueue;
        private Duration callTimeout = Duration.ofMinutes(10);
        private Duration workflowTimeout = Duration.ofHours(1);
        private Duration initialRetryInterval = Duration.ofSeconds(1);
        private int maximumAttempts = 5;
        private @Nullable Duration heartbeatTimeout; // null: the default
        private Duration fanOutWindow = Duration.ofMillis(50);

        private Builder() {
        }

        /**
         * The orchestrator's configuration (engines, tools, planner...); required. It is built here with the
         * durable interceptor in place of any interceptor it had.
         */
        public Builder orchestrator(Orchestrator.Builder value) {
            this.orchestrator = value;
            return this;
        }

        /** The Temporal client; without one every request runs in process. */
        public Builder client(WorkflowClient value) {
            this.client = value;
            return this;
        }

        /** The task queue; {@value #DEFAULT_TASK_QUEUE} by default. */
        public Builder taskQueue(String value) {
            this.taskQueue = value;
            return this;
        }

        /**
         * A separate task queue for the activities (engine and tool calls), so that the workers holding models can
         * differ from those running workflows; by default the activities use the workflow's task queue.
         */
        public Builder activityTaskQueue(String value) {
            this.activityTaskQueue = value;
            return this;
        }

        /** The start-to-close timeout of one engine or tool call (one activity attempt); 10 minutes by default. */
        public Builder callTimeout(Duration value) {
            this.callTimeout = value;
            return this;
        }

        /** The timeout of a whole request (the workflow execution); one hour by default. */
        public Builder workflowTimeout(Duration value) {
            this.workflowTimeout = value;
            return this;
        }

        /**
         * How long a call may go without a heartbeat before Temporal sees its worker as dead and retries it elsewhere;
         * by default 30 seconds or half the call timeout, whichever is shorter. Activities heartbeat several times per
         * timeout from a ticker while they run, so a long generation on a live worker is never cut by it (only by
         * {@link #callTimeout}); a worker that dies or is {@linkplain DurableOrchestrator#close() closed} stops
         * heartbeating and its calls are retried after this timeout rather than after the whole call timeout. Must be
         * shorter than the call timeout.
         */
        public Builder heartbeatTimeout(Duration value) {
            this.heartbeatTimeout = value;
            return this;
        }

        /**
         * How long a run that reached an unrecorded call on a replica's or voter's thread waits for its siblings to
         * reach theirs before it decides what to run; 50 ms by default, zero allowed. The calls found together run as
         * parallel activities. It bounds only how much parallelism is found: a late sibling runs in a later activity,
         * with the same result. Calls made on the orchestrator's own thread never wait.
         */
        public Builder fanOutWindow(Duration value) {
            this.fanOutWindow = value;
            return this;
        }

        /** The first retry's delay, doubled on each further retry; one second by default. */
        public Builder initialRetryInterval(Duration value) {
            this.initialRetryInterval = value;
            return this;
        }

        /** The attempts of one call, the first included, for retryable codes; 5 by default. */
        public Builder maximumAttempts(int value) {
            this.maximumAttempts = value;
            return this;
        }

        private Duration heartbeatTimeout() {
            if (heartbeatTimeout != null) {
                return heartbeatTimeout;
            }
            Duration half = callTimeout.dividedBy(2);
            return half.compareTo(DEFAULT_HEARTBEAT_TIMEOUT) < 0 ? half : DEFAULT_HEARTBEAT_TIMEOUT;
        }

        /**
         * Builds the durable orchestrator.
         *
         * @throws PaganticException {@code CONFIG_INVALID} when the orchestrator is missing, the task queue blank, a
         *                           duration not positive, the heartbeat timeout not shorter than the call timeout, the
         *                           fan-out window negative or the attempts below one
         */
        public DurableOrchestrator build() {
            if (orchestrator == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "orchestrator is required");
            }
            if (taskQueue == null || taskQueue.isBlank()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "taskQueue must not be blank");
            }
            if (activityTaskQueue != null && activityTaskQueue.isBlank()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "activityTaskQueue must not be blank");
            }
            for (Duration d : new Duration[] {callTimeout, workflowTimeout, initialRetryInterval}) {
                if (d == null || d.isZero() || d.isNegative()) {
                    throw PaganticException.of(ErrorCode.CONFIG_INVALID, "timeouts and intervals must be positive");
                }
            }
            if (heartbeatTimeout != null && (heartbeatTimeout.isZero() || heartbeatTimeout.isNegative()
                    || heartbeatTimeout.compareTo(callTimeout) >= 0)) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "heartbeatTimeout must be positive and shorter than callTimeout (" + callTimeout + ")");
            }
            if (fanOutWindow == null || fanOutWindow.isNegative()) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "fanOutWindow must not be negative");
            }
            if (maximumAttempts < 1) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "maximumAttempts must be at least 1");
            }
            ResultCodec codec = new ResultCodec();
            ReplayInterceptor interceptor = new ReplayInterceptor(codec);
            return new DurableOrchestrator(this, orchestrator.interceptor(interceptor).build(), interceptor, codec);
        }
    }
}
