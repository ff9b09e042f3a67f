package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanResult;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepHandler;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepOutput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.orchestrate.vote.RedundantLoop;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.ToolRegistry;
import java.io.PrintStream;
import java.util.Map;

/**
 * Seed 000, composing patterns: a plan whose "research" step runs an AgentLoop with tools and whose "classify" step
 * runs a RedundantLoop on the research's output.
 */
public final class ComposingPatternsExample {

    static final StepType RESEARCH = StepType.of("research");
    static final StepType CLASSIFY = StepType.of("classify");

    private ComposingPatternsExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        Engine researcher = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("query", "Q4 market trends"))
                .reply("Q4 demand grew strongly across every region.")
                .build();
        Engine classifier = ScriptedEngine.replying("{\"sentiment\":\"positive\"}", "{\"sentiment\":\"positive\"}",
                "{\"sentiment\":\"positive\"}");

        StepHandler research = (ctx, step) -> {
            try (AgentLoop agent = AgentLoop.builder().engine(researcher)
                    .tools(ToolRegistry.of(Examples.searchTool()))
                    .systemPrompt("You are a research assistant.").build()) {
                return step.withOutput(StepOutput.text(agent.chat(ctx, step.requireInput().text()).content()));
            }
        };
        StepHandler classify = (ctx, step) -> {
            try (RedundantLoop reliable = RedundantLoop.builder().engine(classifier).schema(Examples.SENTIMENT)
                    .n(3).build()) {
                return step.withOutput(StepOutput.text(reliable.call(ctx, step.requireInput().text()).content()));
            }
        };
        PlanExecutor executor = PlanExecutor.builder().handler(RESEARCH, research).handler(CLASSIFY, classify).build();
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("research", RESEARCH, StepInput.text("Analyze market trends for Q4")),
                Step.of("classify", CLASSIFY)); // auto-chained from research

        PlanResult results = executor.executeOrThrow(CallContext.background(), plan);

        out.println("research: " + results.steps().get(0).requireOutput().text());
        out.println("classification: " + results.steps().get(1).requireOutput().text());
    }
}
