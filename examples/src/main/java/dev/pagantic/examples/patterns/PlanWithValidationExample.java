package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanResult;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepHandlers;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;
import java.util.Optional;

/**
 * Seed 000, a pipeline with a validation step. The first answer is too short; with a per-step retry policy the
 * validation failure sends the plan back to infer, and the partial results stay visible either way.
 */
public final class PlanWithValidationExample {

    private PlanWithValidationExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        String query = "How do interfaces work in Go?";
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text(query)),
                Step.of("infer", StepType.INFER),
                Step.of("validate", StepType.VALIDATE));
        PlanExecutor executor = PlanExecutor.builder()
                .handler(StepType.RETRIEVE, StepHandlers.retrieve(Examples.goDocs()::build))
                .handler(StepType.INFER, StepHandlers.infer(ScriptedEngine.replying("Implicitly.")))
                .handler(StepType.VALIDATE, StepHandlers.validate(output -> output.length() < 20
                        ? Optional.of("output too short: " + output.length() + " chars") : Optional.empty()))
                .build();

        PlanResult result = executor.execute(CallContext.background(), plan);

        out.println("completed steps: " + result.completedCount());
        out.println("failed step: " + result.failedStep().orElse("none"));
        out.println("error: " + result.error().map(e -> e.code() + " " + e.description()).orElse("none"));
    }
}
