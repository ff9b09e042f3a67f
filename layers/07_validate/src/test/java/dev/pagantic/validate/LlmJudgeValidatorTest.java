package dev.pagantic.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LlmJudgeValidatorTest {

    /** A fake engine: answers every call with a fixed reply and records the requests. */
    private static final class FakeEngine implements Engine {
        private final String reply;
        private final ModelInfo info;
        final List<Request> requests = new ArrayList<>();

        FakeEngine(String reply, Capability... capabilities) {
            this.reply = reply;
            this.info = ModelInfo.of("fake-judge", 4096, capabilities);
        }

        @Override
        public Result infer(CallContext context, Request request) {
            context.throwIfDone();
            info.requireSupported(request);
            requests.add(request);
            return Result.of(reply, TokenUsage.ZERO);
        }

        @Override
        public ModelInfo modelInfo() {
            return info;
        }
    }

    private static final CallContext CTX = CallContext.background();

    @Test
    void validVerdictPasses() {
        FakeEngine engine = new FakeEngine("{\"valid\": true, \"reason\": \"answers the question\"}");
        LlmJudgeValidator judge = LlmJudgeValidator.of(engine);

        assertThat(judge.evaluate(CTX, "What is 2+2?", "4"))
                .isEqualTo(new SemanticVerdict(true, "answers the question"));
        assertThatCode(() -> judge.validate(CTX, "What is 2+2?", "4")).doesNotThrowAnyException();
    }

    @Test
    void invalidVerdictFailsWithSemanticFailedAndTheJudgesReason() {
        FakeEngine engine = new FakeEngine("{\"valid\": false, \"reason\": \"claims Paris is in Spain\"}");
        LlmJudgeValidator judge = LlmJudgeValidator.of(engine);

        assertThatThrownBy(() -> judge.validate(CTX, "Where is Paris?", "Paris is in Spain."))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_SEMANTIC_FAILED);
                    assertThat(e.retryable()).isTrue();
                    assertThat(e.details()).containsEntry("reason", "claims Paris is in Spain");
                    assertThat(e.getMessage()).contains("claims Paris is in Spain");
                });
    }

    @Test
    void theJudgeSeesTheCriteriaInputAndOutputAtTemperatureZero() {
        FakeEngine engine = new FakeEngine("{\"valid\": true, \"reason\": \"\"}");
        LlmJudgeValidator judge = LlmJudgeValidator.builder(engine).criteria("Must be polite.").maxTokens(64).build();
        judge.evaluate(CTX, "the question", "the answer");

        Request request = engine.requests.get(0);
        assertThat(request.messages()).extracting(m -> m.role()).containsExactly(Role.SYSTEM, Role.USER);
        assertThat(request.messages().get(0).content()).contains("Criteria: Must be polite.")
                .contains("\"valid\"").contains("\"reason\"");
        assertThat(request.messages().get(1).content())
                .isEqualTo("<input>\nthe question\n</input>\n<output>\nthe answer\n</output>");
        assertThat(request.settings().temperature()).hasValue(0.0);
        assertThat(request.settings().maxTokens()).isEqualTo(64);
        assertThat(request.schema()).isEmpty();
        assertThat(request.hasGrammar()).isFalse();
    }

    @Test
    void asksForTheVerdictSchemaOrGrammarWhenTheEngineSupportsIt() {
        String verdict = "{\"valid\": true, \"reason\": \"fine\"}";
        FakeEngine schemaEngine = new FakeEngine(verdict, Capability.SCHEMA, Capability.GRAMMAR);
        LlmJudgeValidator.of(schemaEngine).evaluate(CTX, "q", "a");
        assertThat(schemaEngine.requests.get(0).schema()).contains(LlmJudgeValidator.VERDICT_SCHEMA);
        assertThat(schemaEngine.requests.get(0).hasGrammar()).isFalse();

        FakeEngine grammarEngine = new FakeEngine(verdict, Capability.GRAMMAR);
        LlmJudgeValidator.of(grammarEngine).evaluate(CTX, "q", "a");
        Request request = grammarEngine.requests.get(0);
        assertThat(request.schema()).isEmpty();
        GbnfGrammar grammar = request.grammar().orElseThrow();
        assertThat(grammar.accepts("{\"valid\":false,\"reason\":\"off topic\"}")).isTrue();
        assertThat(grammar.accepts("{\"valid\":\"yes\",\"reason\":\"off topic\"}")).isFalse();
    }

    @Test
    void toleratesProseAndCodeFencesAroundTheVerdict() {
        FakeEngine engine = new FakeEngine("Here is my verdict:\n```json\n{\"valid\": false, \"reason\": \"nonsense\"}"
                + "\n```");
        assertThat(LlmJudgeValidator.of(engine).evaluate(CTX, "q", "a"))
                .isEqualTo(new SemanticVerdict(false, "nonsense"));
    }

    @Test
    void malformedVerdictFailsClosedAsMalformedResponse() {
        for (String reply : List.of("I think it is fine.", "{\"valid\": \"yes\", \"reason\": \"ok\"}",
                "{\"reason\": \"ok\"}", "{\"valid\": true, \"reason\": 3}", "{valid: true}")) {
            LlmJudgeValidator judge = LlmJudgeValidator.of(new FakeEngine(reply));
            assertThatThrownBy(() -> judge.validate(CTX, "q", "a")).as(reply)
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_MALFORMED_RESPONSE);
                        assertThat(e.getMessage()).contains("malformed judge verdict");
                        assertThat(e.details()).containsEntry("verdict", reply);
                    });
        }
    }

    @Test
    void missingReasonReadsAsEmptyAndAnInvalidVerdictWithoutReasonSaysSo() {
        LlmJudgeValidator judge = LlmJudgeValidator.of(new FakeEngine("{\"valid\": false}"));
        assertThat(judge.evaluate(CTX, "q", "a")).isEqualTo(new SemanticVerdict(false, ""));
        assertThatThrownBy(() -> judge.validate(CTX, "q", "a"))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.details()).containsEntry("reason", "no reason given"));
    }

    @Test
    void aCancelledContextFailsBeforeAskingTheJudge() {
        FakeEngine engine = new FakeEngine("{\"valid\": true, \"reason\": \"\"}");
        Cancellation cancellation = new Cancellation();
        cancellation.cancel("user left");
        CallContext cancelled = CallContext.builder().cancellation(cancellation).build();

        assertThatThrownBy(() -> LlmJudgeValidator.of(engine).evaluate(cancelled, "q", "a"))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
        assertThat(engine.requests).isEmpty();
    }

    @Test
    void builderRefusesMissingEngineAndBadSettings() {
        assertThatThrownBy(() -> LlmJudgeValidator.builder(null).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_NO_ENGINE));
        FakeEngine engine = new FakeEngine("");
        assertThatThrownBy(() -> LlmJudgeValidator.builder(engine).criteria(" ").build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> LlmJudgeValidator.builder(engine).maxTokens(0).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void anySemanticValidatorLambdaGetsTheThrowingDefault() {
        SemanticValidator alwaysNo = (context, input, output) -> new SemanticVerdict(false, "never");
        assertThatThrownBy(() -> alwaysNo.validate(CTX, "", "x"))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_SEMANTIC_FAILED));
    }
}
