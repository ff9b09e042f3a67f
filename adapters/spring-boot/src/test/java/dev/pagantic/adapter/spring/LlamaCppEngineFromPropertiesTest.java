package dev.pagantic.adapter.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.tck.ModelAssumptions;
import dev.pagantic.testkit.TestModels;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** On the real stories260K model; skipped when it is missing (failed in CI). */
@SpringBootTest(classes = TestApplication.class, properties = {
    "pagantic.engine.kind=llamacpp",
    "pagantic.engine.llamacpp.context-size=256",
    "pagantic.engine.llamacpp.threads=1",
    "pagantic.max-tokens=12",
    "pagantic.temperature=0"
})
class LlamaCppEngineFromPropertiesTest extends StartedApplication {

    private static Path model;

    @BeforeAll
    static void requireModel() {
        model = ModelAssumptions.require(TestModels.STORIES);
    }

    @DynamicPropertySource
    static void modelPath(DynamicPropertyRegistry registry) {
        registry.add("pagantic.engine.llamacpp.model-path", () -> model.toString());
    }

    @Test
    void theContextStartsFromPropertiesAloneWithTheModelLoaded() {
        assertThat(engine).isInstanceOf(LlamaCppEngine.class);
        assertThat(engine.modelInfo().contextWindow()).isEqualTo(256);
    }

    @Test
    void aChatIsAnsweredByTheModelWithinTheConfiguredTokenLimit() {
        SystemResponse response = Chats.chat(orchestrator, "s-llama", "Once upon a time");

        assertThat(response.error()).isEmpty();
        assertThat(response.tokenUsage().outputTokens()).isBetween(1, 12);
    }

    @Test
    void theHealthIndicatorIsUpWithTheLoadedModel() {
        var health = paganticHealthIndicator.health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("engine", "llamacpp").containsEntry("loaded", true)
                .containsEntry("contextWindow", 256);
    }
}
