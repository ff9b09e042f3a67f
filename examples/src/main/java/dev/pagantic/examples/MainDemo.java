package dev.pagantic.examples;

import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.TestModels;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The README's main demo: what pagantic adds around a model, on a real model when one is available. It runs three
 * requests through the facade and prints each response with its event timeline:
 * <ol>
 *   <li>a chat turn in which the model calls a tool, the demo runs it, and the model answers with its result;</li>
 *   <li>a structured extraction, constrained by a grammar derived from its schema at the decoder and validated
 *       against the schema afterwards;</li>
 *   <li>a three-way vote with its confidence.</li>
 * </ol>
 * The model is {@code tiny-instruct.gguf} (a small chat model that follows instructions) when it is in the folder
 * named by {@code PAGANTIC_TEST_MODEL_DIR}, by default {@code ../shared/models} beside the repository, otherwise
 * {@code stories260K.gguf} from there. That one writes children's stories and follows no instructions, so the
 * demo asks it for what the constraints guarantee: a tool call forced by {@code tool_choice=required}, JSON that must
 * conform, votes that may disagree. Without the model it says where to put one and runs the same requests on the
 * scripted engine, labelled as such.
 *
 * <p>Run it with the README's first command; it ends by itself when {@code main} returns.
 */
public final class MainDemo {

    static final String MODEL_FILE = "stories260K.gguf";
    /** The model the demo prefers when it is there: it follows instructions. */
    static final String INSTRUCT_MODEL_FILE = "tiny-instruct.gguf";
    private static final Schema CHARACTER = Schema.object()
            .required("name", Schema.string().withMaxLength(12))
            .required("animal", Schema.enumOf("cat", "dog", "bird"))
            .required("age", Schema.integer())
            .build();
    private static final Schema MOOD = Schema.object()
            .required("mood", Schema.enumOf("happy", "sad", "calm"))
            .build();
    private static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "Current weather for a city.",
            Schema.object().required("city", Schema.string().withMaxLength(12)).build());

    private MainDemo() {
    }

    public static void main(String[] args) {
        int status = run(System.out, modelDirectory());
        if (status != 0) {
            System.exit(status); // only to report the failure: the JVM ends by itself when main returns
        }
    }

    /**
     * Runs the demo.
     *
     * @param out       where everything is printed
     * @param modelDir  where to look for the model
     * @return 0 when every request succeeded, 1 otherwise
     */
    public static int run(PrintStream out, Path modelDir) {
        Path instruct = modelDir.resolve(INSTRUCT_MODEL_FILE);
        Path model = Files.isRegularFile(instruct) ? instruct : modelDir.resolve(MODEL_FILE);
        boolean real = Files.isRegularFile(model);
        if (!real) {
            out.println("No model at " + model + ": put " + MODEL_FILE + " there (or point PAGANTIC_TEST_MODEL_DIR at"
                    + " a folder holding it) to run this demo on llama.cpp.");
            out.println("Running the same requests on the SCRIPTED engine (canned answers, no model).");
        }
        InMemoryEventLog events = InMemoryEventLog.unbounded();
        try (LlamaRuntime runtime = real ? LlamaRuntime.create() : null;
             Engine engine = real ? realEngine(runtime, model) : scriptedEngine();
             Orchestrator pagantic = Orchestrator.builder()
                     .engine(engine)
                     .systemPrompt("You are a helpful assistant.")
                     .eventLog(events)
                     .build()) {
            out.println("Engine: " + (real ? "llama.cpp, " + engine.modelInfo().name() + " (real model)"
                    : "scripted (no model)"));
            boolean ok = toolTurn(out, events, pagantic);
            ok &= show(out, events, "2. Grammar-constrained extraction, validated against its schema",
                    pagantic.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                            .user("Invent a story character.").output(OutputContract.of(CHARACTER))
                            .hints(ExecutionHints.builder().maxTokens(96).option("tool_choice", "none").build())
                            .build()));
            ok &= show(out, events, "3. A three-way vote", pagantic.execute(SystemRequest.builder()
                    .mode(Mode.REDUNDANT).user("How does the little cat feel?").output(OutputContract.of(MOOD))
                    .hints(ExecutionHints.builder().maxTokens(160).temperature(1.0).option("tool_choice", "none")
                            .build()).build()));
            out.println(ok ? "All three requests succeeded." : "Some requests failed (see above).");
            return ok ? 0 : 1;
        }
    }

    /**
     * A chat turn with a tool call: the model's call (forced by {@code tool_choice=required}) is handed back, the demo
     * runs the tool, and the model answers with its result ({@code tool_choice=none}: an answer, whatever the model
     * would choose). A small model that follows no instructions might otherwise call the tool again and again.
     */
    private static boolean toolTurn(PrintStream out, InMemoryEventLog events, Orchestrator pagantic) {
        Message question = Message.user("What is the weather in Paris?");
        SystemResponse call = pagantic.execute(SystemRequest.builder().message(question).callerTool(WEATHER)
                .hints(ExecutionHints.builder().maxTokens(256).temperature(0).option("tool_choice", "required")
                        .option("parallel_tool_calls", false).build())
                .build());
        if (!show(out, events, "1. A chat turn with a tool call", call) || call.toolCallsRequested().isEmpty()) {
            return false;
        }
        ToolCall requested = call.toolCallsRequested().get(0);
        String result = "Sunny and 24 degrees in " + requested.arguments().get("city");
        out.println("tool call:   " + requested.name() + " " + requested.arguments() + " -> " + result);
        return show(out, events, "1. ... and the answer with the tool's result", pagantic.execute(SystemRequest
                .builder().message(question).message(Message.assistant("", List.of(requested)))
                .message(Message.toolResult(requested.id(), requested.name(), result)).callerTool(WEATHER)
                .hints(ExecutionHints.builder().maxTokens(64).temperature(0).option("tool_choice", "none").build())
                .build()));
    }

    private static Engine realEngine(LlamaRuntime runtime, Path model) {
        return LlamaCppEngine.builder().runtime(runtime).modelPath(model).contextSize(2048).threads(2).seed(42)
                .build();
    }

    /** Canned answers in the order the requests ask for them: the call, the answer, the extraction, three votes. */
    private static Engine scriptedEngine() {
        return ScriptedEngine.builder()
                .capabilities(Capability.TOOLS, Capability.GRAMMAR, Capability.STREAMING)
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny in Paris, 24 degrees.")
                .reply("{\"name\": \"Tom\", \"animal\": \"Cat\", \"age\": 3")
                .reply("{\"mood\":\"happy\"}")
                .reply("{\"mood\":\"happy\"}")
                .reply("{\"mood\":\"calm\"}")
                .build();
    }

    private static boolean show(PrintStream out, InMemoryEventLog events, String title, SystemResponse response) {
        out.println();
        out.println("== " + title);
        response.toolCallsMade().forEach(call -> out.println("tool call:   " + call.name() + " " + call.arguments()
                + " -> " + call.result()));
        out.println("content:     " + oneLine(response.content()));
        response.structuredOutput().ifPresent(value -> out.println("structured:  " + value));
        response.validationResult().ifPresent(v -> out.println("validation:  " + (v.valid() ? "valid" : "INVALID")
                + (v.repaired() ? " (repaired)" : "") + ", steps " + v.stepsRun()));
        response.confidence().ifPresent(c -> out.println(String.format(Locale.ROOT, "confidence:  %.2f (%s)", c,
                response.confidenceSource().orElseThrow().wireName())));
        out.println("usage:       " + response.tokenUsage().promptTokens() + " prompt + "
                + response.tokenUsage().outputTokens() + " output tokens");
        response.error().ifPresent(error -> out.println("error:       " + error.code() + ": " + error.message()));
        out.println("timeline:");
        timeline(events.eventsOfRequest(response.requestId())).forEach(line -> out.println("  " + line));
        return response.isSuccess();
    }

    /**
     * One line per event, with its offset from the request's first event; the agent loop's summary {@code tool} event
     * is left out, as the seed-001 {@code tool_start} and {@code tool_end} events say the same.
     */
    static List<String> timeline(List<Event> events) {
        Instant start = events.isEmpty() ? Instant.EPOCH : events.get(0).timestamp();
        return events.stream().filter(event -> !event.action().equals("tool"))
                .map(event -> String.format(Locale.ROOT, "%6d ms  %-22s %s%s",
                Duration.between(start, event.timestamp()).toMillis(), event.action(), summary(event),
                event.error().map(e -> "  error " + e.code()).orElse(""))).toList();
    }

    private static String summary(Event event) {
        Map<String, Object> data = event.data();
        return switch (event.action()) {
            case "lifecycle_transition" -> data.get("from_state") + " -> " + data.get("to_state");
            case "inference_end" -> data.get("tokens_in") + " in, " + data.get("tokens_out") + " out, "
                    + data.get("finish_reason") + ", " + data.get("duration_ms") + " ms";
            case "tool_end" -> data.get("tool_name") + ", " + data.get("duration_ms") + " ms";
            case "vote" -> data.get("confidence") instanceof Number confidence
                    ? String.format(Locale.ROOT, "%s candidates, confidence %.2f", data.get("candidates"),
                            confidence.doubleValue())
                    : data.get("candidates") + " candidates, no confidence";
            default -> Optional.ofNullable(data.get("tool_name")).map(Object::toString).orElse("");
        };
    }

    /** PAGANTIC_TEST_MODEL_DIR, or ../shared/models from the repository root (see {@link TestModels}). */
    static Path modelDirectory() {
        return TestModels.directory();
    }

    private static String oneLine(String text) {
        String line = text.replace('\n', ' ').strip();
        return line.length() > 100 ? line.substring(0, 100) + "..." : line;
    }
}
