package dev.pagantic.adapter.spring.health;

import dev.pagantic.adapter.spring.PaganticEngineAutoConfiguration;
import dev.pagantic.adapter.spring.PaganticProperties;
import dev.pagantic.inference.Engine;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The engine's {@link EngineHealthIndicator} ({@code pagantic} in actuator's health endpoint), when the application
 * has actuator and an {@link Engine} bean; {@code management.health.pagantic.enabled=false} turns it off, and a bean
 * named {@code paganticHealthIndicator} replaces it.
 */
@AutoConfiguration(after = PaganticEngineAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(Engine.class)
@ConditionalOnEnabledHealthIndicator("pagantic")
public class PaganticHealthAutoConfiguration {

    /** The indicator of the application's engine. */
    @Bean
    @ConditionalOnMissingBean(name = "paganticHealthIndicator")
    public HealthIndicator paganticHealthIndicator(Engine engine, ObjectProvider<PaganticProperties> properties) {
        Optional<String> apiKey = Optional.ofNullable(properties.getIfAvailable())
                .map(p -> p.getEngine().getOpenai().getApiKey()).filter(key -> !key.isBlank());
        return new EngineHealthIndicator(engine, apiKey);
    }
}
