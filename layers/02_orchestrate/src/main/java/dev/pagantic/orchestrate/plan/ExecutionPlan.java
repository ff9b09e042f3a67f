package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireElements;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@link StepHandler}-driven executor runs: an ordered list of {@link Stage}s, each either one step or a group
 * of independent steps that may run concurrently, their outputs collected in the group's order. A plan whose stages
 * are all single steps is <em>linear</em> ({@link #isLinear()}), the only shape a {@link PlanPolicy} with
 * {@code requireLinear} accepts. Plans are created by a planner or written by hand; the executor never creates them.
 *
 * <pre>{@code
 * ExecutionPlan plan = ExecutionPlan.builder()
 *         .step(Step.of("retrieve", StepType.RETRIEVE, StepInput.text("How do interfaces work?")))
 *         .parallel(Step.of("summarize", StepType.of("summarize")), Step.of("classify", StepType.of("classify")))
 *         .step(Step.of("infer", StepType.INFER))
 *         .build();
 * }</pre>
 *
 * <p>Invariants, checked on construction with {@code CONFIG_INVALID}: at least one step; step names unique across the
 * whole plan (they identify steps in results and events); a parallel group of at least two steps; and, when a
 * {@link PlanTrace} is attached, its step count equal to the plan's. Immutable.
 *
 * @param stages the stages, in execution order; an immutable copy
 * @param trace  how the plan was created, when a planner recorded it
 */
public record ExecutionPlan(List<Stage> stages, Optional<PlanTrace> trace) {

    /** Checks the invariants above and copies the stages. */
    public ExecutionPlan {
        stages = requireElements(stages, "stages");
        requireNonNull(trace, "trace");
        require(!stages.isEmpty(), "an execution plan needs at least one step");
        Set<String> names = new HashSet<>();
        int count = 0;
        for (Stage stage : stages) {
            for (Step step : stage.steps()) {
                count++;
                if (!names.add(step.name())) {
                    throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                                    "duplicate step name '" + step.name() + "': step names must be unique in a plan")
                            .detail("step", step.name()).build();
                }
            }
        }
        int stepCount = count;
        trace.ifPresent(t -> {
            if (t.stepCount() != stepCount) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                                "the plan trace counts " + t.stepCount() + " steps but the plan has " + stepCount)
                        .detail("trace_step_count", t.stepCount()).detail("step_count", stepCount).build();
            }
        });
    }

    /** A linear plan of the given steps, in order, without a trace. */
    public static ExecutionPlan of(Step... steps) {
        return of(Arrays.asList(requireNonNull(steps, "steps")));
    }

    /** A linear plan of the given steps, in order, without a trace. */
    public static ExecutionPlan of(List<Step> steps) {
        Builder builder = builder();
        requireElements(steps, "steps").forEach(builder::step);
        return builder.build();
    }

    /** Starts building a plan. */
    public static Builder builder() {
        return new Builder();
    }

    /** Every step, flattened in execution order (a parallel group's steps in the group's order). */
    public List<Step> steps() {
        List<Step> all = new ArrayList<>();
        stages.forEach(stage -> all.addAll(stage.steps()));
        return List.copyOf(all);
    }

    /** How many steps the plan has, counting every step of every parallel group. */
    public int stepCount() {
        return stages.stream().mapToInt(stage -> stage.steps().size()).sum();
    }

    /** Whether every stage is a single step: no parallel groups. */
    public boolean isLinear() {
        return stages.stream().noneMatch(Stage::isParallel);
    }

    /** The step with the given name, if the plan has one. */
    public Optional<Step> step(String name) {
        return steps().stream().filter(step -> step.name().equals(name)).findFirst();
    }

    /** The distinct step types the plan uses, in order of first use. */
    public Set<StepType> stepTypes() {
        Set<StepType> types = new LinkedHashSet<>();
        stages.forEach(stage -> stage.steps().forEach(step -> types.add(step.type())));
        return Collections.unmodifiableSet(types);
    }

    /**
     * This plan with the given trace attached.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the trace's step count differs from the plan's
     */
    public ExecutionPlan withTrace(PlanTrace newTrace) {
        return new ExecutionPlan(stages, Optional.of(requireNonNull(newTrace, "trace")));
    }

    /**
     * One stage of a plan: a single step, or a group of two or more independent steps that may run concurrently
     * (each receives the same auto-chained input; their outputs are collected in the group's order).
     *
     * @param steps the stage's steps; an immutable copy, never empty
     */
    public record Stage(List<Step> steps) {

        /** Checks and copies the steps; {@code CONFIG_INVALID} for an empty stage or null steps. */
        public Stage {
            steps = requireElements(steps, "stage steps");
            require(!steps.isEmpty(), "a plan stage needs at least one step");
        }

        /** A stage of one step. */
        public static Stage of(Step step) {
            return new Stage(List.of(requireNonNull(step, "step")));
        }

        /**
         * A parallel group.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for fewer than two steps
         */
        public static Stage parallel(List<Step> steps) {
            requireNonNull(steps, "parallel steps");
            if (steps.size() < 2) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                                "a parallel group needs at least two steps, got " + steps.size())
                        .detail("step_count", steps.size()).build();
            }
            return new Stage(steps);
        }

        /** Whether this stage is a group of steps that may run concurrently. */
        public boolean isParallel() {
            return steps.size() > 1;
        }
    }

    /** Builds an {@link ExecutionPlan}; everything is checked at {@link #build()} ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private final List<List<Step>> stages = new ArrayList<>();
        private final List<Boolean> parallel = new ArrayList<>();
        private PlanTrace trace;

        private Builder() {
        }

        /** Appends a single-step stage. */
        public Builder step(Step step) {
            stages.add(Arrays.asList(step));
            parallel.add(false);
            return this;
        }

        /** Appends a group of independent steps (at least two) that may run concurrently. */
        public Builder parallel(Step... steps) {
            return parallel(steps == null ? null : Arrays.asList(steps));
        }

        /** Appends a group of independent steps (at least two) that may run concurrently. */
        public Builder parallel(List<Step> steps) {
            stages.add(steps == null ? null : new ArrayList<>(steps));
            parallel.add(true);
            return this;
        }

        /** Attaches how the plan was created; its step count must match the plan's. */
        public Builder trace(PlanTrace value) {
            this.trace = value;
            return this;
        }

        /**
         * The plan.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for no steps, a null step, a parallel group of fewer than
         *                           two steps, duplicate step names, or a trace whose step count differs
         */
        public ExecutionPlan build() {
            List<Stage> built = new ArrayList<>();
            for (int i = 0; i < stages.size(); i++) {
                List<Step> steps = stages.get(i);
                if (parallel.get(i)) {
                    built.add(Stage.parallel(steps));
                } else {
                    built.add(Stage.of(steps.get(0)));
                }
            }
            return new ExecutionPlan(built, Optional.ofNullable(trace));
        }
    }
}
