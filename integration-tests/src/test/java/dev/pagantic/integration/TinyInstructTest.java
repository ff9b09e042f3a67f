package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.testkit.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The live check on a model that follows instructions, {@code tiny-instruct.gguf} in the test models' folder: a tool
 * call in the model's own format, the tool's result used in the answer, a plain answer, an extraction. What the
 * grammar guarantees is asserted (every call names an offered tool with arguments of its schema, the extraction is
 * JSON of its schema); what the model chooses is printed, and measured over held-out questions, with and without the
 * grammar, by the bench's {@code ToolCallingEval}. Without the model (the usual case, CI included) the tests are
 * skipped with a message: it is not one of the models every build has.
 */
class TinyInstructTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ToolDefinition WEATHER = ToolDefinition.of("get_weather", "The current weather in a city",
            Schema.object().required("city", Schema.string()).build());
    private static LlamaCppEngine engine;

    @BeforeAll
    static void load() {
        Path model = TestModels.path("tiny-instruct.gguf");
        Assumptions.assumeTrue(Files.isRegularFile(model), "no instruction-following model at " + model
                + ": the live check runs when tiny-instruct.gguf is put there");
        engine = LlamaCppEngine.builder().modelPath(model).contextSize(4096).threads(2).build();
    }

    @AfterAll
    static void close() {
        if (engine != null) {
            engine.close();
        }
    }

    private static Request.Builder ask(String question) {
        return Request.builder().addMessage(Message.user(question)).addTool(WEATHER).temperature(0).seed(1)
                .maxTokens(256);
    }

    @Test
    void aToolCallIsSchemaValidAndItsResultReachesTheAnswer() {
        Result first = engine.infer(ask("What is the weather in Oslo right now?").build());
        System.out.printf("tiny-instruct, tool question: calls %s, text '%s'%n", first.toolCalls(), first.content());

        assertThat(first.toolCalls()).allSatisfy(call -> {
            assertThat(call.name()).isEqualTo("get_weather");
            assertThat(call.arguments()).containsOnlyKeys("city");
            assertThat(call.arguments().get("city")).isInstanceOf(String.class);
        });
        if (first.hasToolCalls()) {
            ToolCall call = first.toolCalls().get(0);
            Result answer = engine.infer(ask("What is the weather in Oslo right now?")
                    .addMessage(Message.assistant("", List.of(call)))
                    .addMessage(Message.toolResult(call.id(), call.name(), "Sunny, 21 degrees")).build());
            System.out.printf("tiny-instruct, after the result: '%s'%n", answer.content());
            assertThat(answer.hasToolCalls() || !answer.content().isBlank()).isTrue();
        }
    }

    @Test
    void aForcedCallNamesTheToolWhateverTheModelWouldHaveDone() {
        Result forced = engine.infer(ask("Say hello.").option("tool_choice", "required").build());

        assertThat(forced.toolCalls()).isNotEmpty().allSatisfy(call -> assertThat(call.name())
                .isEqualTo("get_weather"));
    }

    @Test
    void anExtractionIsJsonOfItsSchema() throws Exception {
        Schema person = Schema.object().required("name", Schema.string()).required("year", Schema.integer()).build();
        Result result = engine.infer(Request.builder()
                .addMessage(Message.user("Extract the person as JSON: Ada Lovelace was born in 1815."))
                .schema(person).temperature(0).maxTokens(128).build());
        System.out.printf("tiny-instruct, extraction: %s%n", result.content());

        JsonNode value = JSON.readTree(result.content());
        assertThat(value.path("name").isString()).isTrue();
        assertThat(value.path("year").isIntegralNumber()).isTrue();
    }
}
