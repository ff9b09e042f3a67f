package dev.pagantic.examples;

import dev.pagantic.core.Schema;
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
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
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
 *   <li>a chat turn in which the model calls a tool and then answers with the tool's result;</li>
 *   <li>a structured extraction, constrained by a grammar derived from its schema at the decoder and validated
 *       against the schema afterwards;</li>
 *   <li>a three-way vote with its confidence.</li>
 * </ol>
 * The model is {@code stories260K.gguf} from the folder named by {@code PAGANTIC_TEST_MODEL_DIR}, by default
 * {@code ../shared/models} beside the repository. It writes children's stories and follows no instructions, so the
 * demo asks it for what the constraints guarantee: a tool call forced by {@code tool_choice=required}, JSON that must
 * conform, votes that may disagree. Without the model it says where to put one and runs the same requests on the
 * scripted engine, labelled as such.
 *
 * <p>Run it with the README's first command; it exits by itself (a loaded model would keep the JVM alive).
 */
public final class MainDemo {

    static final String MODEL_FILE = "stories260K.gguf";
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
        Path model = modelDir.resolve(MODEL_FILE);
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
                     .tools(ToolRegistry.of(weatherTool()))
                     .systemPrompt("You are a helpful assistant.")
                     .eventLog(events)
                     .build()) {
            out.println("Engine: " + (real ? "llama.cpp, " + engine.modelInfo().name() + " (real model)"
                    : "scripted (no model)"));
            boolean ok = show(out, events, "1. A chat turn with a tool call", pagantic.execute(SystemRequest.builder()
                    .user("What is the weather in Paris?")
                    .hints(ExecutionHints.builder().maxTokens(256).temperature(0).option("tool_choice", "required")
                            .option("parallel_tool_calls", false)
                            .build())
                    .build()));
            ok &= show(out, events, "2. Grammar-constrained extraction, validated against its schema",
                    pagantic.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                            .user("Invent a story character.").output(OutputContract.of(CHARACTER))
                            .hints(ExecutionHints.builder().maxTokens(96).build()).build()));
            ok &= show(out, events, "3. A three-way vote", pagantic.execute(SystemRequest.builder()
                    .mode(Mode.REDUNDANT).user("How does the little cat feel?").output(OutputContract.of(MOOD))
                    .hints(ExecutionHints.builder().maxTokens(32).temperature(1.0).option("tool_choice", "none")
                            .build()).build()));
            out.println(ok ? "All three requests succeeded." : "Some requests failed (see above).");
            return ok ? 0 : 1;
        }
    }

    private static Engine realEngine(LlamaRuntime runtime, Path model) {
        return LlamaCppEngine.builder().runtime(runtime).modelPath(model).contextSize(2048).threads(2).seed(42)
                .build();
    }

    /** Canned answers in the order the three requests ask for them (a structured call has a tool phase first). */
    private static Engine scriptedEngine() {
        return ScriptedEngine.builder()
                .capabilities(Capability.TOOLS, Capability.GRAMMAR, Capability.STREAMING)
                .replyCallingTool("get_weather", Map.of("city", "Paris"))
                .reply("It is sunny in Paris, 24 degrees.")
                .reply("Let me think.").reply("{\"name\": \"Tom\", \"animal\": \"Cat\", \"age\": 3")
                .reply("Done.").reply("{\"mood\":\"happy\"}")
                .reply("Done.").reply("{\"mood\":\"happy\"}")
                .reply("Done.").reply("{\"mood\":\"calm\"}")
                .build();
    }

    private static Tool weatherTool() {
        return Tool.builder(WEATHER)
                .handler((ctx, args) -> "Sunny and 24 degrees in " + args.get("city"))
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
     * One line per event, with its offset from the request's first event; the loops' summary events ({@code infer},
     * {@code tool}) are left out, as the seed-001 start and end events say the same.
     */
    static List<String> timeline(List<Event> events) {
        Instant start = events.isEmpty() ? Instant.EPOCH : events.get(0).timestamp();
        return events.stream().filter(event -> !event.action().equals("infer") && !event.action().equals("tool"))
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
            case "vote" -> String.format(Locale.ROOT, "%s candidates, confidence %.2f", data.get("candidates"),
                    ((Number) data.get("confidence")).doubleValue());
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
