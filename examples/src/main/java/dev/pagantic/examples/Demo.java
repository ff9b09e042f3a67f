package dev.pagantic.examples;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The main demo: the {@link Engine} SPI on the testkit's {@link ScriptedEngine}, which needs no model and no network.
 * It shows a call with system and user messages, a streamed call, a tool call and its round trip, the combined token
 * usage of those calls, and how a cancelled call and a call past its deadline fail ({@code CANCELLED_SIGNAL},
 * {@code CANCELLED_TIMEOUT}).
 *
 * <p>Run it with {@code mvn -B -q -pl examples exec:java} after installing the project.
 */
public final class Demo {

    private static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "Current weather for a city.",
            Schema.object().required("city", Schema.string()).build());

    private static final String STORY = "Once upon a time a tiny model streamed its story one word at a time.";

    private Demo() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the demo, writing everything it shows to {@code out}. */
    public static void run(PrintStream out) {
        // The script: what "the model" answers, one step per call, in order.
        try (ScriptedEngine engine = ScriptedEngine.builder()
                .reply("Paris is the capital of France.")                   // 1. system + user
                .reply(STORY)                                               // 2. streamed
                .replyCallingTool("get_weather", Map.of("city", "Paris"))   // 3. a tool call (id call_1)...
                .reply("It is sunny and 24 degrees in Paris.")              //    ...and the answer to its result
                .reply("one two three four five six seven eight nine ten")  // 5. cancelled while streaming
                .reply("one two three four five six seven eight nine ten")  // 6. runs past its deadline
                .build()) {
            // Deterministic ids for the demo; production code uses CallContext.background() or random ids.
            IdGenerator ids = IdGenerator.sequential("demo-");
            List<TokenUsage> usages = new ArrayList<>();

            out.println("== 1. system and user messages");
            Request question = Request.builder()
                    .addMessage(Message.system("You are a geography assistant. Answer in one sentence."))
                    .addMessage(Message.user("What is the capital of France?"))
                    .maxTokens(64)
                    .build();
            Result answer = engine.infer(context(ids), question);
            out.println("content: " + answer.content());
            out.println("finish: " + answer.finishReason());
            printUsage(out, answer.usage());
            usages.add(answer.usage());

            out.println("== 2. streaming");
            out.print("streamed: ");
            StringBuilder streamed = new StringBuilder();
            Result story = engine.infer(context(ids), Request.of("Tell me a very short story."),
                    StreamHandler.onContent(delta -> {
                        out.print(delta);    // each word as it arrives
                        out.flush();
                        streamed.append(delta);
                    }));
            out.println();
            out.println("final:    " + story.content());
            out.println("streamed text equals final content: " + streamed.toString().equals(story.content()));
            printUsage(out, story.usage());
            usages.add(story.usage());

            out.println("== 3. tool call");
            Request weatherQuestion = Request.builder()
                    .addMessage(Message.user("What is the weather in Paris?"))
                    .addTool(WEATHER)
                    .build();
            Result toolTurn = engine.infer(context(ids), weatherQuestion);
            out.println("finish: " + toolTurn.finishReason());
            for (ToolCall call : toolTurn.toolCalls()) {
                out.println("tool call: " + call.id() + " " + call.name() + " " + call.arguments());
            }
            printUsage(out, toolTurn.usage());
            usages.add(toolTurn.usage());
            // Running the tool is the tool layer's job (planned); here its result is made up and fed back.
            ToolCall call = toolTurn.toolCalls().get(0);
            ToolResult weather = ToolResult.success(call.id(), call.name(), "{\"sky\":\"sunny\",\"celsius\":24}");
            Request followUp = weatherQuestion.toBuilder()
                    .messages(concat(weatherQuestion.messages(), toolTurn.messages(), weather.toMessage()))
                    .build();
            Result toolAnswer = engine.infer(context(ids), followUp);
            out.println("content: " + toolAnswer.content());
            printUsage(out, toolAnswer.usage());
            usages.add(toolAnswer.usage());

            out.println("== 4. combined usage");
            TokenUsage total = usages.stream().reduce(TokenUsage.ZERO, TokenUsage::plus);
            out.printf(Locale.ROOT, "combined usage of %d calls: prompt=%d output=%d total=%d tokens/s=%.0f%n",
                    usages.size(), total.promptTokens(), total.outputTokens(), total.totalTokens(),
                    total.tokensPerSecond());

            out.println("== 5. cancelled call");
            Cancellation cancellation = new Cancellation();
            CallContext cancellable = CallContext.builder().idGenerator(ids).cancellation(cancellation).build();
            StringBuilder beforeCancel = new StringBuilder();
            try {
                engine.infer(cancellable, Request.of("Count to ten."), StreamHandler.onContent(delta -> {
                    beforeCancel.append(delta);
                    if (beforeCancel.toString().endsWith("three")) {
                        cancellation.cancel("user pressed Ctrl-C");   // e.g. from another thread
                    }
                }));
                out.println("unexpected: the call was not cancelled");
            } catch (PaganticException e) {
                out.println("streamed before the cancellation: " + beforeCancel);
                printError(out, e);
            }

            out.println("== 6. deadline exceeded");
            // A clock that the demo moves: every streamed word "takes" one second, and the deadline is three away.
            AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
            InstantSource clock = now::get;
            CallContext withDeadline = CallContext.builder().idGenerator(ids).clock(clock)
                    .timeout(Duration.ofSeconds(3)).build();
            StringBuilder beforeDeadline = new StringBuilder();
            try {
                engine.infer(withDeadline, Request.of("Count to ten."), StreamHandler.onContent(delta -> {
                    beforeDeadline.append(delta);
                    now.set(now.get().plusSeconds(1));
                }));
                out.println("unexpected: the deadline did not stop the call");
            } catch (PaganticException e) {
                out.println("streamed before the deadline: " + beforeDeadline);
                printError(out, e);
            }
        }
    }

    private static CallContext context(IdGenerator ids) {
        return CallContext.builder().idGenerator(ids).timeout(Duration.ofSeconds(30)).build();
    }

    private static void printUsage(PrintStream out, TokenUsage usage) {
        out.printf(Locale.ROOT, "usage: prompt=%d output=%d%n", usage.promptTokens(), usage.outputTokens());
    }

    private static void printError(PrintStream out, PaganticException e) {
        out.println("error: " + e.code() + " category=" + e.category().displayName() + " retryable=" + e.retryable()
                + " request_id=" + e.details().get("request_id"));
        out.println("message: " + e.description());
    }

    private static List<Message> concat(List<Message> conversation, List<Message> added, Message last) {
        List<Message> all = new ArrayList<>(conversation);
        all.addAll(added);
        all.add(last);
        return all;
    }
}
