package dev.pagantic.tool;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Registration;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tool calls with timeouts, on threads that the executor owns; close it when the application shuts down. One
 * executor is meant to be shared by every loop of an application; the registry (or a whitelisted view of it) is passed
 * per call, so that each request sees its own tools.
 *
 * <h2>Threads</h2>
 * When the JVM offers virtual threads (Java 21 and later, detected at run time: the library is built for Java 17),
 * each isolated call runs on a new virtual thread (nothing to size, and an abandoned tool holds no platform thread);
 * else on a pool of at most {@code maxParallelism + maxAbandoned} daemon platform threads.
 * {@link Builder#virtualThreads(boolean) virtualThreads(false)} keeps platform threads on every JVM: choose it for
 * tools that may spin on the CPU ignoring interruption, since such a tool keeps the carrier thread under a virtual
 * thread busy, and the carriers are as many as the cores. The caller waits for a call's outcome in one place (its
 * timeout, its deadline and its cancellation together): a quick tool costs one hand-off each way. Each side of a
 * hand-off spins briefly before it parks ({@link Builder#spinWait(Duration)}, shortened while the other side's recent
 * answers came later than that): the caller waiting for the outcome, and an idle pool thread waiting for its next
 * call, so that a quick tool needs no operating-system wake-up when a core is free. A hung or slow tool costs its
 * caller one short spin; then it parks, and every timeout, cancellation and abandonment works as without it.
 *
 * <h2>Failures are results</h2>
 * {@link #execute} and {@link #executeAll} never throw for a tool-level failure: it becomes an error
 * {@link ToolResult} (content {@code "<CODE>: <message>"}, fed back so that the model can correct itself) inside a
 * {@link ToolExecution} that also carries the code and whether a retry is safe.
 * <ul>
 *   <li>{@code TOOL_NOT_FOUND}: no tool of that name, or one that the whitelisted view does not allow; the content
 *       lists the available tools.</li>
 *   <li>{@code TOOL_UNAVAILABLE}: the tool reports itself unavailable (the reason is shown); or the executor is
 *       saturated by abandoned threads, or closed.</li>
 *   <li>{@code TOOL_INVALID_ARGUMENTS}: the arguments do not match the tool's parameter schema; the tool does not
 *       run.</li>
 *   <li>{@code TOOL_EXECUTION_FAILED}: the tool threw (a {@link PaganticException} with a {@code TOOL_*} code keeps
 *       its code).</li>
 *   <li>{@code TOOL_TIMEOUT}: the tool ran past its timeout ({@link Tool#timeout()}, else the executor's default);
 *       its context is cancelled and its thread interrupted.</li>
 * </ul>
 * The caller's own cancellation or deadline is not a tool failure: the running tools are stopped the same way, and
 * the call throws {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT}.
 *
 * <h2>Abandoned threads</h2>
 * A tool that ignores both interruption and its context cannot be stopped in Java. After its timeout (and a short
 * grace for the interrupt to take effect) the executor returns {@code TOOL_TIMEOUT} and abandons the thread: the
 * caller is never blocked by it. Abandoned threads still running are counted ({@link #abandonedCount()}); the pool
 * has room for {@code maxParallelism + maxAbandoned} threads. When {@code maxAbandoned} threads are abandoned, new
 * calls fail fast with a {@code TOOL_UNAVAILABLE} result (retryable: capacity comes back as abandoned tools finish)
 * rather than piling up threads without bound. Calls admitted together before the cap was reached can still be
 * abandoned beyond it: each of those keeps its working slot until its thread ends, so the pool never holds more than
 * {@code maxParallelism + maxAbandoned} threads and new calls wait for a slot rather than for a thread.
 *
 * <h2>Parallel execution</h2>
 * {@link #executeAll} runs the calls of one model turn and returns their outcomes in call order. With
 * {@code maxParallelism > 1}, consecutive calls of parallel-safe tools ({@link SideEffect#NONE} or
 * {@link SideEffect#READ}) run concurrently, at most {@code maxParallelism} at a time across the whole executor; a
 * call of any other tool (write, external, unknown side effects) waits for the calls before it and runs alone, so
 * effects happen in the order the model asked for them.
 *
 * <h2>Inline tools</h2>
 * A tool that says it is {@link Tool#inline() inline} runs on the caller's thread, in call order (after the calls
 * before it when it is not parallel-safe), with the same outcomes and events. It costs no thread hand-off, which is
 * most of the executor's overhead for a quick tool; in exchange its timeout is only the deadline of its context: the
 * executor cannot abandon it.
 *
 * <p>Why this file is longer than 500 lines: admission (slots), waiting, stopping and abandoning a thread are one
 * concurrency protocol over the same private state (the slot semaphore, the abandoned count, each task's state); split
 * across classes, its invariants would have to be read in several places at once.
 *
 * <pre>{@code
 * try (ToolExecutor executor = ToolExecutor.builder()
 *         .defaultTimeout(Duration.ofSeconds(20)).maxParallelism(4).maxAbandoned(8)
 *         .observer(ToolObserver.of(log::toolStarted, log::toolEnded)).build()) {
 *     List<ToolExecution> done = executor.executeAll(ctx, registry.allowOnly(allowed), response.toolCalls());
 *     done.forEach(execution -> memory.append(execution.result().toMessage()));
 * }
 * }</pre>
 */
public final class ToolExecutor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ToolExecutor.class);

    /** The defaults of {@link Builder}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** The default of {@link Builder#maxParallelism(int)}. */
    public static final int DEFAULT_MAX_PARALLELISM = 4;
    /** The default of {@link Builder#maxAbandoned(int)}. */
    public static final int DEFAULT_MAX_ABANDONED = 8;
    /** The default of {@link Builder#interruptGrace(Duration)}. */
    public static final Duration DEFAULT_INTERRUPT_GRACE = Duration.ofMillis(100);
    /** The default of {@link Builder#spinWait(Duration)}. */
    public static final Duration DEFAULT_SPIN_WAIT = Duration.ofNanos(20_000);

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Duration defaultTimeout;
    private final int maxParallelism;
    private final int maxAbandoned;
    private final Duration interruptGrace;
    private final ToolObserver observer;
    private final boolean validateArguments;
    private final ExecutorService pool;
    private final boolean virtualThreads;
    private final long spinNanos;
    private final AdaptiveSpin callerSpin;
    private final ArgumentValidator.Cache argumentValidators = new ArgumentValidator.Cache(256);
    private final Semaphore slots;
    private final AtomicInteger abandoned = new AtomicInteger();
    private final AtomicLong abandonedTotal = new AtomicLong();
    private volatile boolean closed;

    private ToolExecutor(Builder builder) {
        this.defaultTimeout = builder.defaultTimeout;
        this.maxParallelism = builder.maxParallelism;
        this.maxAbandoned = builder.maxAbandoned;
        this.interruptGrace = builder.interruptGrace;
        this.observer = builder.observer;
        this.validateArguments = builder.validateArguments;
        this.slots = new Semaphore(maxParallelism);
        // spinning only pays where another core can end the tool meanwhile (as in the JDK's own synchronizers)
        this.spinNanos = Runtime.getRuntime().availableProcessors() > 1 ? builder.spinWait.toNanos() : 0;
        this.callerSpin = new AdaptiveSpin(spinNanos);
        String prefix = builder.threadNamePrefix;
        Optional<ExecutorService> virtual = builder.virtualThreads
                ? VirtualThreads.perTaskExecutor(prefix)
                : Optional.empty();
        this.virtualThreads = virtual.isPresent();
        this.pool = virtual.orElseGet(() -> new SpinningWorkers(maxParallelism + maxAbandoned, spinNanos, prefix));
    }

    /** Starts building an executor. */
    public static Builder builder() {
        return new Builder();
    }

    /** An executor with the default settings and no observer. */
    public static ToolExecutor create() {
        return builder().build();
    }

    // ------------------------------------------------------------------------------------------------------ public

    /**
     * Runs one call against the registry (or a whitelisted view of it) and returns its outcome; tool-level failures
     * are error results, never exceptions.
     *
     * @throws PaganticException {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT} when the caller's context is
     *                           cancelled or expires before or while the tool runs
     */
    public ToolExecution execute(CallContext ctx, ToolRegistry registry, ToolCall call) {
        return executeAll(ctx, registry, List.of(call)).get(0);
    }

    /** Runs one call under a background context; see {@link #execute(CallContext, ToolRegistry, ToolCall)}. */
    public ToolExecution execute(ToolRegistry registry, ToolCall call) {
        return execute(CallContext.background(), registry, call);
    }

    /**
     * Runs the calls of one model turn and returns their outcomes in call order, in parallel where the class comment
     * allows. Tool-level failures are error results; the caller's cancellation or deadline stops the running tools
     * and throws.
     *
     * @throws PaganticException {@code CANCELLED_SIGNAL} or {@code CANCELLED_TIMEOUT}
     */
    public List<ToolExecution> executeAll(CallContext ctx, ToolRegistry registry, List<ToolCall> calls) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(calls, "calls");
        ToolExecution[] results = new ToolExecution[calls.size()];
        List<Run> runs = new ArrayList<>(calls.size());
        List<Run> inFlight = new ArrayList<>();
        boolean parallel = maxParallelism > 1 && calls.size() > 1;
        try {
            for (int i = 0; i < calls.size(); i++) {
                ctx.throwIfDone();
                Run run = prepare(ctx, registry, Objects.requireNonNull(calls.get(i), "call"), i);
                runs.add(run);
                if (run.immediate != null) {
                    results[i] = end(run, run.immediate);
                    continue;
                }
                if (run.tool.inline()) {
                    if (!run.tool.safety().parallelSafe()) {
                        for (Run earlier : inFlight) {
                            results[earlier.index] = await(ctx, earlier);
                        }
                        inFlight.clear();
                    }
                    results[i] = runInline(ctx, run);
                    continue;
                }
                if (parallel && run.tool.safety().parallelSafe()) {
                    while (!slots.tryAcquire()) {
                        if (inFlight.isEmpty()) {
                            acquireSlot(ctx);
                            break;
                        }
                        Run oldest = inFlight.remove(0);
                        results[oldest.index] = await(ctx, oldest);
                    }
                    submit(run);
                    inFlight.add(run);
                } else {
                    for (Run earlier : inFlight) {
                        results[earlier.index] = await(ctx, earlier);
                    }
                    inFlight.clear();
                    acquireSlot(ctx);
                    submit(run);
                    results[i] = await(ctx, run);
                }
            }
            for (Run run : inFlight) {
                results[run.index] = await(ctx, run);
            }
            return List.of(results);
        } catch (RuntimeException | Error failure) {
            String code = failure instanceof PaganticException p ? p.code().name() : ErrorCode.CANCELLED_SIGNAL.name();
            for (Run run : runs) {
                if (!run.ended) {
                    if (run.task != null) {
                        stop(run.task, "the caller stopped: " + failure.getMessage());
                    }
                    emitEnd(run, false, code);
                }
            }
            throw failure;
        }
    }

    /** Runs the calls under a background context; see {@link #executeAll(CallContext, ToolRegistry, List)}. */
    public List<ToolExecution> executeAll(ToolRegistry registry, List<ToolCall> calls) {
        return executeAll(CallContext.background(), registry, calls);
    }

    /** The number of abandoned tool threads still running (they ignored their timeout). */
    public int abandonedCount() {
        return abandoned.get();
    }

    /** How many tool threads have been abandoned since the executor was built, including those that have ended. */
    public long abandonedTotal() {
        return abandonedTotal.get();
    }

    /** The number of tool calls running now and not abandoned. */
    public int runningCount() {
        return maxParallelism - slots.availablePermits();
    }

    /** The most tool calls that run at once. */
    public int maxParallelism() {
        return maxParallelism;
    }

    /** The number of abandoned threads at which new calls fail fast. */
    public int maxAbandoned() {
        return maxAbandoned;
    }

    /** The timeout of tools that do not declare their own. */
    public Duration defaultTimeout() {
        return defaultTimeout;
    }

    /** Whether isolated calls run on virtual threads (see the class comment), else on the pool of platform threads. */
    public boolean usesVirtualThreads() {
        return virtualThreads;
    }

    /** Whether {@link #close()} has been called. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops the pool: running tools are interrupted, later calls get {@code TOOL_UNAVAILABLE} results. Does not wait
     * for tools to end (the threads are daemons). Closing twice is harmless.
     */
    @Override
    public void close() {
        closed = true;
        pool.shutdownNow();
    }

    @Override
    public String toString() {
        return "ToolExecutor[maxParallelism=" + maxParallelism + ", maxAbandoned=" + maxAbandoned + ", abandoned="
                + abandoned.get() + ", defaultTimeout=" + defaultTimeout + ", virtualThreads=" + virtualThreads
                + ", spinWait=" + Duration.ofNanos(spinNanos) + "]";
    }

    // ------------------------------------------------------------------------------------------------ one call

    /** One call: its span, and either an outcome decided before running or the tool to run. */
    private final class Run {
        final int index;
        final ToolCall call;
        final CallContext toolCtx; // the tool's span, before its own cancellation and deadline
        final Instant startedAt;
        @Nullable Tool tool; // null: not found, or not allowed (then immediate is set)
        @Nullable ToolExecution immediate;
        @Nullable Task task;
        boolean ended;

        Run(int index, ToolCall call, CallContext toolCtx) {
            this.index = index;
            this.call = call;
            this.toolCtx = toolCtx;
            this.startedAt = toolCtx.now();
        }

        Duration elapsed() {
            Duration elapsed = Duration.between(startedAt, toolCtx.now());
            return elapsed.isNegative() ? Duration.ZERO : elapsed;
        }

        ToolExecution failure(ErrorCode code, String message, boolean retryable) {
            return new ToolExecution(call, ToolResult.error(call.id(), call.name(), code.name() + ": " + message),
                    Optional.of(code), retryable, elapsed(), toolCtx.correlation());
        }

        ToolExecution success(String content) {
            return new ToolExecution(call, ToolResult.success(call.id(), call.name(), content), Optional.empty(),
                    false, elapsed(), toolCtx.correlation());
        }
    }

    /** Resolves the tool and checks what can be checked before running; emits the start event. */
    private Run prepare(CallContext ctx, ToolRegistry registry, ToolCall call, int index) {
        Run run = new Run(index, call, ctx.childSpan(call.id()));
        if (observer != ToolObserver.NOOP) { // spares the arguments' hash when nobody listens
            emit(() -> observer.onToolStart(new ToolStartEvent(run.toolCtx.correlation(), call.name(), call.id(),
                    ArgsHash.of(call.arguments()), run.startedAt)));
        }
        LOG.debug("tool call {} '{}' starting", call.id(), call.name());
        Optional<Tool> found = registry.lookup(call.name());
        if (found.isEmpty()) {
            List<String> available = registry.availableNames();
            String why = registry.isHidden(call.name())
                    ? "tool '" + call.name() + "' is not allowed for this request"
                    : "no tool named '" + call.name() + "'";
            run.immediate = run.failure(ErrorCode.TOOL_NOT_FOUND, why + "; available tools: "
                    + (available.isEmpty() ? "none" : String.join(", ", available)), false);
            return run;
        }
        Tool tool = found.get();
        run.tool = tool;
        if (closed) {
            run.immediate = run.failure(ErrorCode.TOOL_UNAVAILABLE, "the tool executor is closed", false);
            return run;
        }
        Availability availability = ToolRegistry.availabilityOf(tool);
        if (!availability.available()) {
            run.immediate = run.failure(ErrorCode.TOOL_UNAVAILABLE,
                    "tool '" + call.name() + "' is unavailable: " + availability.reason(), true);
            return run;
        }
        if (validateArguments) {
            List<String> problems = argumentValidators.of(tool.definition().parameters()).problems(call.arguments());
            if (!problems.isEmpty()) {
                run.immediate = run.failure(ErrorCode.TOOL_INVALID_ARGUMENTS,
                        "invalid arguments for tool '" + call.name() + "': " + String.join("; ", problems), true);
                return run;
            }
        }
        int stuck = abandoned.get();
        if (stuck >= maxAbandoned) {
            LOG.warn("tool call {} '{}' refused: {} abandoned tool threads still running (cap {})", call.id(),
                    call.name(), stuck, maxAbandoned);
            run.immediate = run.failure(ErrorCode.TOOL_UNAVAILABLE, "the tool executor is saturated: " + stuck
                    + " earlier tool calls ignored their timeout and are still running (cap " + maxAbandoned + ")",
                    true);
        }
        return run;
    }

    /** Waits for a free slot, honouring the caller's cancellation and deadline. */
    private void acquireSlot(CallContext ctx) {
        try {
            while (!slots.tryAcquire(POLL_NANOS, TimeUnit.NANOSECONDS)) {
                ctx.throwIfDone();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw PaganticException.of(ErrorCode.CANCELLED_SIGNAL, "interrupted while waiting for a tool thread", e);
        }
    }

    /** Hands the run to the pool; the caller holds a slot for it. */
    private void submit(Run run) {
        Duration timeout = run.tool.timeout().orElse(defaultTimeout);
        Task task = new Task(run, timeout);
        run.task = task;
        try {
            task.future = pool.submit(task);
        } catch (RejectedExecutionException closedMeanwhile) {
            task.state.set(Task.DONE);
            slots.release();
            task.publish(null, PaganticException.of(ErrorCode.TOOL_UNAVAILABLE, "the tool executor is closed",
                    closedMeanwhile));
        }
    }

    /** Waits for the run's outcome within its timeout and the caller's deadline, and emits the end event. */
    private ToolExecution await(CallContext ctx, Run run) {
        Task task = run.task;
        long callerDeadline = ctx.remaining().map(ToolExecutor::deadlineNanos).orElse(Long.MAX_VALUE);
        task.waiter = Thread.currentThread();
        Registration registration = ctx.onCancel(task::callerCancelled);
        try {
            long toolDeadline = Long.MAX_VALUE; // known once the task has started
            long waitStart = System.nanoTime();
            long spinEnd = waitStart + callerSpin.nanos(); // a quick tool ends before a wake-up is needed
            while (!task.ended) {
                if (task.callerCancelled || Thread.currentThread().isInterrupted()) {
                    stop(task, "the caller was cancelled");
                    throw callerStopped(ctx);
                }
                long now = System.nanoTime();
                if (task.started) {
                    toolDeadline = saturatedAdd(task.startedAt, task.timeout);
                }
                if (now >= callerDeadline && callerDeadline <= toolDeadline) {
                    stop(task, "the caller's deadline passed");
                    throw callerStopped(ctx);
                }
                if (now >= toolDeadline) {
                    return timedOut(ctx, run);
                }
                if (now - spinEnd < 0) {
                    Thread.onSpinWait();
                    continue;
                }
                // not started yet: its timeout cannot end before now + timeout, when the wait is taken up again
                long wakeAt = Math.min(callerDeadline, task.started ? toolDeadline : saturatedAdd(now, task.timeout));
                LockSupport.parkNanos(this, wakeAt - now);
            }
            // how long the tool took to answer, not when this thread noticed: a late wake-up must not shorten the spin
            callerSpin.waited(task.endedAt - waitStart);
            return end(run, outcome(ctx, run));
        } finally {
            task.waiter = null;
            registration.close();
        }
    }

    /** Stops a task past its timeout (abandoning its thread if it ignores that) and returns the timeout outcome. */
    private ToolExecution timedOut(CallContext ctx, Run run) {
        Task task = run.task;
        if (task.ended) {
            return end(run, outcome(ctx, run));
        }
        boolean left = stop(task, "tool timeout of " + task.timeout + " exceeded");
        LOG.warn("tool call {} '{}' timed out after {}{}", run.call.id(), run.call.name(), task.timeout,
                left ? "; its thread ignored the interrupt and was abandoned" : "");
        return end(run, run.failure(ErrorCode.TOOL_TIMEOUT, "tool '" + run.call.name() + "' did not finish within "
                + task.timeout + " and was cancelled", run.tool.safety().idempotent()));
    }

    /** Runs an {@link Tool#inline() inline} tool on the caller's thread and emits the end event. */
    private ToolExecution runInline(CallContext ctx, Run run) {
        Duration timeout = run.tool.timeout().orElse(defaultTimeout);
        String content = null;
        Throwable thrown = null;
        try {
            content = run.tool.execute(run.toolCtx.withTimeout(timeout), run.call.arguments());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thrown = e;
        } catch (Throwable e) { // like a pooled tool's: everything is mapped to an outcome
            thrown = e;
        }
        return end(run, outcome(ctx, run, timeout, content, thrown)); // a rethrow is ended by executeAll
    }

    /** The outcome of an ended task as an execution; rethrows the caller's own cancellation. */
    private ToolExecution outcome(CallContext ctx, Run run) {
        return outcome(ctx, run, run.task.timeout, run.task.content, run.task.thrown);
    }

    /** What the tool returned or threw as an execution; rethrows the caller's own cancellation. */
    private ToolExecution outcome(CallContext ctx, Run run, Duration timeout, @Nullable String content,
                                  @Nullable Throwable failure) {
        if (failure == null) {
            return run.success(content == null ? "null" : content);
        }
        String name = run.call.name();
        boolean idempotent = run.tool.safety().idempotent();
        Throwable thrown = failure;
        while ((thrown instanceof ExecutionException || thrown instanceof CompletionException)
                && thrown.getCause() != null) {
            thrown = thrown.getCause();
        }
        if (thrown instanceof VirtualMachineError error) {
            throw error;
        }
        if (ctx.isDone() || thrown instanceof InterruptedException && Thread.currentThread().isInterrupted()) {
            throw callerStopped(ctx);
        }
        if (thrown instanceof PaganticException toolFailure) {
            ErrorCode code = toolFailure.code();
            if (code.category() == FailureCategory.TOOL) {
                boolean ran = code == ErrorCode.TOOL_EXECUTION_FAILED || code == ErrorCode.TOOL_TIMEOUT;
                return run.failure(code, toolFailure.description(), toolFailure.retryable() || ran && idempotent);
            }
            if (code == ErrorCode.CANCELLED_TIMEOUT) { // the tool's own deadline, seen by the tool first
                return run.failure(ErrorCode.TOOL_TIMEOUT, "tool '" + name + "' did not finish within "
                        + timeout + ": " + toolFailure.description(), idempotent);
            }
        }
        LOG.debug("tool call {} '{}' failed", run.call.id(), name, thrown);
        return run.failure(ErrorCode.TOOL_EXECUTION_FAILED, "tool '" + name + "' failed: " + describe(thrown),
                idempotent);
    }

    private static String describe(Throwable thrown) {
        if (thrown instanceof PaganticException failure) {
            return failure.getMessage();
        }
        String message = thrown.getMessage();
        return thrown.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    /** The caller's cancellation or deadline as the exception to throw. */
    private static PaganticException callerStopped(CallContext ctx) {
        try {
            ctx.throwIfDone();
        } catch (PaganticException stopped) {
            return stopped;
        }
        if (Thread.currentThread().isInterrupted()) {
            return PaganticException.builder(ErrorCode.CANCELLED_SIGNAL, "interrupted while a tool was running")
                    .detail("request_id", ctx.requestId()).build();
        }
        // The deadline passed by the monotonic clock used for waiting, though not (yet) by the context's clock.
        return PaganticException.builder(ErrorCode.CANCELLED_TIMEOUT, "deadline exceeded while a tool was running")
                .detail("request_id", ctx.requestId()).build();
    }

    /** Records the end of a run and emits its end event. */
    private ToolExecution end(Run run, ToolExecution execution) {
        emitEnd(run, execution.succeeded(), execution.errorCode().map(ErrorCode::name).orElse(""));
        return execution;
    }

    private void emitEnd(Run run, boolean success, String code) {
        run.ended = true;
        boolean observed = observer != ToolObserver.NOOP;
        if (!observed && !LOG.isDebugEnabled()) {
            return; // nobody to tell: spare the clock read and the log call's arguments
        }
        Instant now = run.toolCtx.now();
        long millis = Math.max(0, Duration.between(run.startedAt, now).toMillis());
        LOG.debug("tool call {} '{}' ended after {} ms{}", run.call.id(), run.call.name(), millis,
                success ? "" : " with " + code);
        if (observed) {
            emit(() -> observer.onToolEnd(new ToolEndEvent(run.toolCtx.correlation(), run.call.name(),
                    run.call.id(), millis, success, code, now)));
        }
    }

    private static void emit(Runnable delivery) {
        try {
            delivery.run();
        } catch (RuntimeException e) {
            LOG.warn("tool observer failed; the event is dropped", e);
        }
    }

    // ------------------------------------------------------------------------------------------------ the task

    /**
     * The work on the tool's thread, with its state shared with the waiting caller. The tool's thread publishes
     * {@link #started} and then {@link #ended} (volatile writes after the plain fields they guard) and unparks the
     * {@link #waiter}; the caller's cancellation unparks it too.
     */
    private final class Task implements Runnable {
        static final int QUEUED = 0;
        static final int RUNNING = 1;
        static final int ABANDONED = 2;
        static final int DONE = 3;

        final Run run;
        final Duration timeout;
        final Cancellation cancellation = new Cancellation();
        final CountDownLatch finished = new CountDownLatch(1);
        final AtomicInteger state = new AtomicInteger(QUEUED);
        long startedAt; // System.nanoTime(), published by started
        volatile boolean started;
        @Nullable String content; // the outcome, published by ended
        @Nullable Throwable thrown;
        long endedAt; // System.nanoTime(), published by ended
        volatile boolean ended;
        volatile boolean callerCancelled;
        volatile @Nullable Thread waiter;
        volatile @Nullable Future<?> future;
        boolean stopped; // by the caller's thread only
        volatile boolean keepsSlot; // abandoned beyond maxAbandoned: its slot is released when it ends

        Task(Run run, Duration timeout) {
            this.run = run;
            this.timeout = timeout;
        }

        @Override
        public void run() {
            if (!state.compareAndSet(QUEUED, RUNNING)) {
                finished.countDown();
                return; // stopped before it started
            }
            startedAt = System.nanoTime();
            started = true;
            String result = null;
            Throwable failure = null;
            try {
                CallContext ctx = run.toolCtx.withCancellation(cancellation).withTimeout(timeout);
                result = run.tool.execute(ctx, run.call.arguments());
            } catch (Throwable e) { // everything goes back to the caller, who decides
                failure = e;
            } finally {
                int previous = state.getAndSet(DONE);
                if (previous == RUNNING) {
                    slots.release(); // before the caller wakes: its next call finds the slot free
                } else if (previous == ABANDONED) {
                    if (keepsSlot) {
                        slots.release();
                    }
                    int left = abandoned.decrementAndGet();
                    LOG.info("abandoned tool call {} '{}' has finally ended; {} abandoned threads left",
                            run.call.id(), run.call.name(), left);
                }
                publish(result, failure);
                finished.countDown();
            }
        }

        /** Publishes the outcome and wakes the caller. */
        void publish(@Nullable String result, @Nullable Throwable failure) {
            content = result;
            thrown = failure;
            endedAt = System.nanoTime();
            ended = true;
            wake();
        }

        /** The caller's context was cancelled: wakes the caller, who stops the task. */
        void callerCancelled() {
            callerCancelled = true;
            wake();
        }

        private void wake() {
            Thread parked = waiter;
            if (parked != null) {
                LockSupport.unpark(parked);
            }
        }
    }

    /**
     * Stops a task: cancels its context, interrupts its thread, and waits the grace period for it to end. A task that
     * is still running after that is abandoned. Returns whether it was abandoned.
     */
    private boolean stop(Task task, String reason) {
        if (task.stopped) {
            return task.state.get() == Task.ABANDONED;
        }
        task.stopped = true;
        try {
            task.cancellation.cancel(reason);
        } catch (RuntimeException listenerFailed) {
            LOG.warn("a cancellation listener of tool call {} failed", task.run.call.id(), listenerFailed);
        }
        if (task.state.compareAndSet(Task.QUEUED, Task.DONE)) {
            slots.release();
            Future<?> future = task.future;
            if (future != null) {
                future.cancel(false);
            }
            return false;
        }
        Future<?> future = task.future;
        if (future != null) {
            future.cancel(true); // interrupts the thread only while it runs this task
        }
        try {
            if (task.finished.await(interruptGrace.toNanos(), TimeUnit.NANOSECONDS)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // decided before the state changes, so that a task ending at once sees whether it still holds its slot
        boolean roomLeft = abandoned.incrementAndGet() <= maxAbandoned;
        task.keepsSlot = !roomLeft; // no room for abandoned threads left: it holds its working slot until it ends
        if (task.state.compareAndSet(Task.RUNNING, Task.ABANDONED)) {
            abandonedTotal.incrementAndGet();
            if (roomLeft) {
                slots.release(); // its thread moves to the pool's room for abandoned threads
            }
            return true;
        }
        task.keepsSlot = false;
        abandoned.decrementAndGet();
        return false;
    }

    // ------------------------------------------------------------------------------------------------ waiting

    private static long deadlineNanos(Duration remaining) {
        return saturatedAdd(System.nanoTime(), remaining);
    }

    private static long saturatedAdd(long nanos, Duration duration) {
        long add;
        try {
            add = duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE - 1;
        }
        long sum = nanos + add;
        return ((nanos ^ sum) & (add ^ sum)) < 0 || sum == Long.MAX_VALUE ? Long.MAX_VALUE - 1 : sum;
    }

    // ------------------------------------------------------------------------------------------------ builder

    /** Builds a {@link ToolExecutor}; validated at {@link #build()} with {@code CONFIG_INVALID}. */
    public static final class Builder {
        private Duration defaultTimeout = DEFAULT_TIMEOUT;
        private int maxParallelism = DEFAULT_MAX_PARALLELISM;
        private int maxAbandoned = DEFAULT_MAX_ABANDONED;
        private Duration interruptGrace = DEFAULT_INTERRUPT_GRACE;
        private ToolObserver observer = ToolObserver.NOOP;
        private boolean validateArguments = true;
        private String threadNamePrefix = "pagantic-tool";
        private boolean virtualThreads = true;
        private Duration spinWait = DEFAULT_SPIN_WAIT;

        private Builder() {
        }

        /** The timeout of tools that do not declare their own; 30 seconds by default. */
        public Builder defaultTimeout(Duration timeout) {
            this.defaultTimeout = timeout;
            return this;
        }

        /** The most tool calls that run at once across the executor; 4 by default; 1 makes every turn sequential. */
        public Builder maxParallelism(int max) {
            this.maxParallelism = max;
            return this;
        }

        /** The number of abandoned threads at which new calls fail fast with {@code TOOL_UNAVAILABLE}; 8 by default. */
        public Builder maxAbandoned(int max) {
            this.maxAbandoned = max;
            return this;
        }

        /**
         * How long a timed-out tool gets to react to its interrupt before its thread is counted as abandoned; 100 ms
         * by default. The caller waits this long at most, once per timed-out call.
         */
        public Builder interruptGrace(Duration grace) {
            this.interruptGrace = grace;
            return this;
        }

        /** Receives the start and end of every call; {@link ToolObserver#NOOP} by default. */
        public Builder observer(ToolObserver value) {
            this.observer = value;
            return this;
        }

        /**
         * Whether arguments are checked against each tool's parameter schema before it runs ({@code true} by
         * default); a mismatch is a {@code TOOL_INVALID_ARGUMENTS} result.
         */
        public Builder validateArguments(boolean validate) {
            this.validateArguments = validate;
            return this;
        }

        /** The prefix of the pool threads' names; {@code pagantic-tool} by default. */
        public Builder threadNamePrefix(String prefix) {
            this.threadNamePrefix = prefix;
            return this;
        }

        /**
         * Whether isolated calls run on virtual threads when the JVM offers them (Java 21 and later); {@code true} by
         * default. {@code false} keeps the pool of platform threads on every JVM (see the class comment).
         */
        public Builder virtualThreads(boolean value) {
            this.virtualThreads = value;
            return this;
        }

        /**
         * How long a thread spins before it parks when it waits for the other side of a hand-off: the caller for a
         * tool's outcome, an idle pool thread for its next call; 20 µs by default. A quick tool then costs no
         * operating-system wake-up on either side, for at most this much CPU time per wait; a slow or hung tool
         * costs the caller at most this spin, then it parks as before (and after answers later than this, the next
         * spins are shorter, down to a sixteenth). {@link Duration#ZERO} parks at once (the choice
         * for machines where CPU time is scarcer than latency); on a single-CPU machine nothing spins.
         */
        public Builder spinWait(Duration spin) {
            this.spinWait = spin;
            return this;
        }

        /** The executor, which owns its threads: close it. */
        public ToolExecutor build() {
            check(defaultTimeout != null && !defaultTimeout.isNegative() && !defaultTimeout.isZero(),
                    "defaultTimeout must be positive: " + defaultTimeout);
            check(maxParallelism >= 1, "maxParallelism must be at least 1: " + maxParallelism);
            check(maxAbandoned >= 1, "maxAbandoned must be at least 1: " + maxAbandoned);
            check((long) maxParallelism + maxAbandoned <= 10_000, "maxParallelism + maxAbandoned must not exceed "
                    + "10000 threads");
            check(interruptGrace != null && !interruptGrace.isNegative(),
                    "interruptGrace must not be negative: " + interruptGrace);
            check(spinWait != null && !spinWait.isNegative() && spinWait.compareTo(Duration.ofMillis(1)) <= 0,
                    "spinWait must be between 0 and 1 ms: " + spinWait);
            check(observer != null, "observer must not be null (use ToolObserver.NOOP)");
            check(threadNamePrefix != null && !threadNamePrefix.isBlank(), "threadNamePrefix must not be blank");
            return new ToolExecutor(this);
        }

        private static void check(boolean condition, String message) {
            if (!condition) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid tool executor: " + message);
            }
        }
    }
}
