package dev.pagantic.bench;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.langchain4j.service.AiServices;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The same chat turn as {@link OrchestrationBench#chatThreeToolRounds()} in a LangChain4j AiService: a chat model
 * that replays three tool calls and then the answer with no latency, and the same weather tool.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LangChain4jBench {

    /** The AiService interface LangChain4j implements. */
    public interface Assistant {
        /** Answers the message, calling tools as the model asks. */
        String chat(String message);
    }

    /** An AiService with structured output: LangChain4j parses the reply into the return type. */
    public interface Extractor {
        /** Lists the inventory. */
        Inventory extract(String message);
    }

    /** The shape of {@link Payloads#SCHEMA}, as a LangChain4j return type. */
    public static final class Inventory {
        /** The inventory's title. */
        public String title;
        /** Its items. */
        public List<Item> items;
    }

    /** One item of the inventory. */
    public static final class Item {
        /** The item's id. */
        public int id;
        /** The item's name. */
        public String name;
        /** Its status. */
        public Status status;
    }

    /** The item statuses. */
    public enum Status {
        /** In use. */
        active,
        /** Not in use. */
        inactive,
        /** Waiting. */
        pending
    }

    /** The weather tool, as LangChain4j declares tools. */
    public static final class Weather {
        /** The weather of a city. */
        @Tool("Weather of a city")
        public String getWeather(@P("city") String city) {
            return "Sunny in " + city;
        }
    }

    /** A chat model that replays canned responses in a cycle. */
    static final class ReplayingChatModel implements ChatModel {
        private final List<ChatResponse> responses;
        private final AtomicInteger next = new AtomicInteger();

        ReplayingChatModel(List<ChatResponse> responses) {
            this.responses = List.copyOf(responses);
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            return responses.get(Math.floorMod(next.getAndIncrement(), responses.size()));
        }
    }

    private Assistant assistant;
    private Extractor extractor;

    @Setup
    public void setUp() {
        List<ChatResponse> script = new ArrayList<>();
        String[] cities = {"Paris", "Oslo", "Rome"};
        for (int i = 0; i < OrchestrationBench.TOOL_ROUNDS; i++) {
            ToolExecutionRequest call = ToolExecutionRequest.builder().id("call-" + i).name("getWeather")
                    .arguments("{\"city\":\"" + cities[i] + "\"}").build();
            script.add(ChatResponse.builder().aiMessage(AiMessage.from(call)).tokenUsage(new TokenUsage(20, 5))
                    .build());
        }
        script.add(ChatResponse.builder().aiMessage(AiMessage.from("Sunny in Paris, Oslo and Rome."))
                .tokenUsage(new TokenUsage(40, 8)).build());
        // A fresh memory per call would be the closest match to a session-less pagantic request; a window memory
        // shared across calls keeps the conversation bounded and is what AiService examples use.
        assistant = AiServices.builder(Assistant.class).chatModel(new ReplayingChatModel(script))
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
                .tools(new Weather()).build();
        // LangChain4j cannot repair output (a fence and a trailing comma fail its parse), so it gets valid JSON: the
        // ~2 KB object a grammar-constrained model writes, as pagantic's structured2KBValid does
        extractor = AiServices.builder(Extractor.class).chatModel(new ReplayingChatModel(List.of(ChatResponse.builder()
                .aiMessage(AiMessage.from(Payloads.cleanJson(2048))).tokenUsage(new TokenUsage(30, 600)).build())))
                .build();
        if (extractor.extract("List the inventory.").items.isEmpty()) {
            throw new IllegalStateException("no items parsed");
        }
        String answer = assistant.chat("What is the weather in Paris, Oslo and Rome?");
        if (!answer.startsWith("Sunny in Paris")) {
            throw new IllegalStateException("unexpected answer: " + answer);
        }
    }

    /** One chat turn: three tool rounds and the answer (four model calls, three tool executions). */
    @Benchmark
    public String chatThreeToolRounds() {
        return assistant.chat("What is the weather in Paris, Oslo and Rome?");
    }

    /** One structured call: the ~2 KB reply parsed into {@link Inventory}. */
    @Benchmark
    public Inventory structured2KB() {
        return extractor.extract("List the inventory.");
    }
}
