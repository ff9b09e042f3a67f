package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireElements;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.TokenUsage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link PlanExecutor} run produced: the steps that completed, in plan order, each with its input and output,
 * and the error that stopped the run, if any.
 *
 * <p>Partial results are the rule, not the exception: when step 3 fails, {@link #steps()} still holds steps 1 and 2
 * with their outputs, and {@link #error()} holds step 3's failure ({@link #failedStep()} names it). Inside a parallel
 * group every member that completed is listed (in plan order) even when a sibling failed; the error is the first
 * failure in plan order. Callers that prefer an exception use {@link #orElseThrow()}.
 *
 * @param steps      the completed steps in plan order, each with its output; never null
 * @param error      the failure that stopped the run; empty when every step completed
 * @param failedStep the name of the step that failed, when the failure belongs to a step (a policy violation names
 *                   its offending step; cancellation names the step that did not start)
 * @param usage      the token usage summed over every step whose output is an inference result
 * @param revisions  one trace per revision a {@link Replanner} made during the run and the executor accepted, in
 *                   order; empty when the plan ran as planned
 */
public record PlanResult(List<Step> steps, Optional<PaganticException> error, Optional<String> failedStep,
                         TokenUsage usage, List<PlanTrace> revisions) {

    /** A result without revisions. */
    public PlanResult(List<Step> steps, Optional<PaganticException> error, Optional<String> failedStep,
                      TokenUsage usage) {
        this(steps, error, failedStep, usage, List.of());
    }

    /** Validates and copies the components. */
    public PlanResult {
        revisions = requireElements(revisions, "revisions");
        steps = requireElements(steps, "steps");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(failedStep, "failedStep");
        Objects.requireNonNull(usage, "usage");
        require(error.isPresent() || failedStep.isEmpty(), "a failed step needs an error");
        for (Step step : steps) {
            require(step.hasOutput(), "a completed step needs an output: '" + step.name() + "'");
        }
    }

    /** Whether a replanner revised the plan during the run. */
    public boolean replanned() {
        return !revisions.isEmpty();
    }

    /** Whether every step of the plan completed. */
    public boolean succeeded() {
        return error.isEmpty();
    }

    /** The number of completed steps. */
    public int completedCount() {
        return steps.size();
    }

    /** The completed step with this name, if it completed. */
    public Optional<Step> step(String name) {
        return steps.stream().filter(step -> step.name().equals(name)).findFirst();
    }

    /** The output of the completed step with this name, if it completed. */
    public Optional<StepOutput> output(String name) {
        return step(name).flatMap(Step::output);
    }

    /** The output of the last completed step, if any step completed. */
    public Optional<StepOutput> lastOutput() {
        return steps.isEmpty() ? Optional.empty() : steps.get(steps.size() - 1).output();
    }

    /**
     * Returns this result when every step completed, or throws the error that stopped the run (its details name the
     * failed step; the completed steps stay available on this result).
     *
     * @throws PaganticException the run's error
     */
    public PlanResult orElseThrow() {
        if (error.isPresent()) {
            throw error.get();
        }
        return this;
    }
}
