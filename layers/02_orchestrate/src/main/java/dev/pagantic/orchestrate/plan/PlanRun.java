package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.observe.Event;
import dev.pagantic.orchestrate.internal.Timing;
import dev.pagantic.orchestrate.lifecycle.ExecutionLifecycle;
import dev.pagantic.orchestrate.lifecycle.LifecycleState;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.validate.RetryOutcome;
import dev.pagantic.validate.RetryPolicy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/** One execution of one plan by a {@link PlanExecutor}: its stages, steps, retries, replanning and events. */
final class PlanRun {
    private final PlanExecutor owner;
    private final CallContext ctx;
    private final ExecutionPlan plan;
    private final ExecutionLifecycle lifecycle;
    private final List<Step> completed = new ArrayList<>();
    private final List<PlanTrace> revisions = new ArrayList<>();
    private int stepCount;

    PlanRun(PlanExecutor owner, CallContext ctx, ExecutionPlan plan, ExecutionLifecycle lifecycle) {
        this.owner = owner;
        this.ctx = ctx;
        this.plan = plan;
        this.lifecycle = lifecycle;
    }

    PlanResult run() {
        plan.trace().filter(trace -> lifecycle.state().current() == LifecycleState.INIT)
                .ifPresent(trace -> lifecycle.plan("plan from planner '" + trace.plannerId() + "' ("
                + trace.stepCount() + " steps): " + trace.rationale()));
        lifecycle.prepare("checking " + plan.stepCount() + " steps against the plan owner.policy");
        try {
            owner.policy.check(plan, owner.handlers.keySet());
        } catch (PaganticException violation) {
            return fail(violation, PlanExecutor.stepDetail(violation));
        }
        List<ExecutionPlan.Stage> stages = new ArrayList<>(plan.stages());
        stepCount = plan.stepCount();
        emit(new PlanEvent.PlanCreated(stepCount, plan.steps().stream().map(Step::name).toList()));
        lifecycle.execute("running " + plan.stepCount() + " steps in " + plan.stages().size() + " stages");
        Optional<StepOutput> previous = Optional.empty();
        int firstIndex = 0;
        for (int s = 0; s < stages.size(); s++) {
            ExecutionPlan.Stage stage = stages.get(s);
            List<Outcome> outcomes = stage.isParallel() && owner.executor.isPresent()
                    ? runConcurrently(stage.steps(), previous, firstIndex)
                    : runSequentially(stage.steps(), previous, firstIndex);
            Optional<Failure> firstFailure = Optional.empty();
            List<StepOutput> outputs = new ArrayList<>();
            for (Outcome outcome : outcomes) {
                if (outcome.step != null) {
                    completed.add(outcome.step);
                    outputs.add(outcome.step.requireOutput());
                } else if (firstFailure.isEmpty() && outcome.failure != null) {
                    firstFailure = Optional.of(outcome.failure);
                }
            }
            if (firstFailure.isPresent()) {
                Failure failure = firstFailure.get();
                List<Step> remaining = new ArrayList<>();
                stages.subList(s + 1, stages.size()).forEach(later -> remaining.addAll(later.steps()));
                Optional<List<Step>> revised;
                try {
                    revised = replan(failure, remaining);
                } catch (PaganticException refused) {
                    return fail(refused, Optional.of(failure.stepName));
                }
                if (revised.isEmpty()) {
                    return fail(failure.error, Optional.of(failure.stepName));
                }
                // the revision replaces every later stage; it runs linearly after what completed
                stages.subList(s + 1, stages.size()).clear();
                revised.get().forEach(step -> stages.add(ExecutionPlan.Stage.of(step)));
                firstIndex = completed.size();
                stepCount = completed.size() + revised.get().size();
                if (!outputs.isEmpty() && stage.isParallel()) {
                    previous = Optional.of(StepOutput.group(outputs));
                }
                continue;
            }
            previous = Optional.of(stage.isParallel() ? StepOutput.group(outputs) : outputs.get(0));
            firstIndex += stage.steps().size();
        }
        lifecycle.validate("all " + completed.size() + " steps produced an output");
        lifecycle.complete("plan completed: " + completed.size() + " steps");
        return new PlanResult(completed, Optional.empty(), Optional.empty(), usage(), revisions);
    }

    /**
     * Asks the owner.replanner for the rest of the plan after a failure; empty to let the failure stand.
     *
     * @throws PaganticException the owner.policy violation when the revision is refused
     */
    private Optional<List<Step>> replan(Failure failure, List<Step> remaining) {
        PaganticException error = failure.error;
        if (owner.replanner == null || revisions.size() >= owner.maxReplans
                || error.category() == FailureCategory.CANCELLATION) {
            return Optional.empty();
        }
        List<Step> revised;
        try {
            revised = owner.replanner.replan(failure.step, error, List.copyOf(completed), List.copyOf(remaining));
        } catch (RuntimeException replannerFailure) {
            // the owner.replanner could not help: the step's failure stands, with the owner.replanner's attached
            error.addSuppressed(replannerFailure);
            return Optional.empty();
        }
        if (revised == null || revised.isEmpty()) {
            return Optional.empty();
        }
        List<Step> proposed = new ArrayList<>(completed.size() + revised.size());
        completed.forEach(step -> proposed.add(Step.of(step.name(), step.type())));
        proposed.addAll(revised);
        try {
            owner.policy.check(ExecutionPlan.of(proposed), owner.handlers.keySet());
        } catch (PaganticException violation) {
            violation.addSuppressed(error); // the failure that asked for the refused revision
            throw violation;
        }
        revisions.add(new PlanTrace(owner.replanner.id(), "replanned after step '" + failure.stepName + "' failed ("
                + error.code() + ": " + error.description() + "): " + revised.size() + " step(s) replace "
                + remaining.size() + " remaining", ctx.now(), revised.size()));
        emit(new PlanEvent.PlanCreated(proposed.size(), proposed.stream().map(Step::name).toList()));
        return Optional.of(List.copyOf(revised));
    }

    private void emit(PlanEvent event) {
        if (owner.planListener != null) {
            synchronized (owner.planListener) {
                owner.planListener.onEvent(event);
            }
        }
    }

    private List<Outcome> runSequentially(List<Step> steps, Optional<StepOutput> previous, int firstIndex) {
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Outcome outcome = runStep(steps.get(i), previous, firstIndex + i);
            outcomes.add(outcome);
            if (outcome.failure != null) {
                break; // a sequential group stops at its first failure: later members never start
            }
        }
        return outcomes;
    }

    private List<Outcome> runConcurrently(List<Step> steps, Optional<StepOutput> previous, int firstIndex) {
        Executor pool = owner.executor.orElseThrow();
        List<CompletableFuture<Outcome>> futures = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            int index = firstIndex + i;
            futures.add(CompletableFuture.supplyAsync(() -> runStep(step, previous, index), pool));
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            outcomes.add(await(futures.get(i), steps.get(i)));
        }
        return outcomes;
    }

    private Outcome await(CompletableFuture<Outcome> future, Step step) {
        try {
            return future.join();
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return Outcome.failed(step, PlanExecutor.wrap(step, cause));
        }
    }

    /** Runs one step, with its retries and its events; never throws for the step's own failure. */
    private Outcome runStep(Step planned, Optional<StepOutput> previous, int index) {
        Step step = planned.hasInput() || previous.isEmpty()
                ? planned : planned.withInput(previous.get().toInput());
        try {
            ctx.throwIfDone();
        } catch (PaganticException stopped) {
            return Outcome.failed(step, stopped);
        }
        int count = stepCount;
        try {
            emit(new PlanEvent.PlanStepStart(index, count, step.name(), step.type()));
        } catch (RuntimeException listenerFailure) {
            return Outcome.failed(step, PlanExecutor.wrap(step, listenerFailure));
        }
        StepHandler handler = owner.handlers.get(step.type());
        CallContext stepCtx = owner.policy.stepContext(ctx.childSpan(step.name()));
        Outcome outcome;
        try {
            Step done = owner.retryPolicy.isPresent()
                    ? withRetries(owner.retryPolicy.get(), stepCtx, handler, step)
                    : attempt(stepCtx, handler, step);
            outcome = Outcome.completed(done);
        } catch (PaganticException failure) {
            outcome = Outcome.failed(step, failure);
        }
        try {
            emit(new PlanEvent.PlanStepEnd(index, count, step.name(),
                    outcome.step == null ? "" : PlanExecutor.summary(outcome.step.requireOutput()),
                    outcome.failure == null ? Optional.empty() : Optional.of(outcome.failure.error)));
        } catch (RuntimeException listenerFailure) {
            return Outcome.failed(step, PlanExecutor.wrap(step, listenerFailure));
        }
        if (outcome.step != null) {
            synchronized (lifecycle) {
                lifecycle.stepCompleted(step.name());
            }
        }
        return outcome;
    }

    private Step withRetries(RetryPolicy retries, CallContext stepCtx, StepHandler handler, Step step) {
        PaganticException[] last = new PaganticException[1];
        RetryOutcome<Step> outcome;
        try {
            outcome = retries.run(stepCtx, attempt -> {
                if (attempt > 1) {
                    synchronized (lifecycle) {
                        lifecycle.validate("step '" + step.name() + "' failed: " + last[0].code() + ": "
                                + last[0].description());
                        lifecycle.retry("retrying step '" + step.name() + "', attempt " + attempt);
                    }
                }
                try {
                    return attempt(stepCtx, handler, step);
                } catch (PaganticException failure) {
                    last[0] = failure;
                    if (!PlanExecutor.retriedHere(failure)) {
                        throw new NotRetried(failure);
                    }
                    throw failure;
                }
            });
        } catch (NotRetried notRetried) {
            throw notRetried.failure;
        }
        if (outcome.succeeded()) {
            return outcome.value().orElseThrow();
        }
        throw outcome.failure().orElseThrow();
    }

    /** One attempt of one step, through the owner.interceptor. */
    private Step attempt(CallContext stepCtx, StepHandler handler, Step step) {
        Instant started = stepCtx.now();
        try {
            Step done = checked(step, owner.interceptor.intercept(Invocation.of(InvocationKind.PLAN_STEP, step.name(),
                    stepCtx, step, () -> handler.handle(stepCtx, step))));
            if (owner.eventLog.isEnabled()) {
                owner.eventLog.record(stepEvent(stepCtx, started, step).build());
            }
            return done;
        } catch (PaganticException failure) {
            if (owner.eventLog.isEnabled()) {
                owner.eventLog.record(stepEvent(stepCtx, started, step).error(failure).build());
            }
            throw failure;
        } catch (RuntimeException unexpected) {
            PaganticException failure = PlanExecutor.wrap(step, unexpected);
            if (owner.eventLog.isEnabled()) {
                owner.eventLog.record(stepEvent(stepCtx, started, step).error(failure).build());
            }
            throw failure;
        }
    }

    /** The {@code step} event: caused by the step's name, with {@code step_name} and {@code step_type}. */
    private Event.Builder stepEvent(CallContext stepCtx, Instant started, Step step) {
        return Event.builder(stepCtx, Timing.LAYER, "step").timestamp(started)
                .data("step_name", step.name())
                .data("step_type", step.type().name())
                .duration(Timing.elapsed(stepCtx, started));
    }

    private Step checked(Step step, Step returned) {
        if (returned == null || !returned.hasOutput()) {
            throw PlanExecutor.mismatch(step, "the handler for step '" + step.name() + "' (" + step.type()
                    + ") returned " + (returned == null ? "no step" : "a step without output"));
        }
        if (!returned.name().equals(step.name()) || !returned.type().equals(step.type())) {
            throw PlanExecutor.mismatch(step, "the handler for step '" + step.name() + "' (" + step.type()
                    + ") returned step '" + returned.name() + "' (" + returned.type() + ")");
        }
        return returned;
    }

    private PlanResult fail(PaganticException error, Optional<String> stepName) {
        if (error.code() == ErrorCode.CANCELLED_TIMEOUT && stepName.isPresent() && !ctx.isDone()) {
            lifecycle.error(error); // the step's own deadline: the step was cancelled, the request fails
        } else {
            lifecycle.fail(error);
        }
        return new PlanResult(completed, Optional.of(error), stepName, usage(), revisions);
    }

    private TokenUsage usage() {
        TokenUsage total = TokenUsage.ZERO;
        for (Step step : completed) {
            StepOutput output = step.requireOutput();
            if (output.is(StepData.Kind.RESULT)) {
                total = total.plus(output.result().usage());
            }
        }
        return total;
    }

    /** Carries a failure that this owner.executor does not retry through {@link RetryPolicy#run} unretried. */
    private static final class NotRetried extends RuntimeException {
        private final transient PaganticException failure;

        NotRetried(PaganticException failure) {
            super(failure.getMessage(), failure, false, false);
            this.failure = failure;
        }
    }

    /** A step that completed, or the failure of one that did not. */
    private static final class Outcome {
        private final Step step;
        private final String stepName;
        private final Failure failure;

        private Outcome(Step step, String stepName, Failure failure) {
            this.step = step;
            this.stepName = stepName;
            this.failure = failure;
        }

        static Outcome completed(Step step) {
            return new Outcome(step, step.name(), null);
        }

        static Outcome failed(Step step, PaganticException error) {
            return new Outcome(null, step.name(), new Failure(step, step.name(), error));
        }

        @Override
        public String toString() {
            return "Outcome[" + stepName + (failure == null ? " completed" : " failed") + "]";
        }
    }

    private record Failure(Step step, String stepName, PaganticException error) {
    }
}
