package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.FinishReason;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every tool-call family on a real llama.cpp model: a tiny GGUF made from stories260K's tensors with the family's
 * published chat template ({@code templates/}). For each, the engine recognises the format the way llama.cpp b4916
 * does, the prompt carries the family's own tool instructions and renders earlier calls and tool results in its
 * syntax, a forced call is written under the family's grammar and read back into valid calls, and, where the family's
 * text is free, the model's text passes as the answer. The model writes stories, not calls: only the grammar makes
 * its calls, which is what is under test.
 */
class ToolFormatTest {

    /** The families, each with its template and what its prompt must show. */
    enum Family {
        HERMES("Qwen-Qwen2.5-7B-Instruct.jinja", "Hermes 2 Pro", true,
                List.of("<tools>", "within <tool_call></tool_call> XML tags"),
                List.of("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
                        "<tool_response>\nSunny\n</tool_response>")),
        LLAMA_3_X("meta-llama-Llama-3.2-3B-Instruct.jinja", "Llama 3.x", true,
                List.of("You have access to the following functions. To call a function, please respond with JSON "
                        + "for a function call.", "\"get_weather\""),
                List.of("{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}",
                        "<|start_header_id|>ipython<|end_header_id|>\n\n\"Sunny\"")),
        MISTRAL_NEMO("mistralai-Mistral-Nemo-Instruct-2407.jinja", "Mistral Nemo", true,
                List.of("[AVAILABLE_TOOLS]", "\"get_weather\""),
                List.of("[TOOL_CALLS][{\"name\": \"get_weather\"", "[TOOL_RESULTS]{\"content\": Sunny",
                        "\"id\": \"" + MistralNemoFormat.templateId("call_1") + "\"")),
        FIREFUNCTION_V2("fireworks-ai-llama-3-firefunction-v2.jinja", "FireFunction v2", true,
                List.of("prefix function calls with functools marker", "\"get_weather\""),
                List.of(" functools[{\"name\": \"get_weather\"", "<|start_header_id|>tool<|end_header_id|>\n\nSunny")),
        COMMAND_R7B("CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja", "Command R7B", true,
                List.of("## Available Tools", "\"name\": \"get_weather\""),
                List.of("<|START_ACTION|>[", "\"tool_name\": \"get_weather\"", "<|START_TOOL_RESULT|>", "Sunny")),
        DEEPSEEK_R1("deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", "DeepSeek R1", true,
                List.of("get_weather", "city"),
                List.of("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n",
                        "<｜tool▁output▁begin｜>Sunny")),
        FUNCTIONARY_V3_1("meetkai-functionary-medium-v3.1.jinja", "Functionary v3.1 Llama 3.1", true,
                List.of("You have access to the following functions", "Use the function 'get_weather'"),
                List.of("<function=get_weather>", "</function>", "<|start_header_id|>ipython<|end_header_id|>\n\nSunny")),
        FUNCTIONARY_V3_2("meetkai-functionary-medium-v3.2.jinja", "Functionary v3.2", false,
                List.of("// Supported function definitions that should be called when necessary.", "type get_weather"),
                List.of(">>>get_weather\n", "<|start_header_id|>tool<|end_header_id|>\n\nSunny")),
        GENERIC("microsoft-Phi-3.5-mini-instruct.jinja", "Generic", false,
                List.of("Respond with one JSON object and nothing else", "\"get_weather\"", "{\"response\": "),
                List.of("<|assistant|>\n{\"tool_call\":{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}",
                        "{\"tool_response\":{\"tool\":\"get_weather\",\"tool_call_id\":\"call_1\",\"content\":\"Sunny\"}}"));

        final String template;
        final String format;
        final boolean freeText;
        final List<String> instructions;
        final List<String> history;

        Family(String template, String format, boolean freeText, List<String> instructions, List<String> history) {
            this.template = template;
            this.format = format;
            this.freeText = freeText;
            this.instructions = instructions;
            this.history = history;
        }
    }

    private static final Map<Family, LlamaCppEngine> ENGINES = new EnumMap<>(Family.class);
    private static Path models;

    @BeforeAll
    static void makeModels() throws IOException {
        models = Files.createTempDirectory("pagantic-tool-formats");
    }

    @AfterAll
    static void close() throws IOException {
        ENGINES.values().forEach(LlamaCppEngine::close);
        try (var files = Files.list(models)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(models);
    }

    static String template(String file) {
        try (InputStream in = ToolFormatTest.class.getResourceAsStream("templates/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An engine on the family's tiny model (a large context: Command R7B's system prompt alone is long). */
    static LlamaCppEngine engine(Family family) {
        return ENGINES.computeIfAbsent(family, f -> {
            try {
                Path model = GgufFiles.withTemplate(TestModels.model(TestModels.STORIES),
                        models.resolve(f.name() + ".gguf"), template(f.template));
                return LlamaCppEngine.builder().runtime(TestModels.runtime()).modelPath(model).contextSize(8192)
                        .threads(2).build();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static Request.Builder weather() {
        return Request.builder().addMessage(Message.user("What is the weather in Paris?"))
                .addTool(ToolFormatReadingTest.WEATHER).addTool(ToolFormatReadingTest.CLOCK).temperature(0).seed(5);
    }

    @ParameterizedTest
    @EnumSource(Family.class)
    void theTemplateIsRecognisedAsLlamaCppDoesAndItsPromptTeachesTheFamilysToolFormat(Family family) {
        LlamaCppEngine engine = engine(family);
        Request request = weather().build();

        assertThat(engine.toolFormat(request)).isEqualTo(family.format);
        String prompt = engine.prompt(request);
        assertThat(prompt).contains(family.instructions);
        assertThat(prompt).doesNotContain("Respond in JSON format, either with `tool_call`");
    }

    @ParameterizedTest
    @EnumSource(Family.class)
    void earlierCallsAndToolResultsAreRenderedInTheFamilysSyntax(Family family) {
        Request request = weather()
                .addMessage(Message.assistant("", List.of(ToolCall.of("call_1", "get_weather", Map.of("city", "Paris")))))
                .addMessage(Message.toolResult("call_1", "get_weather", "Sunny"))
                .build();

        assertThat(engine(family).prompt(request)).contains(family.history);
    }

    @ParameterizedTest
    @EnumSource(Family.class)
    void aForcedCallIsWrittenUnderTheFamilysGrammarAndReadIntoValidCalls(Family family) {
        List<String> streamed = new ArrayList<>();
        List<ToolCall> announced = new ArrayList<>();
        Result result = engine(family).infer(CallContext.background(),
                weather().option("tool_choice", "required").option("parallel_tool_calls", false).maxTokens(400)
                        .build(),
                new StreamHandler() {
                    @Override
                    public void onContent(String delta) {
                        streamed.add(delta);
                    }

                    @Override
                    public void onToolCall(ToolCall call) {
                        announced.add(call);
                    }
                });

        assertThat(result.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(result.toolCalls()).hasSize(1).allSatisfy(call -> {
            assertThat(call.name()).isIn("get_weather", "get_time");
            if (call.name().equals("get_weather")) {
                assertThat(call.arguments()).containsOnlyKeys("city");
                assertThat((String) call.arguments().get("city")).hasSizeLessThanOrEqualTo(16);
            } else {
                assertThat(call.arguments()).isEmpty();
            }
        });
        assertThat(announced).isEqualTo(result.toolCalls());
        assertThat(String.join("", streamed)).isEqualTo(result.content());
    }

    @ParameterizedTest
    @EnumSource(Family.class)
    void withoutAForcedCallTheModelsTextPassesAsTheAnswerWhereTheFamilyKeepsTextFree(Family family) {
        List<String> streamed = new ArrayList<>();
        // Where text needs the format's own form (a JSON response, Functionary's "all"), the model may as well call
        // a tool: room for a whole call.
        Result result = engine(family).infer(CallContext.background(),
                weather().maxTokens(family.freeText ? 24 : 400).build(), StreamHandler.onContent(streamed::add));

        if (family.freeText) {
            assertThat(result.toolCalls()).isEmpty();
            assertThat(result.content()).isNotBlank();
        } else {
            assertThat(result.hasToolCalls() || !result.content().isEmpty()).isTrue();
        }
        assertThat(String.join("", streamed)).isEqualTo(result.content());
    }
}
