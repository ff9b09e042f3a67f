package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.orchestrate.multimodel.Directive;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.orchestrate.multimodel.MultiModel;
import dev.pagantic.orchestrate.multimodel.RefineResult;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;

/**
 * Seed 003, refine mode: an answer and improvement rounds on one engine; the third round fails, so the result keeps
 * the best answer so far and says how many rounds were done.
 */
public final class RefineExample {

    private RefineExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        ScriptedEngine writer = ScriptedEngine.builder()
                .reply("Roses are red.")
                .reply("Roses are red, violets are blue.")
                .reply("Roses are red, violets are blue, sugar is sweet.")
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "engine hiccup")
                .build();
        EngineCatalogue catalogue = EngineCatalogue.builder().add("writer", writer, 5).build();
        MultiModel modes = MultiModel.builder().catalogue(catalogue).build();
        RefineResult result = modes.refine(CallContext.background(), "Write a short poem",
                Directive.builder().iterations(3).build());
        out.println("refined: " + result.refinedResponse());
        out.println("iterations: " + result.iterations() + " of " + result.requested());
        out.println("stopped by: " + result.failure().map(f -> f.code().name()).orElse("nothing"));
        out.println("calls: " + result.calls().size());
        out.println("reason: " + result.reason());
    }
}
