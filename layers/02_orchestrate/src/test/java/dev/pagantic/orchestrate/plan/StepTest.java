package dev.pagantic.orchestrate.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StepTest {

    @Test
    void aStepWithoutInputIsAutoChained() {
        Step rerank = Step.of("rerank", StepType.RERANK);

        assertThat(rerank.hasInput()).isFalse();
        assertThat(rerank.input()).isEmpty();
        assertThat(rerank.output()).isEmpty();
    }

    @Test
    void withOutputKeepsNameTypeAndInputAndLeavesTheOriginalUnchanged() {
        Step step = Step.of("retrieve", StepType.RETRIEVE, StepInput.text("query"));

        Step done = step.withOutput(StepOutput.text("answer"));

        assertThat(done.name()).isEqualTo("retrieve");
        assertThat(done.type()).isEqualTo(StepType.RETRIEVE);
        assertThat(done.requireInput().text()).isEqualTo("query");
        assertThat(done.requireOutput().text()).isEqualTo("answer");
        assertThat(step.hasOutput()).isFalse();
    }

    @Test
    void withInputSetsTheInputAsTheExecutorDoesWhenChaining() {
        Step previous = Step.of("a", StepType.INFER, StepInput.text("q")).withOutput(StepOutput.text("out"));
        Step next = Step.of("b", StepType.VALIDATE);

        Step chained = next.withInput(previous.requireOutput().toInput());

        assertThat(chained.requireInput().text()).isEqualTo("out");
    }

    @Test
    void aHandlerIsAnyLambdaThatReturnsTheStepWithItsOutput() {
        StepHandler upper = (ctx, step) -> step.withOutput(StepOutput.text(step.requireInput().text().toUpperCase()));

        Step result = upper.handle(CallContext.background(), Step.of("shout", StepType.of("shout"),
                StepInput.text("hi")));

        assertThat(result.requireOutput().text()).isEqualTo("HI");
    }

    @Test
    void aHandlerGivenTheWrongKindOfInputFailsWithStepMismatch() {
        StepHandler summarize = (ctx, step) -> step.withOutput(StepOutput.text(step.requireInput().text().strip()));
        Step step = Step.of("summarize", StepType.of("summarize"), StepInput.custom(42));

        assertThatThrownBy(() -> summarize.handle(CallContext.background(), step))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH);
                    assertThat(e.details()).containsEntry("expected", "text").containsEntry("actual", "custom");
                });
    }

    @Test
    void requiringAMissingInputFailsWithStepMismatchNamingTheStep() {
        Step step = Step.of("first", StepType.INFER);

        assertThatThrownBy(step::requireInput).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH);
            assertThat(e.details()).containsEntry("step", "first").containsEntry("step_type", "infer");
            assertThat(e.description()).contains("'first'").contains("no input");
        });
        assertThatThrownBy(step::requireOutput).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.description()).contains("no output"));
    }

    @Test
    void blankOrPaddedNamesAndNullFieldsAreRefused() {
        for (String name : new String[] {"", "  ", " padded", "padded\n"}) {
            assertThatThrownBy(() -> Step.of(name, StepType.INFER)).isInstanceOfSatisfying(PaganticException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        }
        assertThatThrownBy(() -> Step.of(null, StepType.INFER)).isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> Step.of("x", null)).isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> new Step("x", StepType.INFER, null, Optional.empty()))
                .isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> Step.of("x", StepType.INFER).withOutput(null))
                .isInstanceOf(PaganticException.class);
    }
}
