package dev.pagantic.adapter.spring;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.FileConversationStore;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.memory.JdbcConversationStore;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.tool.ToolRegistry;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The {@link Orchestrator} on the application's {@link Engine} (the one {@link PaganticEngineAutoConfiguration} builds
 * from the properties, or the application's own), with the properties' system prompt and limits, the conversation
 * store of {@code pagantic.store.kind} and the context's tools (see {@link ToolBeans}).
 *
 * <p>Every part can be replaced by declaring a bean: a {@link ConversationStore}, a {@link ToolRegistry} (instead of
 * the tools found in the context), an {@link EventLog} (none by default), or the {@code Orchestrator} itself;
 * {@link OrchestratorCustomizer} beans adjust the builder after the properties.
 */
@AutoConfiguration(after = PaganticEngineAutoConfiguration.class,
        afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@EnableConfigurationProperties(PaganticProperties.class)
public class PaganticAutoConfiguration {

    /** The store of {@code pagantic.store.kind}; closed with the context. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(ConversationStore.class)
    public ConversationStore paganticConversationStore(PaganticProperties properties,
                                                       ObjectProvider<DataSource> dataSource) {
        PaganticProperties.Store store = properties.getStore();
        return switch (store.getKind()) {
            case MEMORY -> new InMemoryConversationStore();
            case FILE -> {
                String directory = store.getFile().getDirectory();
                if (directory == null || directory.isBlank()) {
                    throw invalid("pagantic.store.file.directory is required when pagantic.store.kind=file");
                }
                yield FileConversationStore.builder().directory(Path.of(directory))
                        .fsync(store.getFile().isFsync()).build();
            }
            case JDBC -> {
                DataSource source = dataSource.getIfUnique();
                if (source == null) {
                    throw invalid("pagantic.store.kind=jdbc needs one DataSource bean (for example "
                            + "spring-boot-starter-jdbc with spring.datasource.url)");
                }
                yield JdbcConversationStore.builder().dataSource(source)
                        .createSchema(store.getJdbc().isCreateSchema()).build();
            }
        };
    }

    /** The orchestrator; closed with the context (the engine and the store are closed as beans of their own). */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnBean(Engine.class)
    public Orchestrator paganticOrchestrator(Engine engine, PaganticProperties properties,
                                             ConversationStore store, ObjectProvider<ToolRegistry> tools,
                                             ObjectProvider<EventLog> eventLog,
                                             ObjectProvider<OrchestratorCustomizer> customizers,
                                             ConfigurableListableBeanFactory beans) {
        Orchestrator.Builder builder = Orchestrator.builder()
                .engine(engine)
                .systemPrompt(properties.getSystemPrompt())
                .settings(settings(properties))
                .maxToolIterations(properties.getMaxToolIterations())
                .conversationStore(store)
                .maxSessions(properties.getSessions().getMax())
                .sessionTtl(properties.getSessions().getTtl())
                .tools(tools.getIfAvailable(
                        () -> properties.getTools().isEnabled() ? ToolBeans.registry(beans) : null));
        eventLog.ifAvailable(builder::eventLog);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    private static InferenceSettings settings(PaganticProperties properties) {
        InferenceSettings.Builder settings = InferenceSettings.builder().maxTokens(properties.getMaxTokens());
        if (properties.getTemperature() != null) {
            settings.temperature(properties.getTemperature());
        }
        if (properties.getTopP() != null) {
            settings.topP(properties.getTopP());
        }
        return settings.build();
    }

    private static PaganticException invalid(String message) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, message);
    }
}
