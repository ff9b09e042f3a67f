package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.types.OutputType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Java types in, Java types out, through the facade: the request's output contract takes {@code type.schema()} and
 * the response's structured output comes back with {@code response.structuredOutput(type)}.
 */
class TypedOutputTest {

    enum Priority { LOW, NORMAL, URGENT }

    enum Team { BILLING, SHIPPING, SUPPORT }

    record Routing(Team team, boolean escalate) {
    }

    record Ticket(Priority priority, Routing routing) {
    }

    record Order(String item, int quantity, List<String> notes) {
    }

    private static SystemRequest structured(String prompt, OutputType<?> type) {
        return SystemRequest.builder().user(prompt).mode(Mode.STRUCTURED)
                .output(OutputContract.of(type.schema())).build();
    }

    @Test
    void aRecordGoesInAsItsSchemaAndComesBackConverted() {
        OutputType<Order> order = OutputType.of(Order.class);
        ScriptedEngine engine = ScriptedEngine.replying("""
                {"item": "teapot", "quantity": 2, "notes": ["gift wrap"]}""");

        try (Orchestrator orchestrator = Orchestrator.builder().engine(engine).build()) {
            SystemResponse response = orchestrator.execute(structured("Two teapots, gift wrapped.", order));

            assertThat(response.structuredOutput(order)).contains(new Order("teapot", 2, List.of("gift wrap")));
        }
    }

    @Test
    void outputValidForTheSchemaButNotForTheTypeIsARetryableSchemaFailure() {
        OutputType<Order> order = OutputType.of(Order.class);
        ScriptedEngine engine = ScriptedEngine.replying("""
                {"item": "teapot", "quantity": 99999999999, "notes": []}""");

        try (Orchestrator orchestrator = Orchestrator.builder().engine(engine).build()) {
            SystemResponse response = orchestrator.execute(structured("Many teapots.", order));
            PaganticException failure = catchThrowableOfType(PaganticException.class,
                    () -> response.structuredOutput(order));

            assertThat(response.isSuccess()).isTrue();
            assertThat(failure.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
            assertThat(failure.retryable()).isTrue();
            assertThat(failure.details()).containsEntry("pointer", "/quantity");
        }
    }

    @Test
    void stories260KFillsANestedRecordThroughTheGrammarAndItConverts() {
        OutputType<Ticket> ticket = OutputType.of(Ticket.class);
        LlamaRuntime runtime = LlamaRuntime.create();
        LlamaCppEngine llama = LlamaCppEngine.builder().runtime(runtime).modelPath(Models.stories())
                .contextSize(512).threads(2).build();

        try (Orchestrator orchestrator = Orchestrator.builder().engine(llama).build()) {
            SystemResponse response = orchestrator.execute(structured("The parcel never came. Route it.", ticket));

            assertThat(response.isSuccess()).as("%s", response.error()).isTrue();
            Ticket converted = response.structuredOutput(ticket).orElseThrow();
            assertThat(converted.priority()).isIn((Object[]) Priority.values());
            assertThat(converted.routing().team()).isIn((Object[]) Team.values());
        }
    }
}
