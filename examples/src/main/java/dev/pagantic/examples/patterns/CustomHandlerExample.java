package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanResult;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepHandler;
import dev.pagantic.orchestrate.plan.StepHandlers;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepOutput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;

/** Seed 000, custom handlers: a "summarize" step type that trims and truncates its text input. */
public final class CustomHandlerExample {

    /** The custom step type. */
    public static final StepType SUMMARIZE = StepType.of("summarize");

    private CustomHandlerExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        StepHandler summarize = (ctx, step) -> {
            String summary = step.requireInput().text().strip();
            if (summary.length() > 40) {
                summary = summary.substring(0, 40) + "...";
            }
            return step.withOutput(StepOutput.text(summary));
        };
        PlanExecutor executor = PlanExecutor.builder()
                .handler(SUMMARIZE, summarize)
                .handler(StepType.INFER, StepHandlers.infer(ScriptedEngine.replying("A short take on the summary.")))
                .build();
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("summarize", SUMMARIZE, StepInput.text("   Go interfaces are satisfied implicitly, which "
                        + "keeps packages decoupled and small.   ")),
                Step.of("infer", StepType.INFER));

        PlanResult result = executor.executeOrThrow(CallContext.background(), plan);

        out.println("summary: " + result.steps().get(0).requireOutput().text());
        out.println("answer: " + result.lastOutput().orElseThrow().result().content());
    }
}
