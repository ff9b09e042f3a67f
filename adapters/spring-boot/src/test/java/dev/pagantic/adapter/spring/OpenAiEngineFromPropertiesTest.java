package dev.pagantic.adapter.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import dev.pagantic.orchestrate.facade.SystemResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(classes = TestApplication.class, properties = {
    "pagantic.engine.kind=openai",
    "pagantic.engine.openai.api-key=sk-test",
    "pagantic.engine.openai.model=fake",
    "pagantic.system-prompt=You answer briefly."
})
class OpenAiEngineFromPropertiesTest extends StartedApplication {

    private static final FakeOpenAiServer SERVER = new FakeOpenAiServer("Hello from the server.");

    @DynamicPropertySource
    static void server(DynamicPropertyRegistry registry) {
        registry.add("pagantic.engine.openai.base-url", SERVER::baseUrl);
    }

    @AfterAll
    static void stop() {
        SERVER.close();
    }

    @Test
    void theContextStartsFromPropertiesAloneWithAnOpenAiCompatibleEngine() {
        assertThat(engine).isInstanceOf(OpenAiCompatibleEngine.class);
        assertThat(((OpenAiCompatibleEngine) engine).endpoint().toString())
                .isEqualTo(SERVER.baseUrl() + "/v1/chat/completions");
    }

    @Test
    void aChatIsAnsweredByTheConfiguredServerWithTheConfiguredKey() {
        SystemResponse response = Chats.chat(orchestrator, "s-openai", "Hi");

        assertThat(response.error()).isEmpty();
        assertThat(response.content()).isEqualTo("Hello from the server.");
        assertThat(SERVER.authorizations).contains("Bearer sk-test");
    }

    @Test
    void theHealthIndicatorIsUpWhenTheServerAnswersItsModelList() {
        var health = paganticHealthIndicator.health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("engine", "openai").containsEntry("status", 200)
                .containsEntry("endpoint", SERVER.baseUrl() + "/v1/models");
    }
}
