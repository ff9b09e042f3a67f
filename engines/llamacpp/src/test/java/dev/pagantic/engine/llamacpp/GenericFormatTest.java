package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generic format, for templates that teach no tool calls (stories260K has none: llama.cpp's ChatML fallback):
 * the prompt describes exactly the answers the grammar admits, and the rendered conversation is well formed.
 */
class GenericFormatTest {

    private static final ToolDefinition WEATHER = ToolFormatReadingTest.WEATHER;
    private static final ToolDefinition CLOCK = ToolFormatReadingTest.CLOCK;
    private static final Pattern EXAMPLE = Pattern.compile("^\\{\"(tool_call|tool_calls|response)\".*$",
            Pattern.MULTILINE);
    private static LlamaCppEngine engine;

    @BeforeAll
    static void load() {
        engine = TestModels.stories();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    /** An example line of the prompt with its placeholders filled in for the tool. */
    private static String filledIn(String example, ToolDefinition tool) {
        String arguments = tool == WEATHER ? "\"city\": \"Oslo\"" : "";
        return example.replace("<tool name>", tool.name()).replace("{<arguments>}", "{" + arguments + "}")
                .replace("<optional id>", "call_7").replace("<your reply>", "It is \\\"sunny\\\".");
    }

    private static List<String> examples(String instructions) {
        Matcher lines = EXAMPLE.matcher(instructions);
        return lines.results().map(java.util.regex.MatchResult::group).toList();
    }

    @ParameterizedTest(name = "forced {0}, parallel {1}")
    @CsvSource({"false, true", "false, false", "true, true", "true, false"})
    void everyAnswerThePromptShowsIsOneTheGrammarAdmitsAndNoOther(boolean forced, boolean parallel) {
        ToolSpec spec = new ToolSpec(List.of(WEATHER, CLOCK), forced, parallel ? ToolSpec.MAX_PARALLEL_CALLS : 1);
        String instructions = GenericFormat.instructions(List.of(WEATHER, CLOCK), spec);
        GbnfGrammar grammar = new GenericFormat().grammar(spec);
        List<String> examples = examples(instructions);

        assertThat(examples).isNotEmpty().allSatisfy(example -> {
            for (ToolDefinition tool : List.of(WEATHER, CLOCK)) {
                String answer = filledIn(example, tool);
                assertThat(grammar.match(answer).accepted()).as("%s", answer).isTrue();
            }
        });
        for (String key : List.of("tool_call", "tool_calls", "response")) {
            boolean shown = examples.stream().anyMatch(example -> example.startsWith("{\"" + key + "\""));
            boolean named = instructions.contains("`" + key + "`");
            String answer = switch (key) {
                case "tool_call" -> "{\"tool_call\": {\"name\": \"get_time\", \"arguments\": {}}}";
                case "tool_calls" -> "{\"tool_calls\": [{\"name\": \"get_time\", \"arguments\": {}}]}";
                default -> "{\"response\": \"Hello\"}";
            };
            assertThat(grammar.accepts(answer)).as("%s admitted", key).isEqualTo(shown).isEqualTo(named);
        }
        assertThat(grammar.accepts("It is sunny.")).as("text outside JSON").isFalse();
    }

    @Test
    void theSystemMessageHoldsTheToolsAndEndsOnceWithoutStrayEndMarkers() {
        String prompt = engine.prompt(Request.builder().addMessage(Message.system("Be brief."))
                .addMessage(Message.user("Weather in Paris?"))
                .addMessage(Message.assistant("", List.of(ToolCall.of("call_1", "get_weather", Map.of("city", "Paris")))))
                .addMessage(Message.toolResult("call_1", "get_weather", "Sunny"))
                .addTool(WEATHER).addTool(CLOCK).build());

        String system = prompt.substring(0, prompt.indexOf("<|im_end|>"));
        assertThat(system).startsWith("<|im_start|>system\nBe brief.\n\nYou can call these tools")
                .contains("\"get_weather\"", "\"get_time\"", "{\"response\": \"<your reply>\"}").endsWith("}}");
        String[] turns = prompt.split("<\\|im_end\\|>\n", -1);
        assertThat(Arrays.stream(turns).limit(turns.length - 1L))
                .as("every end marker closes a turn that opened").allSatisfy(turn ->
                        assertThat(turn).startsWith("<|im_start|>").doesNotContain("<|im_end|>"));
        assertThat(prompt).contains("<|im_start|>assistant\n{\"tool_call\":{\"name\":\"get_weather\","
                        + "\"arguments\":{\"city\":\"Paris\"},\"id\":\"call_1\"}}<|im_end|>",
                "<|im_start|>user\n{\"tool_response\":{\"tool\":\"get_weather\",\"tool_call_id\":\"call_1\","
                        + "\"content\":\"Sunny\"}}<|im_end|>")
                .doesNotContain("Respond in JSON format, either with `tool_call`").endsWith("<|im_start|>assistant\n");
    }

    @Test
    void aChatWithoutToolsIsRenderedAsTextAndEarlierAnswersBecomeResponsesOnceToolsAreOffered() {
        Request.Builder chat = Request.builder().addMessage(Message.user("Hi")).addMessage(Message.assistant("Hello!"))
                .addMessage(Message.user("Weather?"));

        assertThat(engine.prompt(chat.build())).contains("<|im_start|>assistant\nHello!<|im_end|>")
                .doesNotContain("response");
        assertThat(engine.prompt(chat.addTool(WEATHER).build()))
                .contains("<|im_start|>assistant\n{\"response\":\"Hello!\"}<|im_end|>");
    }

    @Test
    void aNamedToolIsTheOneThePromptAsksForAndTheOnlyOneTheGrammarAdmits() {
        Request named = Request.builder().addMessage(Message.user("What time is it?")).addTool(WEATHER)
                .addTool(CLOCK).option("tool_choice", Map.of("type", "function", "function", Map.of("name",
                        "get_time"))).option("parallel_tool_calls", false).build();
        ToolSpec spec = new ToolSpec(List.of(CLOCK), true, 1);

        assertThat(engine.prompt(named)).contains("You must call `get_time`.", "\"get_weather\"")
                .doesNotContain("{\"response\": ");
        assertThat(new GenericFormat().grammar(spec).accepts("{\"tool_call\": {\"name\": \"get_weather\", "
                + "\"arguments\": {\"city\": \"Oslo\"}}}")).isFalse();
        assertThat(engine.infer(named.toBuilder().maxTokens(200).temperature(0).build()).toolCalls())
                .extracting(ToolCall::name).containsExactly("get_time");
    }

    @Test
    void aToolWhoseParametersAreAnEmptySchemaTakesAnyObjectAsArgumentsAndNothingElse() {
        ToolSpec spec = new ToolSpec(List.of(ToolDefinition.of("ping", "", Schema.any())), true, 1);
        GbnfGrammar grammar = new GenericFormat().grammar(spec);

        assertThat(grammar.accepts("{\"tool_call\": {\"name\": \"ping\", \"arguments\": {\"x\": [1]}}}")).isTrue();
        assertThat(grammar.accepts("{\"tool_call\": {\"name\": \"ping\", \"arguments\": [1]}}")).isFalse();
    }
}
