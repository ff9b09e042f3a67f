package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import dev.pagantic.orchestrate.structured.SpecializedResult;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.ToolRegistry;
import java.io.PrintStream;
import java.util.Map;

/**
 * Seed 000, SpecializedLoop with tools: phase 1 lets the model gather information through tool calls, phase 2 asks
 * for the structured summary.
 */
public final class SpecializedLoopWithToolsExample {

    private SpecializedLoopWithToolsExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("query", "quantum computing"))
                .reply("I have what I need.")
                .reply("{\"summary\":\"Error correction crossed the break-even point.\",\"sources\":[\"search\"]}")
                .build();
        try (SpecializedLoop research = SpecializedLoop.builder()
                .engine(engine)
                .tools(ToolRegistry.of(Examples.searchTool(), Examples.calcTool()))
                .systemPrompt("Research the topic, then produce a structured summary.")
                .schema(Examples.SUMMARY)
                .build()) {
            SpecializedResult result = research.run(CallContext.background(), "Latest advances in quantum computing",
                    InferenceSettings.DEFAULTS, TurnOptions.DEFAULTS).orElseThrow();
            result.toolExecutions().forEach(e -> out.println("phase 1 tool: " + e.call().name() + " -> "
                    + e.result().content()));
            out.println("phase 2 prompt: " + engine.lastRequest().orElseThrow().messages()
                    .get(engine.lastRequest().orElseThrow().messages().size() - 1).content());
            out.println("result: " + result.content());
        }
    }
}
