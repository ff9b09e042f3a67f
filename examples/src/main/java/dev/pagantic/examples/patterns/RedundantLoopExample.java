package dev.pagantic.examples.patterns;

import dev.pagantic.inference.Capability;
import dev.pagantic.orchestrate.vote.MajorityVoting;
import dev.pagantic.orchestrate.vote.RedundantLoop;
import dev.pagantic.orchestrate.vote.RedundantResult;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;
import java.util.Locale;

/** Seed 000, RedundantLoop usage: three replicas classify sentiment and the majority wins. */
public final class RedundantLoopExample {

    private RedundantLoopExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR)
                .reply("{\"sentiment\":\"positive\"}")
                .reply("{\"sentiment\":\"positive\"}")
                .reply("{\"sentiment\":\"neutral\"}")
                .build();
        try (RedundantLoop redundant = RedundantLoop.builder()
                .engine(engine)
                .systemPrompt("Classify sentiment as positive, negative, or neutral.")
                .schema(Examples.SENTIMENT)
                .n(3)
                .voting(new MajorityVoting())
                .grammar(Examples.SENTIMENT_GRAMMAR)
                .build()) {
            RedundantResult result = redundant.call("I love this product!");
            out.println("Winner: " + result.content());
            out.println(String.format(Locale.ROOT, "Confidence: %.0f%%", result.confidence() * 100));
            out.println("Candidates: " + result.candidates());
            out.println("Total tokens: " + result.usage().outputTokens());
        }
    }
}
