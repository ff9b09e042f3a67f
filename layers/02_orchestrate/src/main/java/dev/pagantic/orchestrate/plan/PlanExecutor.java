package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.internal.Phases;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import dev.pagantic.orchestrate.lifecycle.PatternPath;
import dev.pagantic.orchestrate.lifecycle.TransitionListener;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.validate.RetryOutcome;
import dev.pagantic.validate.RetryPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Runs an {@link ExecutionPlan}: each step goes to the {@link StepHandler} registered for its {@link StepType}, and
 * the output of one stage feeds the next. The executor runs plans, it never makes them (a Planner does, or a person).
 *
 * <h2>Order of work</h2>
 * <ol>
 *   <li>The lifecycle starts in INIT on the {@link PatternPath#PLAN_EXECUTOR} path. When the plan carries a
 *       {@link PlanTrace} (a planner made it) the executor passes through PLAN, with the planner's id and rationale as
 *       the reason; a hand-written plan (no trace) goes straight to PREPARE.</li>
 *   <li>PREPARE: the {@link PlanPolicy} checks the plan, including that a handler is registered for every step type
 *       ({@link PlanPolicy#check(ExecutionPlan, java.util.Collection)}). A violation is returned as the result's error
 *       ({@code CONFIG_INVALID} with the rule in its details) and no step runs.</li>
 *   <li>EXECUTE: stages run in order. Before each step the caller's context is checked: a cancelled or expired
 *       context stops the run with the steps completed so far and a {@code CANCELLED_*} error. Each step runs under
 *       {@link PlanPolicy#stepContext(CallContext)} (the per-step timeout) and through the {@link Interceptor} as an
 *       {@link InvocationKind#PLAN_STEP} invocation named after the step (once per attempt), in a child span caused
 *       by the step's name, and recorded as a {@code step} event with its {@code step_name}. Every completed step is
 *       recorded with {@link ExecutionLifecycle#stepCompleted(String)}.</li>
 *   <li>VALIDATE: every step produced an output; then COMPLETE. A failure ends the lifecycle in ERROR, a cancellation
 *       of the caller's context in CANCELLED. A step past its own per-step timeout fails with
 *       {@code CANCELLED_TIMEOUT} but ends the lifecycle in ERROR, as the seed says: the step was cancelled, the
 *       request was not.</li>
 * </ol>
 *
 * <h2>Auto-chaining</h2>
 * A step without input receives the previous stage's output: the previous step's output after a single step, or a
 * {@link StepData.Group GROUP} of the group's outputs in plan order after a parallel group. A step with an explicit
 * input keeps it. The first step of a plan without input reaches its handler without input (built-in handlers then
 * fail with {@code ORCHESTRATION_STEP_MISMATCH}).
 *
 * <h2>Parallel groups</h2>
 * Without an {@link Builder#executor(Executor) executor} the steps of a parallel group run one after another in plan
 * order, on the calling thread (deterministic, and what a single local GPU wants). With an executor they run
 * concurrently on it; the executor waits for every member, and their outputs are collected in plan order whatever
 * order they finished in. Members that completed are kept even when a sibling failed; the error reported is the first
 * failure in plan order.
 *
 * <h2>Failures</h2>
 * <ul>
 *   <li>A handler that returns a step without output, or a step with another name or type, fails the step with
 *       {@code ORCHESTRATION_STEP_MISMATCH}.</li>
 *   <li>A handler that throws a {@link PaganticException} fails the step with that exception unchanged.</li>
 *   <li>A handler that throws any other {@link RuntimeException} breaks the step contract: it is wrapped in a
 *       non-retryable {@code ORCHESTRATION_STEP_MISMATCH} with the original as cause and {@code step},
 *       {@code step_type} and {@code exception} details.</li>
 *   <li>With a {@link Builder#retryPolicy(RetryPolicy) retry policy}, a step that fails with a retryable
 *       {@link FailureCategory#CONSTRAINT constraint} or {@link FailureCategory#VALIDATION validation} failure is
 *       run again as the policy allows (its back-off, its sleeper, the caller's deadline); each retry is the
 *       lifecycle's
 *       EXECUTE &rarr; VALIDATE &rarr; EXECUTE cycle with the attempt number incremented. Other failures are never
 *       retried here (engine-level retries belong to the engine). Without a policy nothing is retried.</li>
 * </ul>
 * <h2>Plan events</h2>
 * With a {@link Builder#planEventListener(PlanEventListener) plan event listener}, a run reports
 * {@link PlanEvent.PlanCreated plan_created} (step count and names) once the plan passed its policy check (a refused
 * plan reports nothing), then {@link PlanEvent.PlanStepStart plan_step_start} before each step and
 * {@link PlanEvent.PlanStepEnd plan_step_end} after it (once per step, whatever its retries: a text summary of the
 * output, or the error). Indexes count the steps of the current plan in plan order from 0, group members included.
 * Steps that never start (after a failure, or a cancellation) report nothing.
 *
 * <h2>Replanning</h2>
 * With a {@link Builder#replanner(Replanner) replanner}, a step that fails (after its retries; never a cancellation
 * or a policy violation) is handed to it with its error, the completed steps and the steps that had not run. A
 * non-empty answer replaces every step that had not run; the completed steps plus the revision are checked against the
 * {@link PlanPolicy} first. An accepted revision is recorded as a {@link PlanTrace} in
 * {@link PlanResult#revisions()} (the replanner's {@link Replanner#id() id}, a rationale naming the failed step and
 * its error, the revised step count), reported as a new {@code plan_created} (completed names then revised names), and
 * runs linearly, auto-chained from the last completed stage's output. A refused revision ends the run with the policy's
 * {@code CONFIG_INVALID} (the step's failure attached as suppressed, {@link PlanResult#failedStep()} naming the failed
 * step); an empty answer, or a replanner that throws (its exception attached to the step's failure as suppressed),
 * lets the failure stand. At most {@link Builder#maxReplans(int) maxReplans} revisions
 * (default {@value #DEFAULT_MAX_REPLANS}) are accepted per run. The lifecycle stays in EXECUTE across a revision.
 *
 * {@link #execute} never throws for a step's failure: the error is in the {@link PlanResult}, next to the completed
 * steps. {@link #executeOrThrow} throws it instead.
 *
 * <p>Immutable and thread-safe; one executor can run many plans concurrently.
 */
public final class PlanExecutor {

    /** The default of {@link Builder#maxReplans(int)}. */
    public static final int DEFAULT_MAX_REPLANS = 3;

    final Map<StepType, StepHandler> handlers;
    final PlanPolicy policy;
    final Interceptor interceptor;
    final Optional<RetryPolicy> retryPolicy;
    final TransitionListener listener;
    final Optional<Executor> executor;
    final EventLog eventLog;
    final PlanEventListener planListener; // null: none
    final Replanner replanner; // null: no replanning
    final int maxReplans;

    private PlanExecutor(Builder builder) {
        this.handlers = Collections.unmodifiableMap(new LinkedHashMap<>(builder.handlers));
        this.policy = builder.policy;
        this.interceptor = builder.interceptor;
        this.retryPolicy = Optional.ofNullable(builder.retryPolicy);
        this.listener = builder.listener;
        this.executor = Optional.ofNullable(builder.executor);
        this.eventLog = builder.eventLog;
        this.planListener = builder.planListener;
        this.replanner = builder.replanner;
        this.maxReplans = builder.maxReplans;
    }

    /** Starts building an executor. */
    public static Builder builder() {
        return new Builder();
    }

    /** An executor with these handlers and every other setting at its default. */
    public static PlanExecutor of(Map<StepType, StepHandler> handlers) {
        return builder().handlers(handlers).build();
    }

    /** The registered handlers by step type. */
    public Map<StepType, StepHandler> handlers() {
        return handlers;
    }

    /** The policy every plan is checked against. */
    public PlanPolicy policy() {
        return policy;
    }

    /**
     * Runs the plan and returns what completed, with the error that stopped it if any. Never throws for a failed
     * step, a policy violation or a cancellation: they are the result's {@link PlanResult#error() error}.
     *
     * @param ctx  the caller's context: cancellation and deadline are checked before each step
     * @param plan the plan to run
     * @return the completed steps in plan order, and the error if the run stopped early
     */
    public PlanResult execute(CallContext ctx, ExecutionPlan plan) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(plan, "plan");
        return new PlanRun(this, ctx, plan, ExecutionLifecycle.start(ctx, PatternPath.PLAN_EXECUTOR, listener)).run();
    }

    /**
     * Runs the plan like {@link #execute(CallContext, ExecutionPlan)}, driving a lifecycle the caller started (the
     * facade, which enters PLAN itself while its planner works) instead of one of its own.
     *
     * @param lifecycle a lifecycle on the {@link PatternPath#PLAN_EXECUTOR} path, in INIT or PLAN
     * @throws PaganticException {@code CONFIG_INVALID} when the lifecycle is on another path or past PLAN
     */
    public PlanResult execute(CallContext ctx, ExecutionPlan plan, ExecutionLifecycle lifecycle) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(plan, "plan");
        Phases.requireStartable(Optional.of(lifecycle));
        if (lifecycle.path() != PatternPath.PLAN_EXECUTOR) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a plan runs on the PLAN_EXECUTOR lifecycle path, not "
                    + lifecycle.path());
        }
        return new PlanRun(this, ctx, plan, lifecycle).run();
    }

    /**
     * Runs the plan and returns its result when every step completed.
     *
     * @throws PaganticException the error that stopped the run (the completed steps are lost to the caller; use
     *                           {@link #execute} to keep them)
     */
    public PlanResult executeOrThrow(CallContext ctx, ExecutionPlan plan) {
        return execute(ctx, plan).orElseThrow();
    }

    static boolean retriedHere(PaganticException failure) {
        return failure.category() == FailureCategory.CONSTRAINT || failure.category() == FailureCategory.VALIDATION;
    }

    static Optional<String> stepDetail(PaganticException violation) {
        Object step = violation.details().get("step");
        return step instanceof String name ? Optional.of(name) : Optional.empty();
    }

    static PaganticException wrap(Step step, Throwable thrown) {
        if (thrown instanceof PaganticException pagantic) {
            return pagantic;
        }
        return PaganticException.builder(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                        "the handler for step '" + step.name() + "' (" + step.type() + ") failed unexpectedly: "
                                + thrown)
                .cause(thrown)
                .detail("step", step.name())
                .detail("step_type", step.type().name())
                .detail("exception", thrown.getClass().getName())
                .retryable(false)
                .build();
    }

    static PaganticException mismatch(Step step, String message) {
        return PaganticException.builder(ErrorCode.ORCHESTRATION_STEP_MISMATCH, message)
                .detail("step", step.name())
                .detail("step_type", step.type().name())
                .build();
    }

    /** A short text summary of a step's output, for {@link PlanEvent.PlanStepEnd}. */
    public static String summary(StepOutput output) {
        String text = switch (output.kind()) {
            case TEXT -> output.text();
            case RESULT -> output.result().content();
            default -> output.kind().wireName() + ": " + output;
        };
        return text.length() <= SUMMARY_LIMIT ? text : text.substring(0, SUMMARY_LIMIT) + "...";
    }

    private static final int SUMMARY_LIMIT = 200;

    /** Builds a {@link PlanExecutor}. */
    public static final class Builder {
        private final Map<StepType, StepHandler> handlers = new LinkedHashMap<>();
        private PlanPolicy policy = PlanPolicy.defaults();
        private Interceptor interceptor = Interceptor.NONE;
        private RetryPolicy retryPolicy;
        private TransitionListener listener = TransitionListener.NOOP;
        private Executor executor;
        private EventLog eventLog = EventLog.noOp();
        private PlanEventListener planListener;
        private Replanner replanner;
        private int maxReplans = DEFAULT_MAX_REPLANS;

        private Builder() {
        }

        /** Registers a handler for a step type (built-in or custom), replacing any earlier one for that type. */
        public Builder handler(StepType type, StepHandler handler) {
            handlers.put(requireNonNull(type, "step type"), requireNonNull(handler, "handler"));
            return this;
        }

        /** Registers every handler of the map (see {@link #handler}). */
        public Builder handlers(Map<StepType, StepHandler> map) {
            requireNonNull(map, "handlers").forEach(this::handler);
            return this;
        }

        /** The policy plans are checked against; default {@link PlanPolicy#defaults()}. */
        public Builder policy(PlanPolicy value) {
            this.policy = requireNonNull(value, "policy");
            return this;
        }

        /** The interceptor every step attempt passes through; default {@link Interceptor#NONE}. */
        public Builder interceptor(Interceptor value) {
            this.interceptor = requireNonNull(value, "interceptor");
            return this;
        }

        /**
         * The per-step retry policy for retryable constraint and validation failures; default none (no retries).
         */
        public Builder retryPolicy(RetryPolicy value) {
            this.retryPolicy = requireNonNull(value, "retryPolicy");
            return this;
        }

        /** Receives every lifecycle transition; default {@link TransitionListener#NOOP}. */
        public Builder transitionListener(TransitionListener value) {
            this.listener = requireNonNull(value, "transitionListener");
            return this;
        }

        /**
         * Runs the steps of parallel groups concurrently on this executor. Default: none, and the steps of a group run
         * one after another on the calling thread, in plan order. The executor is not owned: it is never shut down.
         */
        public Builder executor(Executor value) {
            this.executor = requireNonNull(value, "executor");
            return this;
        }

        /** Where the {@code step} events go (one per step attempt); default a no-op log. */
        public Builder eventLog(EventLog value) {
            this.eventLog = requireNonNull(value, "eventLog");
            return this;
        }

        /** Receives the {@link PlanEvent}s of every run (plan_created, plan_step_start, plan_step_end); default none.
        * */
        public Builder planEventListener(PlanEventListener value) {
            this.planListener = requireNonNull(value, "planEventListener");
            return this;
        }

        /**
         * Revises the remaining steps when a step fails (see the class comment, "Replanning"); default none: a failed
         * step ends the run.
         */
        public Builder replanner(Replanner value) {
            this.replanner = requireNonNull(value, "replanner");
            return this;
        }

        /** The most accepted revisions per run; default {@value PlanExecutor#DEFAULT_MAX_REPLANS}; 0 disables. */
        public Builder maxReplans(int value) {
            require(value >= 0, "maxReplans must not be negative: " + value);
            this.maxReplans = value;
            return this;
        }

        /** Builds the executor. */
        public PlanExecutor build() {
            return new PlanExecutor(this);
        }
    }
}
