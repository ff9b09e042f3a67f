package dev.pagantic.examples.patterns;

import dev.pagantic.inference.Engine;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.ToolRegistry;
import java.io.PrintStream;
import java.util.Map;

/**
 * Seed 001, the system boundary: one {@link Orchestrator}, requests in every shape an adapter sends, responses with
 * the fields of each mode, and failures as values rather than exceptions. The orchestrator has a registered tool, so
 * structured and redundant calls run seed 000's two phases: a tool phase, then the structured answer.
 */
public final class FacadeExample {

    private FacadeExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        Engine engine = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("query", "Paris"))          // chat, turn 1: a tool call...
                .reply("Paris is 18 degrees and sunny.")                       // ...and the answer
                .reply("London is cooler.")                                    // chat, turn 2
                .reply("No tool needed.")                                      // structured: tool phase...
                .reply("{\"sentiment\": \"Positive\"")                          // ...then the answer, repaired
                .reply("Done.").reply("{\"sentiment\":\"positive\"}")            // redundant: 3 replicas, each
                .reply("Done.").reply("{\"sentiment\":\"positive\"}")            // with its tool phase
                .reply("Done.").reply("{\"sentiment\":\"neutral\"}")
                .build();
        InMemoryEventLog events = InMemoryEventLog.unbounded();
        try (Orchestrator pagantic = Orchestrator.builder()
                .engine(engine)
                .tools(ToolRegistry.of(Examples.searchTool()))
                .systemPrompt("You are a helpful assistant.")
                .eventLog(events)
                .build()) {
            SystemResponse first = pagantic.execute(SystemRequest.builder().sessionId("s-1")
                    .user("What is the weather in Paris?").build());
            out.println("chat: " + first.content() + " (tools: " + first.toolCallsMade().size() + ")");
            SystemResponse second = pagantic.execute(SystemRequest.builder().sessionId("s-1")
                    .user("How about London?").build());
            out.println("chat: " + second.content());

            SystemResponse structured = pagantic.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                    .user("Analyze: great product!").output(OutputContract.of(Examples.SENTIMENT)).build());
            out.println("structured: " + structured.structuredOutput().orElseThrow() + " repaired="
                    + structured.validationResult().orElseThrow().repaired());

            SystemResponse voted = pagantic.execute(SystemRequest.builder().mode(Mode.REDUNDANT)
                    .user("I love this product!").output(OutputContract.of(Examples.SENTIMENT)).build());
            out.println("redundant: " + voted.content() + " confidence=" + voted.confidence().orElseThrow()
                    + " source=" + voted.confidenceSource().orElseThrow());

            SystemResponse refused = pagantic.execute(SystemRequest.builder().mode(Mode.STRUCTURED).user("x").build());
            out.println("error: " + refused.error().orElseThrow().code() + " retryable="
                    + refused.error().orElseThrow().retryable());
            out.println("events of the first request: " + events.eventsOfRequest(first.requestId()).size());
        }
    }
}
