package dev.pagantic.adapter.spring;

import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.inference.Engine;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;

/**
 * The engine of {@code pagantic.engine.kind}: a llama.cpp model, an OpenAI-compatible server or a routing fleet of
 * both (see {@link PaganticProperties}). An {@link Engine} bean of the application's replaces it, and a
 * {@link LlamaRuntime} bean of the application's is the one llama.cpp models are loaded into. Both are closed with the
 * context.
 */
@AutoConfiguration
@EnableConfigurationProperties(PaganticProperties.class)
public class PaganticEngineAutoConfiguration {

    /**
     * The application's llama.cpp runtime, created only when a llama.cpp model is configured (it prepares the native
     * library), and closed with the context, which frees the models loaded into it.
     */
    @Bean(destroyMethod = "close")
    @Lazy
    @ConditionalOnMissingBean
    public LlamaRuntime paganticLlamaRuntime() {
        return LlamaRuntime.builder().build();
    }

    /** The engine the properties describe. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(Engine.class)
    @ConditionalOnProperty(prefix = "pagantic.engine", name = "kind")
    public Engine paganticEngine(PaganticProperties properties, ObjectProvider<LlamaRuntime> runtime) {
        return new Engines(properties.getEngine(), runtime::getObject).build();
    }
}
