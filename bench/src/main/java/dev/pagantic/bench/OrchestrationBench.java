package dev.pagantic.bench;

import dev.pagantic.adapter.opentelemetry.PaganticTelemetry;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Result;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.StaticPlanner;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.loop.ToolEvents;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.types.OutputType;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the orchestration costs around a zero-latency engine, through the facade: a chat turn with three tool rounds,
 * a structured call on a ~2 KB object that needs repair and enum normalisation, a five-step plan and a three-replica
 * redundant call; each with a no-op event log and with an in-memory one (the cost of recording events).
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class OrchestrationBench {

    /** Tool rounds in the chat turn; the engine answers after the last one. */
    static final int TOOL_ROUNDS = 3;

    /**
     * {@code noop}: {@code EventLog.noOp()}; {@code memory}: a bounded in-memory log; {@code otel}: the no-op log and
     * the OpenTelemetry observer on the SDK with a batch span processor and no exporter (spans and metrics recorded,
     * nothing sent).
     */
    @Param({"noop", "memory", "otel"})
    public String eventLog;

    /**
     * How the isolated chat tool is handed to its thread and back: {@code default}, the tool executor's defaults (a
     * virtual thread per call on Java 21+, else its platform threads; both sides spin up to 20 µs before parking);
     * {@code park}: the same threads, parking at once ({@code spinWait(ZERO)}, the hand-off before spinning);
     * {@code platform} and {@code platform-park}: the same two on the platform threads on every JVM.
     */
    @Param({"default"})
    public String handOff = "default";

    private ToolExecutor chatTools;
    private Orchestrator chat;
    private Orchestrator chatInline;
    private Orchestrator structured;
    private Orchestrator structuredValid;
    private Orchestrator plan;
    private Orchestrator redundant;
    private SpecializedLoop typed;
    private final List<ReplayingEngine> engines = new ArrayList<>();
    private OpenTelemetrySdk sdk;

    private static final SystemRequest CHAT = SystemRequest.builder().user("What is the weather in Paris, Oslo and Rome?")
            .build();
    private static final SystemRequest STRUCTURED = SystemRequest.builder().mode(Mode.STRUCTURED)
            .user("List the inventory.").output(OutputContract.of(Payloads.SCHEMA)).build();
    private static final SystemRequest PLAN = SystemRequest.builder().mode(Mode.PLAN).user("Write a story.").build();
    private static final SystemRequest REDUNDANT = SystemRequest.builder().mode(Mode.REDUNDANT)
            .user("Classify: I love it.").output(OutputContract.of(Schema.object()
                    .required("sentiment", Schema.enumOf("positive", "negative", "neutral")).build())).build();

    /** {@link Payloads#SCHEMA} as a Java type: what LangChain4j's {@code structured2KB} parses into. */
    public record Inventory(String title, List<Item> items) {
    }

    /** One item of the inventory. */
    public record Item(int id, String name, LangChain4jBench.Status status) {
    }

    /** The type's output type: its schema is {@link Payloads#SCHEMA}'s, with an {@code int}'s range on {@code id}. */
    static final OutputType<Inventory> INVENTORY = OutputType.of(Inventory.class);

    /**
     * The weather tool both this benchmark and the LangChain4j one call; {@code inline}: run on the caller's thread,
     * as LangChain4j runs its tools, rather than isolated on the tool executor's pool with an enforced timeout.
     */
    static Tool weatherTool(boolean inline) {
        Schema city = Schema.object().required("city", Schema.string()).build();
        return Tool.builder(ToolDefinition.of("get_weather", "Weather of a city", city)).inline(inline)
                .handler((ctx, args) -> "Sunny in " + args.get("city")).build();
    }

    /** Three tool-call results, then the answer. */
    static List<Result> toolRounds() {
        List<Result> script = new ArrayList<>();
        String[] cities = {"Paris", "Oslo", "Rome"};
        for (int i = 0; i < TOOL_ROUNDS; i++) {
            script.add(Result.builder().toolCalls(List.of(ToolCall.of("call-" + i, "get_weather",
                    Map.of("city", cities[i])))).usage(TokenUsage.of(20, 5)).build());
        }
        script.add(Result.builder().content("Sunny in Paris, Oslo and Rome.").usage(TokenUsage.of(40, 8)).build());
        return script;
    }

    @Setup(Level.Trial)
    public void setUp() {
        EventLog chatLog = newLog();
        Orchestrator.Builder chatBuilder = orchestrator(toolRounds(), chatLog)
                .tools(ToolRegistry.of(weatherTool(false)));
        if (!"default".equals(handOff)) { // with the otel observer, its tool events are not seen then
            chatTools = ToolExecutor.builder().observer(ToolEvents.observer(chatLog))
                    .virtualThreads(!handOff.startsWith("platform"))
                    .spinWait(handOff.endsWith("park") ? Duration.ZERO : ToolExecutor.DEFAULT_SPIN_WAIT).build();
            chatBuilder.toolExecutor(chatTools);
        }
        chat = chatBuilder.build();
        chatInline = orchestrator(toolRounds()).tools(ToolRegistry.of(weatherTool(true))).build();
        structured = orchestrator(List.of(Result.of(Payloads.messyJson(2048), TokenUsage.of(30, 600)))).build();
        structuredValid = orchestrator(List.of(Result.of(Payloads.cleanJson(2048), TokenUsage.of(30, 600)))).build();
        ReplayingEngine typedEngine = new ReplayingEngine(List.of(Result.of(Payloads.cleanJson(2048),
                TokenUsage.of(30, 600))));
        engines.add(typedEngine);
        typed = SpecializedLoop.builder().engine(typedEngine).schema(INVENTORY.schema())
                .eventLog(newLog()).build();
        StringBuilder steps = new StringBuilder("{\"rationale\":\"five passes\",\"steps\":[");
        for (int i = 1; i <= 5; i++) {
            steps.append(i > 1 ? "," : "").append("{\"name\":\"pass").append(i).append("\",\"type\":\"infer\"}");
        }
        plan = orchestrator(List.of(Result.of("Once upon a time.", TokenUsage.of(10, 5))))
                .planner(StaticPlanner.fromJson(steps.append("]}").toString())).build();
        Result positive = Result.of("{\"sentiment\":\"positive\"}", TokenUsage.of(10, 5));
        Result negative = Result.of("{\"sentiment\":\"negative\"}", TokenUsage.of(10, 5));
        redundant = orchestrator(List.of(positive, positive, negative)).build();
        // Fail fast on a benchmark that measures an error path rather than the work it names.
        requireOk(chat.execute(CHAT), "chat");
        requireOk(chatInline.execute(CHAT), "chat, inline tool");
        requireOk(structured.execute(STRUCTURED), "structured");
        requireOk(structuredValid.execute(STRUCTURED), "structured, valid");
        requireOk(plan.execute(PLAN), "plan");
        requireOk(redundant.execute(REDUNDANT), "redundant");
        if (structured2KBToType().items().isEmpty() || specialized2KBToType().items().isEmpty()) {
            throw new IllegalStateException("no items converted");
        }
        engines.forEach(ReplayingEngine::rewind);
    }

    private Orchestrator.Builder orchestrator(List<Result> script) {
        return orchestrator(script, newLog());
    }

    private EventLog newLog() {
        return "memory".equals(eventLog) ? InMemoryEventLog.bounded(100_000) : EventLog.noOp();
    }

    private Orchestrator.Builder orchestrator(List<Result> script, EventLog log) {
        ReplayingEngine engine = new ReplayingEngine(script);
        engines.add(engine);
        Orchestrator.Builder builder = Orchestrator.builder().engine(engine).eventLog(log);
        return "otel".equals(eventLog) ? builder.observer(PaganticTelemetry.create(openTelemetry())) : builder;
    }

    private OpenTelemetrySdk openTelemetry() {
        if (sdk == null) {
            sdk = OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder()
                            .addSpanProcessor(BatchSpanProcessor.builder(SpanExporter.composite()).build()).build())
                    .setMeterProvider(SdkMeterProvider.builder().build())
                    .build();
        }
        return sdk;
    }

    private static void requireOk(SystemResponse response, String what) {
        if (response.error().isPresent()) {
            throw new IllegalStateException(what + " failed: " + response.error().get());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (Orchestrator orchestrator : List.of(chat, chatInline, structured, structuredValid, plan, redundant)) {
            orchestrator.close();
        }
        typed.close();
        if (chatTools != null) {
            chatTools.close();
        }
        if (sdk != null) {
            sdk.close();
        }
    }

    /** One chat turn: three tool rounds and the answer (four engine calls, three tool executions). */
    @Benchmark
    public SystemResponse chatThreeToolRounds() {
        return chat.execute(CHAT);
    }

    /** The same turn with the tool run on the caller's thread ({@link Tool#inline()}), as LangChain4j does. */
    @Benchmark
    public SystemResponse chatThreeToolRoundsInlineTool() {
        return chatInline.execute(CHAT);
    }

    /** One structured call: repair, enum normalisation and validation of a ~2 KB object. */
    @Benchmark
    public SystemResponse structured2KB() {
        return structured.execute(STRUCTURED);
    }

    /** The same call on output that is already valid, as a grammar-constrained model writes it: validation only. */
    @Benchmark
    public SystemResponse structured2KBValid() {
        return structuredValid.execute(STRUCTURED);
    }

    /**
     * Valid ~2 KB output to a Java type through the facade: validation, then
     * {@link SystemResponse#structuredOutput(OutputType)} (LangChain4j's {@code structured2KB} does the same work but
     * the validation).
     */
    @Benchmark
    public Inventory structured2KBToType() {
        return structuredValid.execute(STRUCTURED).structuredOutput(INVENTORY).orElseThrow();
    }

    /** The same through {@link SpecializedLoop#call(CallContext, String, OutputType)}: the parsed tree to the type. */
    @Benchmark
    public Inventory specialized2KBToType() {
        return typed.call(CallContext.background(), "List the inventory.", INVENTORY);
    }

    /** One plan of five infer steps. */
    @Benchmark
    public SystemResponse planFiveSteps() {
        return plan.execute(PLAN);
    }

    /** One redundant call with three replicas and voting. */
    @Benchmark
    public SystemResponse redundantThree() {
        return redundant.execute(REDUNDANT);
    }
}
