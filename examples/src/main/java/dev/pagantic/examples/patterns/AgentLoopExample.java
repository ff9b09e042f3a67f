package dev.pagantic.examples.patterns;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.inference.Result;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.ToolRegistry;
import java.io.PrintStream;
import java.util.Map;

/** Seed 000, AgentLoop usage: an agent with tools and ephemeral context, two turns that share their history. */
public final class AgentLoopExample {

    private AgentLoopExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("search", Map.of("query", "Paris"))
                .reply("Paris is 18 degrees and sunny.")
                .reply("London is cooler than Paris today.")
                .build();
        InMemoryEventLog events = InMemoryEventLog.unbounded();
        try (AgentLoop agent = AgentLoop.builder()
                .engine(engine)
                .tools(ToolRegistry.of(Examples.searchTool(), Examples.calcTool()))
                .systemPrompt("You are a helpful assistant with access to tools.")
                .contextProvider(Examples.goDocs()::build)
                .stream(new dev.pagantic.inference.StreamHandler() { })
                .eventLog(events)
                .build()) {
            CallContext ctx = CallContext.builder().sessionId("example-session").build();
            Result paris = agent.chat(ctx, "What is the weather in Paris?");
            out.println("turn 1: " + paris.content());
            Result london = agent.chat(ctx, "How about London?");
            out.println("turn 2: " + london.content());
            for (Message message : agent.messages()) {
                out.println("history: " + message.role().name().toLowerCase() + " " + message.content());
            }
            out.println("events: " + events.events(e -> e.layer().equals("orchestrate")).stream()
                    .map(e -> e.action()).toList());
        }
    }
}
