package dev.pagantic.adapter.spring.observation;

import dev.pagantic.adapter.micrometer.PaganticObservations;
import dev.pagantic.adapter.spring.OrchestratorCustomizer;
import dev.pagantic.adapter.spring.PaganticAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer observations of every request, agent turn, inference, tool call and plan step, when
 * {@code pagantic-micrometer} is on the class path and the application has an {@link ObservationRegistry} (Spring
 * Boot's actuator makes one): the auto-configured orchestrator gets {@link PaganticObservations} as its observer, with
 * the application's {@link MeterRegistry} for the token counter and the vote confidence summary when there is one. The
 * registry is looked up when the orchestrator is built, so the order of auto-configurations does not matter. A bean
 * named {@code paganticObservationCustomizer} replaces this one.
 */
@AutoConfiguration(before = PaganticAutoConfiguration.class)
@ConditionalOnClass({PaganticObservations.class, ObservationRegistry.class, MeterRegistry.class})
public class PaganticObservationAutoConfiguration {

    /** Sets the observer on the orchestrator's builder, when an observation registry exists. */
    @Bean
    @ConditionalOnMissingBean(name = "paganticObservationCustomizer")
    public OrchestratorCustomizer paganticObservationCustomizer(ObjectProvider<ObservationRegistry> observations,
                                                                ObjectProvider<MeterRegistry> meters) {
        return builder -> observations.ifAvailable(registry -> {
            MeterRegistry meterRegistry = meters.getIfAvailable();
            builder.observer(meterRegistry == null ? PaganticObservations.of(registry)
                    : PaganticObservations.of(registry, meterRegistry));
        });
    }
}
