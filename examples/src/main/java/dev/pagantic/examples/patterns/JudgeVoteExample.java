package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.inference.Capability;
import dev.pagantic.orchestrate.multimodel.Directive;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.orchestrate.multimodel.MultiModel;
import dev.pagantic.orchestrate.multimodel.VoteResult;
import dev.pagantic.testkit.FailingEngine;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Seed 003, vote mode: three voters answer concurrently (one of them is down and is reported, not dropped), and a
 * judge picks the best through grammar-constrained JSON {@code {"selected": k, "reason": "..."}}.
 */
public final class JudgeVoteExample {

    private JudgeVoteExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        ScriptedEngine judge = ScriptedEngine.builder().capabilities(Capability.GRAMMAR, Capability.SCHEMA)
                .reply("{\"selected\": 1, \"reason\": \"it names the trade-off\"}").build();
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("fast", ScriptedEngine.replying("Use a cache."), 2)
                .add("offline", FailingEngine.builder().failAlways().code(ErrorCode.INFERENCE_MODEL_UNAVAILABLE)
                        .message("model offline").build(), 4)
                .add("careful", ScriptedEngine.replying("Use a cache with a short TTL: staleness vs load."), 5)
                .add("judge", judge, 9)
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            MultiModel modes = MultiModel.builder().catalogue(catalogue).executor(pool).build();
            VoteResult result = modes.vote(CallContext.background(), "How do we cut database load?",
                    Directive.builder().voters("fast", "offline", "careful").build());
            for (VoteResult.Response response : result.responses()) {
                out.println("voter " + response.model() + ": " + response.failure()
                        .map(f -> "failed " + f.code())
                        .orElse(response.content() + (response.selected() ? " [selected]" : "")));
            }
            out.println("judge " + result.judge() + ": " + result.judgeReason());
            out.println("selected: " + result.selected() + " -> " + result.content());
            out.println("judge grammar sent: " + judge.lastRequest().orElseThrow().hasGrammar());
            out.println("reason: " + result.reason());
        } finally {
            pool.shutdownNow();
        }
    }
}
