package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanResult;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepHandlers;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.orchestrate.ports.CandidateReranker;
import dev.pagantic.rerank.QueryTermOverlapScorer;
import dev.pagantic.rerank.Reranker;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;

/** Seed 000, the RAG pipeline: retrieve → rerank → infer, each step auto-chained from the one before. */
public final class RagPlanExample {

    private RagPlanExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        ScriptedEngine engine = ScriptedEngine.replying("Go interfaces are satisfied implicitly.");
        ExecutionPlan plan = ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("How do interfaces work in Go?")),
                Step.of("rerank", StepType.RERANK),   // input: the retrieve step's output
                Step.of("infer", StepType.INFER));    // input: the rerank step's output
        PlanExecutor executor = PlanExecutor.builder()
                .handler(StepType.RETRIEVE, StepHandlers.retrieve(Examples.goDocs()::build))
                .handler(StepType.RERANK, StepHandlers.rerank(CandidateReranker.of(
                        Reranker.builder().scorer(QueryTermOverlapScorer.standard()).build())))
                .handler(StepType.INFER, StepHandlers.infer(engine))
                .build();

        PlanResult results = executor.executeOrThrow(CallContext.background(), plan);

        out.println("retrieved: " + results.steps().get(0).requireOutput().messages().size() + " message(s)");
        out.println("reranked: " + results.steps().get(1).requireOutput().candidates().size() + " candidate(s)");
        out.println("answer: " + results.steps().get(2).requireOutput().result().content());
    }
}
