package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.orchestrate.multimodel.Directive;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.orchestrate.multimodel.MultiModel;
import dev.pagantic.orchestrate.multimodel.PlanningResult;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;

/**
 * Seed 003, the planning profile: one call on the planning engine, picked from the catalogue by its minimum weight.
 */
public final class PlanningProfileExample {

    private PlanningProfileExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("small", ScriptedEngine.replying("1. Guess."), 1)
                .add("planner", ScriptedEngine.replying("1. Gather requirements. 2. Design. 3. Build. 4. Test."), 8)
                .build();
        MultiModel modes = MultiModel.builder().catalogue(catalogue).build();
        PlanningResult plan = modes.planning(CallContext.background(), "Plan a small web service",
                Directive.builder().minWeight(5).build());
        out.println("engine: " + plan.call().engine());
        out.println("plan: " + plan.content());
        out.println("reason: " + PlanningResult.REASON);
    }
}
