package dev.pagantic.examples.patterns;

import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;

/** Seed 000, SpecializedLoop basic usage: single-shot sentiment extraction with a GBNF grammar. */
public final class SpecializedLoopExample {

    private SpecializedLoopExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        // The grammar is sent to the decoder, so the engine must declare GRAMMAR (a real llama.cpp engine does).
        ScriptedEngine engine = ScriptedEngine.builder().capabilities(Capability.GRAMMAR)
                .reply("{\"sentiment\":\"positive\"}").build();
        try (SpecializedLoop sentiment = SpecializedLoop.builder()
                .engine(engine)
                .systemPrompt("Analyze sentiment. Return structured JSON.")
                .schema(Examples.SENTIMENT)
                .grammar(Examples.SENTIMENT_GRAMMAR)
                .build()) {
            Result result = sentiment.call("I love this product!");
            out.println("result: " + result.content());
        }
    }
}
