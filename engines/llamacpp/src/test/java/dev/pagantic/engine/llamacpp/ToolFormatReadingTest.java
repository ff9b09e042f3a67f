package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each tool-call format on text, without a model: an answer written in the family's syntax is one its grammar admits
 * and reads back into the right calls; plain text passes when no call is forced; a malformed call is
 * {@code INFERENCE_MALFORMED_RESPONSE}; what streams while the answer is written never shows the call's markup.
 */
class ToolFormatReadingTest {

    static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "Weather of a city",
            Schema.object().required("city", Schema.string().withMaxLength(16)).build());
    static final ToolDefinition CLOCK = ToolDefinition.of("get_time", "The time", Schema.object().build());
    private static final List<ToolDefinition> TOOLS = List.of(WEATHER, CLOCK);
    private static final ToolSpec AUTO = new ToolSpec(TOOLS, false, ToolSpec.MAX_PARALLEL_CALLS);
    private static final ToolSpec FORCED = new ToolSpec(TOOLS, true, ToolSpec.MAX_PARALLEL_CALLS);
    private static final CallContext CTX = CallContext.background();
    private static final ToolCall PARIS = ToolCall.of("x", "get_weather", Map.of("city", "Paris"));
    private static final ToolCall TIME = ToolCall.of("x", "get_time", Map.of());

    /**
     * One family's answers as its model writes them.
     *
     * @param call     one call of get_weather for Paris, after the text {@code content} (may be empty)
     * @param twoCalls that call and one of get_time, or empty when the family shows one call per answer
     * @param text     a plain answer, read as {@code answer}
     */
    record Case(ToolFormat format, String call, String content, String twoCalls, String text, String answer,
                String malformed) {
        @Override
        public String toString() {
            return format.name();
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case(new GenericFormat(), "{\"tool_call\": {\"name\": \"get_weather\", \"arguments\": "
                        + "{\"city\": \"Paris\"}, \"id\": \"call_1\"}}", "",
                        "{\"tool_calls\": [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, "
                                + "{\"name\": \"get_time\", \"arguments\": {}}]}",
                        "{\"response\": \"It is sunny in \\\"Paris\\\".\"}", "It is sunny in \"Paris\".",
                        "{\"tool_call\": {\"arguments\": {}}}"),
                new Case(new HermesFormat(), "I will check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
                        + "{\"city\": \"Paris\"}}\n</tool_call>", "I will check.\n",
                        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n"
                                + "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>",
                        "It is sunny.", "It is sunny.", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "),
                new Case(new Llama3xFormat(false), "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}",
                        "", "", "It is sunny.", "It is sunny.", "{\"name\": \"get_weather\", \"parameters\": 7}"),
                new Case(new MistralNemoFormat(), "Checking.[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": "
                        + "{\"city\": \"Paris\"}, \"id\": \"abcDEF123\"}]", "Checking.",
                        "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}, \"id\": "
                                + "\"abcDEF123\"}, {\"name\": \"get_time\", \"arguments\": {}, \"id\": \"a1b2c3d4e\"}]",
                        "It is sunny.", "It is sunny.", "[TOOL_CALLS][{\"name\": \"get_weather\"}"),
                new Case(new FireFunctionFormat(), " functools[{\"name\": \"get_weather\", \"arguments\": "
                        + "{\"city\": \"Paris\"}}]", "",
                        " functools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, "
                                + "{\"name\": \"get_time\", \"arguments\": {}}]",
                        "It is sunny.", "It is sunny.", " functools[{\"name\": \"get_weather\", \"arguments\": []}]"),
                new Case(new CommandR7bFormat(), "<|START_THINKING|>I need the weather.<|END_THINKING|>"
                        + "<|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", "
                        + "\"parameters\": {\"city\": \"Paris\"}}\n]<|END_ACTION|>", "",
                        "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\", \"parameters\": "
                                + "{\"city\": \"Paris\"}}, {\"tool_call_id\": \"1\", \"tool_name\": \"get_time\", "
                                + "\"parameters\": {}}]<|END_ACTION|>",
                        "<|START_RESPONSE|>It is sunny.<|END_RESPONSE|>", "It is sunny.",
                        "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"get_weather\"}]"),
                new Case(new DeepSeekR1Format(), "<think>\nLet me see.\n</think>\n\n<｜tool▁calls▁begin｜>"
                        + "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\"}\n```"
                        + "<｜tool▁call▁end｜><｜tool▁calls▁end｜>", "",
                        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
                                + "{\"city\": \"Paris\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function"
                                + "<｜tool▁sep｜>get_time\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
                        "<think>Easy.</think>It is sunny.", "It is sunny.",
                        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n{\"city\": 1}"),
                new Case(new FunctionaryV31Format(), "<function=get_weather>{\"city\": \"Paris\"}</function>", "",
                        "<function=get_weather>{\"city\": \"Paris\"}</function>\n<function=get_time>{}</function>",
                        "It is sunny.", "It is sunny.", "<function=get_weather>{\"city\": \"Paris\"}"),
                new Case(new FunctionaryV32Format(), "all\nLet me check.>>>get_weather\n{\"city\": \"Paris\"}",
                        "Let me check.", "get_weather\n{\"city\": \"Paris\"}\n>>>get_time\n{}",
                        "all\nIt is sunny.", "It is sunny.", "get_weather\n{\"city\": "));
    }

    private static void sameCalls(List<ToolCall> actual, ToolCall... expected) {
        assertThat(actual).extracting(ToolCall::name, ToolCall::arguments)
                .containsExactly(Stream.of(expected).map(call -> org.assertj.core.groups.Tuple.tuple(call.name(),
                        call.arguments())).toArray(org.assertj.core.groups.Tuple[]::new));
        assertThat(actual).extracting(ToolCall::id).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id)
                .isNotBlank());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aCallInTheFamilysSyntaxIsAdmittedByItsGrammarAndReadBackIntoTheCall(Case c) {
        GbnfGrammar grammar = c.format().grammar(AUTO);

        assertThat(grammar.match(c.call()).accepted()).as("%s", grammar.match(c.call())).isTrue();
        ToolReply reply = c.format().parse(c.call(), AUTO, CTX);
        sameCalls(reply.calls(), PARIS);
        assertThat(reply.content()).isEqualTo(c.content());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void parallelCallsAreAdmittedAndReadWhereTheFamilyHasThemAndRefusedWithoutParallelCalls(Case c) {
        if (c.twoCalls().isEmpty()) {
            assertThat(c.format().grammar(AUTO).accepts(c.call() + c.call())).isFalse();
            return;
        }
        assertThat(c.format().grammar(AUTO).accepts(c.twoCalls())).isTrue();
        sameCalls(c.format().parse(c.twoCalls(), AUTO, CTX).calls(), PARIS, TIME);
        assertThat(c.format().grammar(new ToolSpec(TOOLS, false, 1)).accepts(c.twoCalls())).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plainTextIsAnAnswerUnlessACallIsForced(Case c) {
        assertThat(c.format().grammar(AUTO).accepts(c.text())).isTrue();
        ToolReply reply = c.format().parse(c.text(), AUTO, CTX);
        assertThat(reply.calls()).isEmpty();
        assertThat(reply.content()).isEqualTo(c.answer());
        assertThat(c.format().grammar(FORCED).accepts(c.text())).isFalse();
        assertThat(c.format().grammar(FORCED).accepts(c.twoCalls().isEmpty() ? c.call() : c.twoCalls())).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aMalformedCallIsAMalformedResponseAndIsOutsideTheGrammar(Case c) {
        assertThat(c.format().grammar(AUTO).accepts(c.malformed())).isFalse();
        assertThatThrownBy(() -> c.format().parse(c.malformed(), AUTO, CTX))
                .isInstanceOfSatisfying(PaganticException.class, failure -> {
                    assertThat(failure.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
                    assertThat(failure.details()).containsEntry("output", c.malformed());
                });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void whatStreamsWhileTheAnswerIsWrittenGrowsIntoItsTextAndNeverShowsTheCall(Case c) {
        for (String output : List.of(c.call(), c.text())) {
            String sent = "";
            for (int end = 1; end <= output.length(); end++) {
                String sofar = c.format().partial(output.substring(0, end)).content();
                assertThat(sofar).as("%s after %s", c, output.substring(0, end)).startsWith(sent);
                sent = sofar;
            }
            ToolReply reply = c.format().parse(output, AUTO, CTX);
            assertThat(reply.content()).startsWith(sent);
            assertThat(sent).doesNotContain("get_weather");
        }
    }

    @Test
    void aCallNamingAnotherToolThanTheOneToolChoiceNamesIsOutsideTheGrammar() {
        ToolSpec named = new ToolSpec(List.of(CLOCK), true, 1);
        HermesFormat hermes = new HermesFormat();

        assertThat(hermes.grammar(named).accepts("<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n"
                + "</tool_call>")).isTrue();
        assertThat(hermes.grammar(named).accepts("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
                + "{\"city\": \"Paris\"}}\n</tool_call>")).isFalse();
    }

    @Test
    void llama31CallsItsBuiltInToolsWithThePythonTagAndItsOtherToolsWithJson() {
        ToolDefinition search = ToolDefinition.of("brave_search", "Searches the web",
                Schema.object().required("query", Schema.string()).build());
        ToolSpec spec = new ToolSpec(List.of(search, WEATHER), false, 1);
        Llama3xFormat llama31 = new Llama3xFormat(true);
        String builtin = "<|python_tag|>brave_search.call(query=\"weather in Paris\")";

        assertThat(llama31.grammar(spec).accepts(builtin)).isTrue();
        assertThat(new Llama3xFormat(false).parse(builtin, spec, CTX).calls()).as("text without built-in tools")
                .isEmpty();
        sameCalls(llama31.parse(builtin, spec, CTX).calls(),
                ToolCall.of("x", "brave_search", Map.of("query", "weather in Paris")));
        assertThat(llama31.grammar(spec).accepts("<|python_tag|>get_weather.call(city=\"Paris\")")).isFalse();
        assertThat(llama31.partial("<|python").content()).isEmpty();
    }

    @Test
    void functionary31CallsThePythonToolWithRawCode() {
        ToolDefinition python = ToolDefinition.of("python", "Runs code",
                Schema.object().required("source", Schema.string()).build());
        ToolSpec spec = new ToolSpec(List.of(python), false, 1);
        String output = "<|python_tag|>print(6 * 7)";

        assertThat(new FunctionaryV31Format().grammar(spec).accepts(output)).isTrue();
        sameCalls(new FunctionaryV31Format().parse(output, spec, CTX).calls(),
                ToolCall.of("x", "python", Map.of("source", "print(6 * 7)")));
    }

    @Test
    void mistralAndCommandR7bKeepTheIdsTheirTemplatesReferBackTo() {
        assertThat(new MistralNemoFormat().parse("[TOOL_CALLS][{\"name\": \"get_time\", \"arguments\": {}, "
                + "\"id\": \"abcDEF123\"}]", AUTO, CTX).calls()).extracting(ToolCall::id).containsExactly("abcDEF123");
        assertThat(MistralNemoFormat.templateId("call_17")).matches("[a-zA-Z0-9]{9}")
                .isEqualTo(MistralNemoFormat.templateId("call_17"));
        assertThat(MistralNemoFormat.templateId("abcDEF123")).isEqualTo("abcDEF123");
    }

    @Test
    void theGenericResponseStreamsDecodedAsItIsWritten() {
        assertThat(GenericFormat.responseSoFar("{\"response\": \"caf\\u00e9 \\ud83d")).isEqualTo("café ");
        assertThat(GenericFormat.responseSoFar("{\"response\": \"caf\\u00e9 \\ud83d\\ude00 \\\"ok")).isEqualTo(
                "café \uD83D\uDE00 \"ok");
        assertThat(GenericFormat.responseSoFar("{\"tool_call\": {")).isEmpty();
    }
}
