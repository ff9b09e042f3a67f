package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An event of a {@link PlanExecutor} run, delivered to its {@link PlanEventListener} (the plan-execute side of seed
 * 004's protocol): {@code plan_created} once the plan passed its policy check (and again after each accepted
 * revision), then {@code plan_step_start} and {@code plan_step_end} around every step. Step indexes count the steps
 * of the current plan in plan order, every member of a parallel group included, from 0.
 */
public sealed interface PlanEvent {

    /** The protocol's name of the event. */
    String eventType();

    /**
     * The plan about to run: its step names in plan order. After a revision, the completed steps followed by the
     * revised remaining steps.
     */
    record PlanCreated(int stepCount, List<String> steps) implements PlanEvent {
        public PlanCreated {
            steps = List.copyOf(steps);
        }

        @Override
        public String eventType() {
            return "plan_created";
        }
    }

    /** A step starting (once per step, whatever its retries). */
    record PlanStepStart(int index, int stepCount, String name, StepType type) implements PlanEvent {
        public PlanStepStart {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }

        @Override
        public String eventType() {
            return "plan_step_start";
        }
    }

    /**
     * A step finished.
     *
     * @param result a text summary of the step's output; empty when it failed
     * @param error  the failure, after any retries; empty when it completed
     */
    record PlanStepEnd(int index, int stepCount, String name, String result, Optional<PaganticException> error)
            implements PlanEvent {
        public PlanStepEnd {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(error, "error");
        }

        /** Whether the step completed. */
        public boolean succeeded() {
            return error.isEmpty();
        }

        @Override
        public String eventType() {
            return "plan_step_end";
        }
    }
}
