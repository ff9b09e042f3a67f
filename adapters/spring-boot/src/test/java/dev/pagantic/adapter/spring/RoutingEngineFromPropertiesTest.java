package dev.pagantic.adapter.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.engine.routing.RoutingEngine;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(classes = TestApplication.class, properties = {
    "pagantic.engine.kind=routing",
    "pagantic.engine.routing.strategy=round-robin"
})
class RoutingEngineFromPropertiesTest extends StartedApplication {

    private static final FakeOpenAiServer FIRST = new FakeOpenAiServer("one");
    private static final FakeOpenAiServer SECOND = new FakeOpenAiServer("two");

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        // One property source for the whole list: Spring Boot binds a list from the one source that names it.
        for (int i = 0; i < 2; i++) {
            registry.add("pagantic.engine.routing.replicas[" + i + "].kind", () -> "openai");
            registry.add("pagantic.engine.routing.replicas[" + i + "].openai.model", () -> "fake");
        }
        registry.add("pagantic.engine.routing.replicas[0].openai.base-url", FIRST::baseUrl);
        registry.add("pagantic.engine.routing.replicas[1].openai.base-url", SECOND::baseUrl);
    }

    @AfterAll
    static void stop() {
        FIRST.close();
        SECOND.close();
    }

    @Test
    void theContextStartsFromPropertiesAloneWithARoutingFleet() {
        assertThat(engine).isInstanceOf(RoutingEngine.class);
        assertThat(((RoutingEngine) engine).health()).hasSize(2);
    }

    @Test
    void requestsGoToEachReplicaInTurn() {
        String first = Chats.chat(orchestrator, "s-route-1", "Hi").content();
        String second = Chats.chat(orchestrator, "s-route-2", "Hi").content();

        assertThat(Set.of(first, second)).containsExactlyInAnyOrder("one", "two");
    }

    @Test
    void theHealthIndicatorIsUpWithEachReplicasState() {
        var health = paganticHealthIndicator.health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("engine", "routing");
        assertThat((Map<?, ?>) health.getDetails().get("replicas")).hasSize(2);
    }
}
