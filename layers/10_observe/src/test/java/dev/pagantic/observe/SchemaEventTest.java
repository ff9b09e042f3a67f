package dev.pagantic.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Correlation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.util.OptionalDouble;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class SchemaEventTest {

    private final CallContext ctx = TestContexts.context();
    private final EventContext here = EventContext.of(ctx);

    private static void assertRefused(ThrowingCallable construction, String field) {
        assertThatThrownBy(construction).isInstanceOfSatisfying(PaganticException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(e.details()).containsEntry("field", field);
        });
    }

    @Test
    void anEventWithoutRequestIdIsRefused() {
        Correlation noRequest = new Correlation(" ", "sess-1", "trace-1", "s1", "", "");

        assertRefused(() -> EventContext.of(noRequest, TestContexts.T0), "request_id");
    }

    @Test
    void toolEventsWithoutToolCallIdAreRefused() {
        assertRefused(() -> new ToolStartEvent(here, "search", "", "hash"), "tool_call_id");
        assertRefused(() -> ToolEndEvent.succeeded(here, "search", " ", 5), "tool_call_id");
    }

    @Test
    void anEventInsideAConversationWithoutSessionIdIsRefused() {
        Correlation noSession = new Correlation("req-1", "", "trace-1", "s1", "", "");

        assertRefused(() -> EventContext.of(noSession, TestContexts.T0).inConversation(), "session_id");
        assertThat(here.inConversation().conversation()).isTrue(); // ctx has session sess-1
    }

    @Test
    void anEventInsideAPlanStepWithoutStepNameIsRefused() {
        assertRefused(() -> here.inStep(""), "step_name");
    }

    @Test
    void aFailedToolEndWithoutErrorCodeIsRefusedAndASuccessfulOneWithACodeToo() {
        assertRefused(() -> ToolEndEvent.failed(here, "search", "call_1", 5, ""), "error_code");
        assertRefused(() -> new ToolEndEvent(here, "search", "call_1", 5, true, "TOOL_TIMEOUT"), "error_code");
    }

    @Test
    void invalidCountsAndValuesAreRefused() {
        assertRefused(() -> new InferenceStartEvent(here, "tiny", -1, 0, false, false, OptionalDouble.of(0.7)),
                "message_count");
        assertRefused(() -> new InferenceStartEvent(here, "tiny", 1, 0, false, false, OptionalDouble.of(-0.5)),
                "temperature");
        assertRefused(() -> new InferenceStartEvent(here, "tiny", 1, 0, false, false,
                OptionalDouble.of(Double.POSITIVE_INFINITY)), "temperature");
        assertRefused(() -> InferenceEndEvent.returned(here, -5, 0, 0, FinishReason.STOP, 0), "duration_ms");
        assertRefused(() -> new LifecycleTransitionEvent(here, "INIT", "", 0, ""), "to_state");
        assertRefused(() -> InferenceEndEvent.returned(here, 5, 0, 0, FinishReason.ERROR, 0), "finish_reason");
    }

    @Test
    void inferenceStartBecomesAnEventWithTheSpecificationsFieldNames() {
        Event event = new InferenceStartEvent(here, "tiny", 4, 2, true, false, OptionalDouble.of(0.7)).toEvent();

        assertThat(event.layer()).isEqualTo("inference");
        assertThat(event.action()).isEqualTo("inference_start");
        assertThat(event.correlation()).isEqualTo(ctx.correlation());
        assertThat(event.timestamp()).isEqualTo(TestContexts.T0);
        assertThat(event.data()).containsEntry("model", "tiny").containsEntry("message_count", 4)
                .containsEntry("tool_defs_count", 2)
                .containsEntry("schema_present", true).containsEntry("grammar_present", false)
                .containsEntry("temperature", 0.7);
    }

    @Test
    void inferenceStartWithTheEnginesDefaultTemperatureWritesTheTemperatureAsNull() {
        Event event = new InferenceStartEvent(here, "tiny", 1, 0, false, false, OptionalDouble.empty()).toEvent();

        assertThat(event.data()).containsEntry("temperature", null).containsEntry("message_count", 1);
    }

    @Test
    void inferenceEndCarriesItsDurationAndTheFinishReasonsWireName() {
        Event event = InferenceEndEvent.returned(here, 1_250, 300, 42, FinishReason.TOOL_CALLS, 2).toEvent();

        assertThat(event.duration()).isEqualTo(Duration.ofMillis(1_250));
        assertThat(event.data()).containsEntry("duration_ms", 1_250L).containsEntry("tokens_in", 300)
                .containsEntry("tokens_out", 42).containsEntry("finish_reason", "tool_calls")
                .containsEntry("tool_call_count", 2);
        assertThat(event.error()).isEmpty();
    }

    @Test
    void aCallCutAtTheTokenLimitEndsWithLengthAsTheEnginesResultSays() {
        Event event = InferenceEndEvent.returned(here, 10, 3, 5, FinishReason.LENGTH, 0).toEvent();

        assertThat(event.data()).containsEntry("finish_reason", "length");
    }

    @Test
    void aFailedCallEndsWithErrorAndCarriesItsFailure() {
        Event event = InferenceEndEvent.failed(here, 7,
                PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "HTTP 500")).toEvent();

        assertThat(event.data()).containsEntry("finish_reason", "error").containsEntry("tokens_out", 0);
        assertThat(event.error()).contains(new EventError("INFERENCE_ENGINE_ERROR", "HTTP 500"));
    }

    @Test
    void toolEventsCarryTheToolCallIdAndATheToolsSpan() {
        CallContext toolCtx = ctx.childSpan("call_1");
        EventContext toolHere = EventContext.of(toolCtx);

        Event start = new ToolStartEvent(toolHere, "search", "call_1", "ab12").toEvent();

        assertThat(start.layer()).isEqualTo("tool");
        assertThat(start.action()).isEqualTo("tool_start");
        assertThat(start.data()).containsEntry("tool_name", "search").containsEntry("tool_call_id", "call_1")
                .containsEntry("args_hash", "ab12");
        assertThat(start.correlation().causedBy()).isEqualTo("call_1");
        assertThat(start.correlation().parentSpanId()).isEqualTo(ctx.spanId());
    }

    @Test
    void aFailedToolEndBecomesAnEventWithAnError() {
        Event end = ToolEndEvent.failed(here, "search", "call_1", 30, "TOOL_TIMEOUT").toEvent();

        assertThat(end.failed()).isTrue();
        assertThat(end.error().orElseThrow().code()).isEqualTo("TOOL_TIMEOUT");
        assertThat(end.duration()).isEqualTo(Duration.ofMillis(30));
        assertThat(end.data()).containsEntry("success", false).containsEntry("error_code", "TOOL_TIMEOUT");
        assertThat(ToolEndEvent.succeeded(here, "search", "call_1", 30).toEvent().failed()).isFalse();
    }

    @Test
    void lifecycleTransitionCarriesStatesAttemptAndReason() {
        Event event = new LifecycleTransitionEvent(here, "VALIDATE", "EXECUTE", 2, "schema invalid, retrying")
                .toEvent();

        assertThat(event.layer()).isEqualTo("orchestrate");
        assertThat(event.action()).isEqualTo("lifecycle_transition");
        assertThat(event.data()).containsEntry("from_state", "VALIDATE").containsEntry("to_state", "EXECUTE")
                .containsEntry("attempt", 2).containsEntry("reason", "schema invalid, retrying");
    }

    @Test
    void theStepNameIsWrittenIntoTheEventDataInsideAPlanStep() {
        Event inStep = new LifecycleTransitionEvent(here.inStep("summarise"), "EXECUTE", "VALIDATE", 1, "")
                .toEvent();
        Event outside = new LifecycleTransitionEvent(here, "EXECUTE", "VALIDATE", 1, "").toEvent();

        assertThat(inStep.data()).containsEntry("step_name", "summarise");
        assertThat(outside.data()).doesNotContainKey("step_name");
    }

    @Test
    void anEventLogRecordsASchemaEventAsItsGenericForm() {
        InMemoryEventLog log = EventLog.inMemory();
        SchemaEvent start = new InferenceStartEvent(here, "tiny", 1, 0, false, false, OptionalDouble.of(0));

        log.record(start);

        assertThat(log.events()).containsExactly(start.toEvent());
        assertThat(start.requestId()).isEqualTo("req-1");
    }
}
