package dev.pagantic.bench;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.TestModels;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Measures tool calling and extraction on a model that follows instructions, with pagantic's grammar and without it
 * (engine option {@code tool_grammar=false}; extraction without its schema grammar), over held-out questions:
 *
 * <ul>
 *   <li><b>tool choice</b>: of the questions that need a tool, the share answered with a call of the right tool, and of
 *       those that need none, the share answered in text;</li>
 *   <li><b>argument exactness</b>: of the right calls, the share whose arguments equal the expected ones;</li>
 *   <li><b>result use</b>: given the tool's result, the share of answers that contain the fact it gave;</li>
 *   <li><b>extraction exactness</b>: the share of extractions equal to the expected JSON;</li>
 *   <li><b>malformed</b>: answers that could not be read at all.</li>
 * </ul>
 *
 * The questions come from {@code tiny-instruct.questions.jsonl} beside the model when it is there (one JSON object a
 * line, the fields of {@link Question}), otherwise from the built-in set ({@code tool-calling-questions.jsonl}).
 * Run: {@code mvn -pl bench -Pbench exec:exec -Dbench.main=dev.pagantic.bench.ToolCallingEval -Dbench.args=MODEL}
 * (default: {@code tiny-instruct.gguf} in the test models' folder). Without the model it says so and ends with status
 * 2.
 */
public final class ToolCallingEval {

    /** The instruction-following test model, when it has been put beside the others. */
    public static final String MODEL = "tiny-instruct.gguf";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final List<ToolDefinition> TOOLS = List.of(
            ToolDefinition.of("get_weather", "The current weather in a city",
                    Schema.object().required("city", Schema.string()).build()),
            ToolDefinition.of("convert_currency", "Converts an amount of money between currencies",
                    Schema.object().required("amount", Schema.number()).required("from", Schema.string())
                            .required("to", Schema.string()).build()),
            ToolDefinition.of("get_time", "The current time in a time zone",
                    Schema.object().required("timezone", Schema.string()).build()));

    /**
     * One held-out question.
     *
     * @param id              a name for the report
     * @param user            the user's message
     * @param expectTool      the tool the question needs, empty when it needs none (then it is answered in text)
     * @param expectArguments the arguments of that call
     * @param toolResult      the tool's result, given back to measure its use
     * @param expectInAnswer  what the answer after the result must contain
     * @param schema          for an extraction: the JSON Schema of the answer (no tools are offered)
     * @param expectJson      for an extraction: the expected answer
     */
    public record Question(String id, String user, String expectTool, Map<String, Object> expectArguments,
                           String toolResult, String expectInAnswer, Map<String, Object> schema,
                           Map<String, Object> expectJson) {

        boolean isExtraction() {
            return !schema.isEmpty();
        }
    }

    /** Counts of one mode (with or without the grammar). */
    public static final class Figures {
        int choices;
        int rightChoices;
        int rightCalls;
        int exactArguments;
        int results;
        int resultsUsed;
        int extractions;
        int exactExtractions;
        int malformed;

        /** The figures as the cells of a Markdown table row. */
        String row(String mode) {
            return "| " + mode + " | " + share(rightChoices, choices) + " | " + share(exactArguments, rightCalls)
                    + " | " + share(resultsUsed, results) + " | " + share(exactExtractions, extractions) + " | "
                    + malformed + " |";
        }

        private static String share(int part, int whole) {
            return whole == 0 ? "–" : String.format(Locale.ROOT, "%d/%d (%.0f %%)", part, whole, 100.0 * part / whole);
        }
    }

    private ToolCallingEval() {
    }

    /** Runs the questions with and without the grammar and prints a Markdown table. */
    public static void main(String[] args) {
        Path model = args.length > 0 ? Path.of(args[0]) : TestModels.path(MODEL);
        if (!Files.isRegularFile(model)) {
            System.out.println("No model at " + model + ": put an instruction-following GGUF model there (see "
                    + "docs/engines/llamacpp.md) and run again.");
            System.exit(2);
        }
        List<Question> questions = questions(model.resolveSibling("tiny-instruct.questions.jsonl"));
        try (LlamaRuntime runtime = LlamaRuntime.create();
             LlamaCppEngine engine = LlamaCppEngine.builder().runtime(runtime).modelPath(model).contextSize(4096)
                     .build()) {
            report(System.out, model, questions, evaluate(engine, questions, true),
                    evaluate(engine, questions, false));
        }
    }

    /** The questions of the file when it exists, else the built-in ones. */
    public static List<Question> questions(Path file) {
        try (InputStream in = Files.isRegularFile(file) ? Files.newInputStream(file)
                : ToolCallingEval.class.getResourceAsStream("tool-calling-questions.jsonl")) {
            List<Question> questions = new ArrayList<>();
            for (String line : new String(Objects.requireNonNull(in).readAllBytes(), StandardCharsets.UTF_8)
                    .split("\n")) {
                if (!line.isBlank()) {
                    questions.add(question(JSON.readTree(line)));
                }
            }
            return questions;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Question question(JsonNode line) {
        return new Question(line.path("id").asString(""), line.path("user").asString(""),
                line.path("expect_tool").asString(""), map(line.path("expect_arguments")),
                line.path("tool_result").asString(""), line.path("expect_in_answer").asString(""),
                map(line.path("schema")), map(line.path("expect_json")));
    }

    private static Map<String, Object> map(JsonNode node) {
        return node.isObject() ? JSON.convertValue(node, OBJECT) : Map.of();
    }

    /** Asks every question, with or without the grammar, and counts. */
    public static Figures evaluate(Engine engine, List<Question> questions, boolean grammar) {
        Figures figures = new Figures();
        for (Question question : questions) {
            try {
                if (question.isExtraction()) {
                    extract(engine, question, grammar, figures);
                } else {
                    callOrAnswer(engine, question, grammar, figures);
                }
            } catch (PaganticException unreadable) {
                figures.malformed++;
            }
        }
        return figures;
    }

    private static Request.Builder ask(Question question, boolean grammar) {
        return Request.builder().addMessage(Message.user(question.user())).tools(TOOLS).temperature(0).seed(1)
                .maxTokens(256).option("tool_grammar", grammar);
    }

    private static void callOrAnswer(Engine engine, Question question, boolean grammar, Figures figures) {
        figures.choices++;
        Result first = engine.infer(CallContext.background(), ask(question, grammar).build());
        List<ToolCall> calls = first.toolCalls();
        if (question.expectTool().isEmpty()) {
            figures.rightChoices += calls.isEmpty() ? 1 : 0;
            return;
        }
        if (calls.isEmpty() || !calls.get(0).name().equals(question.expectTool())) {
            return;
        }
        figures.rightChoices++;
        figures.rightCalls++;
        ToolCall call = calls.get(0);
        figures.exactArguments += JSON.valueToTree(call.arguments()).equals(JSON.valueToTree(
                question.expectArguments())) ? 1 : 0;
        if (question.toolResult().isEmpty()) {
            return;
        }
        figures.results++;
        Result answer = engine.infer(CallContext.background(), ask(question, grammar)
                .addMessage(Message.assistant("", List.of(call)))
                .addMessage(Message.toolResult(call.id(), call.name(), question.toolResult())).build());
        figures.resultsUsed += answer.content().toLowerCase(Locale.ROOT)
                .contains(question.expectInAnswer().toLowerCase(Locale.ROOT)) ? 1 : 0;
    }

    private static void extract(Engine engine, Question question, boolean grammar, Figures figures) {
        figures.extractions++;
        Request.Builder request = Request.builder().addMessage(Message.user(question.user())).temperature(0).seed(1)
                .maxTokens(256);
        if (grammar) {
            request.schema(Schema.fromJsonSchema(question.schema()));
        }
        String content = engine.infer(CallContext.background(), request.build()).content().strip();
        JsonNode answer;
        try {
            answer = JSON.readTree(content);
        } catch (tools.jackson.core.JacksonException notJson) {
            figures.malformed++;
            return;
        }
        figures.exactExtractions += answer.equals(JSON.valueToTree(question.expectJson())) ? 1 : 0;
    }

    /** Prints the table docs/engines/llamacpp.md shows. */
    static void report(PrintStream out, Path model, List<Question> questions, Figures with, Figures without) {
        out.println("Model " + model.getFileName() + ", " + questions.size() + " questions, greedy decoding.");
        out.println();
        out.println("| mode | tool choice | argument exactness | result use | extraction exactness | malformed |");
        out.println("| --- | --- | --- | --- | --- | --- |");
        out.println(with.row("with pagantic's grammar"));
        out.println(without.row("without grammar"));
    }
}
