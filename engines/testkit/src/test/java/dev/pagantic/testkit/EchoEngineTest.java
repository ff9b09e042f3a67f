package dev.pagantic.testkit;

import static dev.pagantic.testkit.Failures.failureOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EchoEngineTest {

    private final EchoEngine engine = EchoEngine.create();

    @Test
    void echoesTheLastUserMessageOfTheConversation() {
        Request request = Request.builder().addMessage(Message.system("be an echo"))
                .addMessage(Message.user("first")).addMessage(Message.assistant("first"))
                .addMessage(Message.user("second question")).build();

        Result result = engine.infer(request);

        assertThat(result.content()).isEqualTo("second question");
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(result.messages()).containsExactly(Message.assistant("second question"));
    }

    @Test
    void answersEmptyWhenTheConversationHasNoUserMessage() {
        Result result = engine.infer(Request.builder().addMessage(Message.system("nobody asked")).build());

        assertThat(result.content()).isEmpty();
        assertThat(result.usage().outputTokens()).isZero();
    }

    @Test
    void countsWordsAsTokens() {
        Result result = engine.infer(Request.of("four words in here"));

        assertThat(result.usage()).isEqualTo(new TokenUsage(4, 0, 4, 8, 4096, Duration.ofMillis(4)));
    }

    @Test
    void maxTokensCutsTheEchoWithLength() {
        Result result = engine.infer(Request.builder().addMessage(Message.user("a b c d")).maxTokens(2).build());

        assertThat(result.content()).isEqualTo("a b");
        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void theEchoIsStreamedWordByWord() {
        List<String> deltas = new ArrayList<>();

        engine.infer(CallContext.background(), Request.of("say  it back"), StreamHandler.onContent(deltas::add));

        assertThat(deltas).containsExactly("say", "  it", " back");
    }

    @Test
    void toolsGrammarsAndSchemasAreRefusedRatherThanEchoed() {
        Request base = Request.of("hi");
        ToolDefinition tool = ToolDefinition.of("t", "", Schema.object().build());

        for (Request request : List.of(base.toBuilder().addTool(tool).build(),
                base.toBuilder().grammar("root ::= \"x\"").build(),
                base.toBuilder().schema(Schema.object().build()).build())) {
            assertThat(failureOf(() -> engine.infer(request)).code())
                    .isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
        }
    }

    @Test
    void aPromptOverTheContextWindowFailsWithContextExceeded() {
        EchoEngine small = EchoEngine.builder().contextWindow(2).build();

        assertThat(failureOf(() -> small.infer(Request.of("one two three")))
                .code()).isEqualTo(ErrorCode.INFERENCE_CONTEXT_EXCEEDED);
    }

    @Test
    void aClosedEchoEngineRefusesCalls() {
        engine.close();

        assertThat(failureOf(() -> engine.infer(Request.of("x"))).code())
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED);
    }

    @Test
    void theModelInfoHasTheConfiguredNameAndWindowAndOnlyStreamingTokenCountingSeedAndStop() {
        ModelInfo info = EchoEngine.builder().modelName("parrot").contextWindow(64).build().modelInfo();

        assertThat(info).isEqualTo(ModelInfo.of("parrot", 64, Capability.STREAMING, Capability.TOKEN_COUNTING,
                Capability.SEED, Capability.STOP));
        assertThat(engine.modelInfo().name()).isEqualTo("echo");
    }

    @Test
    void theBuilderRefusesABlankNameAndANegativeWindow() {
        assertThat(failureOf(() -> EchoEngine.builder().modelName("").build())
                .code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failureOf(() -> EchoEngine.builder().contextWindow(-5).build()).code()).isEqualTo(ErrorCode.CONFIG_INVALID);
    }
}
