package dev.pagantic.orchestrate.structured;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.types.OutputType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Java types in, Java types out: the facade's response, the agent loop and the specialized loop. */
class TypedStructuredOutputTest {

    enum Priority { LOW, URGENT }

    record Line(String product, long quantity, BigDecimal price) {
    }

    record Invoice(String number, LocalDate issued, Priority priority, List<Line> lines, Optional<String> note) {
    }

    private static final OutputType<Invoice> INVOICE = OutputType.of(Invoice.class);

    private static final String VALID = "{\"number\": \"A-17\", \"issued\": \"2026-11-27\", \"priority\": \"URGENT\","
            + " \"lines\": [{\"product\": \"bolts\", \"quantity\": 3, \"price\": 1.25}], \"note\": null}";

    private static final Invoice EXPECTED = new Invoice("A-17", LocalDate.of(2026, 11, 27), Priority.URGENT,
            List.of(new Line("bolts", 3, new BigDecimal("1.25"))), Optional.empty());

    @Test
    void theFacadesResponseConvertsItsStructuredOutputToTheType() {
        try (Orchestrator facade = Orchestrator.builder().engine(ScriptedEngine.replying(VALID)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                    .user("Extract the invoice").output(OutputContract.of(INVOICE.schema())).build());

            assertThat(response.structuredOutput(INVOICE)).contains(EXPECTED);
        }
    }

    @Test
    void aFailedResponseHasNoTypedOutput() {
        try (Orchestrator facade = Orchestrator.builder().engine(ScriptedEngine.replying("no", "no", "no"))
                .build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                    .user("Extract the invoice").output(OutputContract.builder().schema(INVOICE.schema())
                            .repairAllowed(false).build()).build());

            assertThat(response.isSuccess()).isFalse();
            assertThat(response.structuredOutput(INVOICE)).isEmpty();
        }
    }

    @Test
    void theAgentLoopAnswersAStructuredTurnWithTheType() {
        try (AgentLoop loop = AgentLoop.builder().engine(ScriptedEngine.replying(VALID)).build()) {
            assertThat(loop.chatStructured(CallContext.background(), "Extract the invoice", INVOICE))
                    .isEqualTo(EXPECTED);
            assertThat(loop.messages().get(loop.messages().size() - 1).content()).isEqualTo(VALID);
        }
    }

    @Test
    void theSpecializedLoopRetriesUntilTheOutputIsValidThenConvertsIt() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"number\": \"A-17\"}", VALID);
        try (SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(INVOICE.schema()).build()) {
            assertThat(loop.call(CallContext.background(), "Extract the invoice", INVOICE)).isEqualTo(EXPECTED);
            assertThat(engine.callCount()).isEqualTo(2);
        }
    }

    @Test
    void aTypeWhoseSchemaIsNotTheLoopsIsAConfigurationError() {
        try (SpecializedLoop loop = SpecializedLoop.builder().engine(ScriptedEngine.replying(VALID))
                .schema(OutputType.of(Line.class).schema()).build()) {
            assertThatThrownBy(() -> loop.call(CallContext.background(), "x", INVOICE))
                    .isInstanceOfSatisfying(PaganticException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        }
    }

    @Test
    void anOutputValidForTheSchemaButNotTheTypeFailsWithSchemaInvalidAndItsPointer() {
        String tooBig = VALID.replace("\"quantity\": 3", "\"quantity\": 100000000000000000000");
        try (AgentLoop loop = AgentLoop.builder().engine(ScriptedEngine.replying(tooBig)).build()) {
            assertThatThrownBy(() -> loop.chatStructured(CallContext.background(), "x", INVOICE))
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
                        assertThat(e.details()).containsEntry("pointer", "/lines/0/quantity");
                    });
        }
    }

    @Test
    void aSeededAnswerCutOffAtTheTokenLimitIsReturnedAsItIsAndIsNoInstanceOfTheType() {
        ScriptedEngine engine = ScriptedEngine.replying(VALID, VALID);
        try (SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(INVOICE.schema())
                .settings(InferenceSettings.builder().maxTokens(3).seed(7).build()).build()) {
            SpecializedResult cut = loop.run(CallContext.background(), "x", InferenceSettings.DEFAULTS,
                    TurnOptions.DEFAULTS).orElseThrow();

            assertThat(cut.cutOff()).isTrue();
            assertThat(cut.valid()).isFalse();
            assertThat(cut.result().finishReason()).isEqualTo(FinishReason.LENGTH);
            assertThat(cut.content()).isEqualTo("{\"number\": \"A-17\", \"issued\":");
            assertThatThrownBy(() -> loop.call(CallContext.background(), "x", INVOICE))
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
                        assertThat(e.retryable()).isFalse();
                        assertThat(e.getMessage()).contains("cut off", "maxTokens");
                    });
            assertThat(engine.callCount()).as("a seeded retry would be cut the same way").isEqualTo(2);
        }
    }

    @Test
    void aSampledAnswerCutOffAtTheTokenLimitIsRetriedAndTheLastCutOffIsReturned() {
        String shortInvoice = "{\"number\": \"A-17\"}";
        Schema numberOnly = Schema.object().required("number", Schema.string()).build();
        ScriptedEngine engine = ScriptedEngine.replying(VALID, shortInvoice, VALID, VALID, VALID);
        try (SpecializedLoop loop = SpecializedLoop.builder().engine(engine).schema(numberOnly)
                .settings(InferenceSettings.builder().maxTokens(3).temperature(0.7).build()).build()) {
            SpecializedResult retried = loop.run(CallContext.background(), "x", InferenceSettings.DEFAULTS,
                    TurnOptions.DEFAULTS).orElseThrow();
            assertThat(retried.valid()).isTrue();
            assertThat(retried.attempts()).isEqualTo(2);
            assertThat(retried.content()).isEqualTo(shortInvoice);

            SpecializedResult cut = loop.run(CallContext.background(), "x", InferenceSettings.DEFAULTS,
                    TurnOptions.DEFAULTS).orElseThrow();
            assertThat(cut.cutOff()).isTrue();
            assertThat(cut.attempts()).as("every attempt the policy allows").isEqualTo(3);
            assertThat(cut.result().finishReason()).isEqualTo(FinishReason.LENGTH);
        }
    }
}
