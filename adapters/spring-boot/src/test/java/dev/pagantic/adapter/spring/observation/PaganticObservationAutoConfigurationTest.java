package dev.pagantic.adapter.spring.observation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.micrometer.PaganticObservations;
import dev.pagantic.adapter.spring.PaganticAutoConfiguration;
import dev.pagantic.adapter.spring.PaganticEngineAutoConfiguration;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.testkit.ScriptedEngine;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class PaganticObservationAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PaganticEngineAutoConfiguration.class,
                    PaganticAutoConfiguration.class, PaganticObservationAutoConfiguration.class))
            .withBean(Engine.class, () -> ScriptedEngine.replying("Hello."));

    @Test
    void anApplicationWithAnObservationRegistryObservesEveryRequestOfTheOrchestrator() {
        TestObservationRegistry observations = TestObservationRegistry.create();
        runner.withBean(ObservationRegistry.class, () -> observations)
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    context.getBean(Orchestrator.class).execute(SystemRequest.builder().user("Hi").build());

                    TestObservationRegistryAssert.assertThat(observations)
                            .hasObservationWithNameEqualTo(PaganticObservations.REQUEST);
                    TestObservationRegistryAssert.assertThat(observations)
                            .hasObservationWithNameEqualTo(PaganticObservations.INFERENCE);
                });
    }

    @Test
    void withoutAnObservationRegistryTheOrchestratorIsBuiltUnobserved() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Orchestrator.class);
            assertThat(context.getBean(Orchestrator.class).execute(SystemRequest.builder().user("Hi").build()).content()).isEqualTo("Hello.");
        });
    }
}
