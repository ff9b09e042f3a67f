package dev.pagantic.adapter.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.orchestrate.facade.SystemResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest(classes = TestApplication.class, properties = {
    "pagantic.engine.kind=llamacpp",
    "pagantic.engine.llamacpp.model-path=target/no-such-model.gguf"
})
class MissingModelTest extends StartedApplication {

    @Test
    void theHealthIndicatorGoesDownWhenTheModelFileIsMissing() {
        Health health = paganticHealthIndicator.health();

        assertThat(engine).isInstanceOf(UnavailableEngine.class);
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("error", "INFERENCE_MODEL_UNAVAILABLE")
                .containsEntry("model", "target/no-such-model.gguf");
        assertThat((String) health.getDetails().get("reason")).contains("no-such-model.gguf");
    }

    @Test
    void everyRequestFailsWithTheLoadFailureWhileTheModelIsMissing() {
        SystemResponse response = Chats.chat(orchestrator, "s-missing", "Hi");

        assertThat(response.error()).hasValueSatisfying(error -> {
            assertThat(error.code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
            assertThat(error.message()).contains("no-such-model.gguf");
        });
    }
}
