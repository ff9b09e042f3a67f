package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestTimelinesTest {

    @Test
    void theTimelineOfARequestHoldsItsEventsAndTheListenerSeesThemLive() {
        List<String> live = new ArrayList<>();
        RequestTimelines timelines = RequestTimelines.builder().listener(event -> live.add(event.action())).build();
        try (Orchestrator facade = Orchestrator.builder().engine(ScriptedEngine.replying("hi")).eventLog(timelines)
                .build()) {
            facade.execute(SystemRequest.builder().requestId("r1").user("hello").build());
        }

        assertThat(timelines.of("r1")).extracting(RequestTimelines.TimelineEvent::action)
                .contains("lifecycle_transition", "inference_start", "inference_end").isEqualTo(live);
        assertThat(timelines.of("r1")).allMatch(event -> event.requestId().equals("r1"));
        assertThat(timelines.of("unknown")).isEmpty();
    }

    @Test
    void failuresKeepTheirCodeAndOnlyTheMostRecentRequestsAreKept() {
        RequestTimelines timelines = RequestTimelines.create(2);
        try (Orchestrator facade = Orchestrator.builder().engine(ScriptedEngine.builder()
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").reply("a").reply("b").build())
                .eventLog(timelines).build()) {
            for (String id : List.of("r1", "r2", "r3")) {
                facade.execute(SystemRequest.builder().requestId(id).user("x").build());
            }
        }

        assertThat(timelines.requestIds()).containsExactly("r2", "r3");
        try {
            RequestTimelines.create(0);
            throw new AssertionError("expected CONFIG_INVALID");
        } catch (PaganticException expected) {
            assertThat(expected.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        }
    }

    @Test
    void aFailedInferenceIsATimelineEventWithItsErrorCode() {
        RequestTimelines timelines = RequestTimelines.create(10);
        try (Orchestrator facade = Orchestrator.builder().engine(ScriptedEngine.builder()
                .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").build()).eventLog(timelines).build()) {
            facade.execute(SystemRequest.builder().requestId("f").user("x").build());
        }

        assertThat(timelines.of("f")).anySatisfy(event -> {
            assertThat(event.action()).isEqualTo("inference_end");
            assertThat(event.data()).containsEntry("finish_reason", "error");
            assertThat(event.errorCode()).contains("INFERENCE_ENGINE_ERROR");
        });
    }
}
