package dev.pagantic.orchestrate.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.ports.RerankInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StepDataTest {

    @Test
    void eachTypedAccessorReturnsTheValueOfItsOwnKind() {
        Request request = Request.of("hi");
        Result result = Result.of("hello", TokenUsage.ZERO);
        ToolCall call = ToolCall.of("c1", "weather", Map.of("city", "Oslo"));
        ToolResult toolResult = ToolResult.success("c1", "weather", "sunny");
        ContextIR context = ContextIR.of(List.of(Candidate.of("text", "doc")));

        assertThat(StepInput.text("q").text()).isEqualTo("q");
        assertThat(StepInput.messages(List.of(Message.user("u"))).messages()).containsExactly(Message.user("u"));
        assertThat(StepInput.candidates(List.of(Candidate.of("c", "s", 1))).candidates())
                .containsExactly(Candidate.of("c", "s", 1));
        assertThat(StepInput.context(context).context()).isEqualTo(context);
        assertThat(StepInput.toolCalls(List.of(call)).toolCalls()).containsExactly(call);
        assertThat(StepInput.toolResults(List.of(toolResult)).toolResults()).containsExactly(toolResult);
        assertThat(StepInput.request(request).request()).isSameAs(request);
        assertThat(StepOutput.result(result).result()).isSameAs(result);
        assertThat(StepOutput.group(List.of(StepOutput.text("a"))).group()).containsExactly(StepOutput.text("a"));
        assertThat(StepInput.custom(new RerankInput("q", List.of())).customValue(RerankInput.class).query())
                .isEqualTo("q");
    }

    @Test
    void eachVariantReportsItsKindAndValue() {
        StepInput text = StepInput.text("q");

        assertThat(text.kind()).isEqualTo(StepData.Kind.TEXT);
        assertThat(text.is(StepData.Kind.TEXT)).isTrue();
        assertThat(text.is(StepData.Kind.MESSAGES)).isFalse();
        assertThat(text.value()).isEqualTo("q");
        assertThat(StepOutput.toolCalls(List.of()).kind().wireName()).isEqualTo("tool_calls");
    }

    @Test
    void readingTheWrongKindFailsWithStepMismatchNamingExpectedAndActualKinds() {
        StepInput input = StepInput.messages(List.of(Message.user("hello")));

        assertThatThrownBy(input::text).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH);
            assertThat(e.description()).isEqualTo("expected text step data, got messages");
            assertThat(e.details()).containsEntry("expected", "text").containsEntry("actual", "messages");
            assertThat(e.retryable()).isFalse();
        });
    }

    @Test
    void everyAccessorOfAnotherKindFailsWithStepMismatch() {
        StepInput text = StepInput.text("q");
        List<Runnable> wrong = List.of(text::messages, text::candidates, text::context, text::toolCalls,
                text::toolResults, text::request, text::result, text::group, () -> text.customValue(String.class));

        for (Runnable access : wrong) {
            assertThatThrownBy(access::run).isInstanceOfSatisfying(PaganticException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH));
        }
    }

    @Test
    void aCustomValueOfTheWrongClassFailsWithStepMismatchNamingBothClasses() {
        StepInput input = StepInput.custom(42);

        assertThatThrownBy(() -> input.customValue(String.class)).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH);
            assertThat(e.details()).containsEntry("expected", "java.lang.String")
                    .containsEntry("actual", "java.lang.Integer");
        });
        assertThat(input.customValue(Number.class)).isEqualTo(42);
    }

    @Test
    void aStringHeldAsCustomIsNotText() {
        assertThatThrownBy(() -> StepInput.custom("q").text()).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.details()).containsEntry("actual", "custom"));
    }

    @Test
    void anOutputBecomesTheNextStepsInputWithTheSameKindAndValue() {
        List<Message> retrieved = List.of(Message.system("Relevant context:\n\n[1] (doc): x"));
        StepOutput output = StepOutput.messages(retrieved);

        StepInput next = output.toInput();

        assertThat(next.kind()).isEqualTo(StepData.Kind.MESSAGES);
        assertThat(next.messages()).isEqualTo(retrieved);
        assertThat(next).isEqualTo(StepInput.messages(retrieved));
    }

    @Test
    void aPassThroughStepReturnsItsInputAsItsOutputUnchanged() {
        StepInput input = StepInput.candidates(List.of(Candidate.of("c", "s", 0.5)));

        StepOutput output = input.toOutput();

        assertThat(output.kind()).isEqualTo(StepData.Kind.CANDIDATES);
        assertThat(output.candidates()).isEqualTo(input.candidates());
    }

    @Test
    void aGroupOutputChainsTheGroupsOutputsInOrder() {
        StepOutput group = StepOutput.group(List.of(StepOutput.text("first"), StepOutput.custom(2)));

        List<StepOutput> outputs = group.toInput().group();

        assertThat(outputs).extracting(StepData::value).containsExactly("first", 2);
    }

    @Test
    void listsAreImmutableCopies() {
        List<Message> messages = new ArrayList<>(List.of(Message.user("a")));
        StepInput input = StepInput.messages(messages);
        messages.add(Message.user("b"));

        assertThat(input.messages()).containsExactly(Message.user("a"));
        assertThatThrownBy(() -> input.messages().add(Message.user("c")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void nullValuesAndNullElementsAreRefusedAsConfigurationErrors() {
        List<Message> withNull = new ArrayList<>();
        withNull.add(null);

        assertThatThrownBy(() -> StepInput.text(null)).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> StepOutput.messages(withNull)).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> StepOutput.custom(null)).isInstanceOf(PaganticException.class);
    }
}
