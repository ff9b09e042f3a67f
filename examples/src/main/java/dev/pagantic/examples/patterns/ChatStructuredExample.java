package dev.pagantic.examples.patterns;

import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;

/**
 * Seed 000, ChatStructured usage: schema-constrained output from a conversational agent. The scripted model answers
 * with broken JSON and a wrongly cased enum value; the constraint pipeline repairs and normalises it.
 */
public final class ChatStructuredExample {

    private ChatStructuredExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        ScriptedEngine engine = ScriptedEngine.replying("{\"sentiment\": \"Positive\", \"confidence\": 0.95");
        try (AgentLoop agent = AgentLoop.builder().engine(engine).build()) {
            Result result = agent.chatStructured("Analyze: great product!", Examples.SENTIMENT_WITH_CONFIDENCE);
            out.println("model said: " + engine.requests().size() + " answer(s), temperature "
                    + engine.lastRequest().orElseThrow().settings().temperature().orElseThrow());
            out.println("structured: " + result.content());
        }
    }
}
