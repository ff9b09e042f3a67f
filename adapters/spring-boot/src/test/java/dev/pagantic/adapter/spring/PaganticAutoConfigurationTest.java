package dev.pagantic.adapter.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.spring.health.PaganticHealthAutoConfiguration;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.FileConversationStore;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.memory.JdbcConversationStore;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.nio.file.Files;
import java.util.Map;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.sqlite.SQLiteDataSource;

/** The auto-configuration's choices, each on a fresh context (fast: no application, no web server). */
class PaganticAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PaganticEngineAutoConfiguration.class,
                    PaganticAutoConfiguration.class, PaganticHealthAutoConfiguration.class));

    private static ScriptedEngine scripted(String... replies) {
        return ScriptedEngine.replying(replies);
    }

    @Test
    void withoutAnEngineKindTheStarterConfiguresNoEngineAndNoOrchestrator() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(Engine.class).doesNotHaveBean(Orchestrator.class)
                    .doesNotHaveBean(HealthIndicator.class);
        });
    }

    @Test
    void theLlamaCppRuntimeIsNotCreatedForAnOpenAiEngine() {
        runner.withPropertyValues("pagantic.engine.kind=openai", "pagantic.engine.openai.base-url=http://127.0.0.1:9",
                        "pagantic.engine.openai.model=m")
                .run(context -> {
                    assertThat(context).hasSingleBean(Orchestrator.class);
                    assertThat(context.getBeanFactory().containsSingleton("paganticLlamaRuntime")).isFalse();
                });
    }

    @Test
    void anEngineBeanOfTheApplicationReplacesTheConfiguredOne() {
        ScriptedEngine mine = scripted("mine");
        runner.withPropertyValues("pagantic.engine.kind=openai", "pagantic.engine.openai.base-url=http://127.0.0.1:9",
                        "pagantic.engine.openai.model=m")
                .withBean(Engine.class, () -> mine)
                .run(context -> {
                    assertThat(context.getBean(Engine.class)).isSameAs(mine);
                    assertThat(Chats.chat(context.getBean(Orchestrator.class), "s", "Hi").content()).isEqualTo("mine");
                });
    }

    @Test
    void aConversationStoreBeanOfTheApplicationReplacesTheConfiguredOne() {
        InMemoryConversationStore mine = new InMemoryConversationStore();
        runner.withBean(Engine.class, () -> scripted("ok")).withBean(ConversationStore.class, () -> mine)
                .run(context -> {
                    assertThat(context.getBean(ConversationStore.class)).isSameAs(mine);
                    Chats.chat(context.getBean(Orchestrator.class), "s-mine", "Hi");
                    assertThat(mine.sessions()).containsExactly("s-mine");
                });
    }

    @Test
    void aToolRegistryBeanOfTheApplicationReplacesTheToolsFoundInTheContext() {
        ScriptedEngine engine = scripted("ok");
        ToolRegistry mine = ToolRegistry.builder().add(Tool.builder(ToolDefinition.of("mine", "Mine",
                Schema.object().build())).handler((ctx, args) -> "done").build()).build();
        runner.withBean(Engine.class, () -> engine).withBean(ToolRegistry.class, () -> mine)
                .withBean(ToolBeansChatTest.OrderService.class, ToolBeansChatTest.OrderService::new)
                .run(context -> {
                    Chats.chat(context.getBean(Orchestrator.class), "s", "Hi");
                    assertThat(engine.requests().get(0).tools()).extracting(ToolDefinition::name)
                            .containsExactly("mine");
                });
    }

    @Test
    void aProxiedToolBeanIsRegisteredThroughItsTarget() {
        ScriptedEngine engine = ScriptedEngine.builder().replyCallingTool("orderStatus", Map.of("orderId", "A-17"))
                .reply("ok").build();
        runner.withBean(Engine.class, () -> engine)
                .withBean(ToolBeansChatTest.OrderService.class, ToolBeansChatTest.OrderService::new)
                .withBean(ClassProxies.class, ClassProxies::new)
                .run(context -> {
                    ToolBeansChatTest.OrderService proxy = context.getBean(ToolBeansChatTest.OrderService.class);
                    assertThat(AopUtils.isCglibProxy(proxy)).isTrue();
                    Chats.chat(context.getBean(Orchestrator.class), "s", "Where is A-17?");
                    assertThat(((ToolBeansChatTest.OrderService) AopProxyUtils.getSingletonTarget(proxy)).looked)
                            .containsExactly("A-17");
                });
    }

    /** Wraps every tool bean in a class proxy, as Spring does for a @Transactional or @Cacheable service. */
    static final class ClassProxies implements BeanPostProcessor {
        @Override
        public Object postProcessAfterInitialization(Object bean, String name) {
            if (!(bean instanceof ToolBeansChatTest.OrderService)) {
                return bean;
            }
            ProxyFactory proxy = new ProxyFactory(bean);
            proxy.setProxyTargetClass(true);
            proxy.addAdvice((MethodInterceptor) MethodInvocation::proceed);
            return proxy.getProxy();
        }
    }

    @Test
    void toolBeansAreNotRegisteredWhenToolsAreDisabled() {
        ScriptedEngine engine = scripted("ok");
        runner.withPropertyValues("pagantic.tools.enabled=false").withBean(Engine.class, () -> engine)
                .withBean(ToolBeansChatTest.OrderService.class, ToolBeansChatTest.OrderService::new)
                .run(context -> {
                    Chats.chat(context.getBean(Orchestrator.class), "s", "Hi");
                    assertThat(engine.requests().get(0).tools()).isEmpty();
                });
    }

    @Test
    void anOrchestratorBeanOfTheApplicationReplacesTheConfiguredOne() {
        runner.withBean(Engine.class, () -> scripted("ok"))
                .withBean("mine", Orchestrator.class, () -> Orchestrator.builder().engine(scripted("mine")).build())
                .run(context -> assertThat(context).getBean(Orchestrator.class).isSameAs(context.getBean("mine")));
    }

    @Test
    void aHealthIndicatorOfTheApplicationReplacesTheConfiguredOne() {
        HealthIndicator mine = () -> Health.outOfService().build();
        runner.withBean(Engine.class, () -> scripted("ok")).withBean("paganticHealthIndicator", HealthIndicator.class,
                () -> mine).run(context -> assertThat(context.getBean(HealthIndicator.class)).isSameAs(mine));
    }

    @Test
    void aLlamaRuntimeBeanOfTheApplicationReplacesTheConfiguredOne() {
        runner.withBean("mine", LlamaRuntime.class, () -> LlamaRuntime.builder().build())
                .run(context -> assertThat(context).getBean(LlamaRuntime.class).isSameAs(context.getBean("mine")));
    }

    @Test
    void theHealthIndicatorCanBeTurnedOff() {
        runner.withPropertyValues("management.health.pagantic.enabled=false").withBean(Engine.class, () -> scripted())
                .run(context -> assertThat(context).doesNotHaveBean(HealthIndicator.class));
    }

    @Test
    void theSystemPromptAndLimitsOfThePropertiesReachTheEngine() {
        ScriptedEngine engine = scripted("ok");
        runner.withPropertyValues("pagantic.system-prompt=Be brief.", "pagantic.max-tokens=77",
                        "pagantic.temperature=0.25")
                .withBean(Engine.class, () -> engine)
                .run(context -> {
                    Chats.chat(context.getBean(Orchestrator.class), "s", "Hi");
                    Request request = engine.requests().get(0);
                    assertThat(request.messages().get(0)).isEqualTo(Message.system("Be brief."));
                    assertThat(request.settings().maxTokens()).isEqualTo(77);
                    assertThat(request.settings().temperature()).hasValue(0.25);
                });
    }

    @Test
    void anEventLogBeanOfTheApplicationReceivesEveryRequestsEvents() {
        InMemoryEventLog events = EventLog.inMemory();
        runner.withBean(Engine.class, () -> scripted("ok")).withBean(EventLog.class, () -> events)
                .run(context -> {
                    String requestId = Chats.chat(context.getBean(Orchestrator.class), "s", "Hi").requestId();
                    assertThat(events.events()).extracting(Event::action)
                            .contains("lifecycle_transition", "inference_start", "inference_end");
                    assertThat(events.events()).allSatisfy(event ->
                            assertThat(event.requestId()).isEqualTo(requestId));
                });
    }

    @Test
    void customizersAdjustTheOrchestratorAfterTheProperties() {
        ScriptedEngine engine = scripted("ok");
        runner.withPropertyValues("pagantic.system-prompt=From the properties.")
                .withBean(Engine.class, () -> engine)
                .withBean(OrchestratorCustomizer.class, () -> builder -> builder.systemPrompt("From a customizer."))
                .run(context -> {
                    Chats.chat(context.getBean(Orchestrator.class), "s", "Hi");
                    assertThat(engine.requests().get(0).messages().get(0).content()).isEqualTo("From a customizer.");
                });
    }

    @Test
    void theFileStoreKeepsAConversationAcrossARestartOfTheApplication(@TempDir Path directory) {
        ApplicationContextRunner fileStore = runner.withPropertyValues("pagantic.store.kind=file",
                "pagantic.store.file.directory=" + directory);
        fileStore.withBean(Engine.class, () -> scripted("Nice to meet you, Ada.")).run(context -> {
            assertThat(context.getBean(ConversationStore.class)).isInstanceOf(FileConversationStore.class);
            Chats.chat(context.getBean(Orchestrator.class), "s-ada", "My name is Ada.");
        });
        ScriptedEngine afterRestart = scripted("Your name is Ada.");
        fileStore.withBean(Engine.class, () -> afterRestart).run(context -> {
            Chats.chat(context.getBean(Orchestrator.class), "s-ada", "What is my name?");
            assertThat(afterRestart.requests().get(0).messages()).extracting(Message::content)
                    .contains("My name is Ada.", "Nice to meet you, Ada.", "What is my name?");
        });
        assertThat(directory.toFile().list()).isNotEmpty();
    }

    @Test
    void theJdbcStoreKeepsConversationsInTheApplicationsDataSource(@TempDir Path directory) {
        SQLiteDataSource dataSource = new SQLiteDataSource();
        dataSource.setUrl("jdbc:sqlite:" + directory.resolve("app.db"));
        runner.withPropertyValues("pagantic.store.kind=jdbc")
                .withBean(javax.sql.DataSource.class, () -> dataSource)
                .withBean(Engine.class, () -> scripted("Hello."))
                .run(context -> {
                    ConversationStore store = context.getBean(ConversationStore.class);
                    assertThat(store).isInstanceOf(JdbcConversationStore.class);
                    Chats.chat(context.getBean(Orchestrator.class), "s-jdbc", "Hi");
                    assertThat(store.load("s-jdbc").messages()).extracting(Message::role)
                            .containsExactly(Role.USER, Role.ASSISTANT);
                });
        assertThat(Files.exists(directory.resolve("app.db"))).isTrue();
    }

    @Test
    void theJdbcStoreWithoutADataSourceStopsTheStartNamingWhatIsMissing() {
        runner.withPropertyValues("pagantic.store.kind=jdbc").withBean(Engine.class, () -> scripted())
                .run(context -> assertThat(context).getFailure().rootCause()
                        .isInstanceOf(PaganticException.class).hasMessageContaining("pagantic.store.kind=jdbc")
                        .hasMessageContaining("DataSource"));
    }

    @Test
    void aLlamaCppEngineWithoutAModelPathStopsTheStartNamingTheProperty() {
        runner.withPropertyValues("pagantic.engine.kind=llamacpp").run(context -> {
            Throwable cause = rootCause(context.getStartupFailure());
            assertThat(cause).isInstanceOf(PaganticException.class)
                    .hasMessageContaining("pagantic.engine.llamacpp.model-path");
            assertThat(((PaganticException) cause).code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        });
    }

    @Test
    void aRoutingReplicaWithoutAKindStopsTheStartNamingTheReplica() {
        runner.withPropertyValues("pagantic.engine.kind=routing",
                        "pagantic.engine.routing.replicas[0].openai.base-url=http://127.0.0.1:9",
                        "pagantic.engine.routing.replicas[0].openai.model=m")
                .run(context -> assertThat(rootCause(context.getStartupFailure()))
                        .hasMessageContaining("pagantic.engine.routing.replicas[0].kind"));
    }

    @Test
    void aMissingModelStopsTheStartWhenFailFastIsSet() {
        runner.withPropertyValues("pagantic.engine.kind=llamacpp", "pagantic.engine.fail-fast=true",
                        "pagantic.engine.llamacpp.model-path=target/no-such-model.gguf")
                .run(context -> {
                    Throwable cause = rootCause(context.getStartupFailure());
                    assertThat(cause).isInstanceOf(PaganticException.class);
                    assertThat(((PaganticException) cause).code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
                });
    }

    @Test
    void anUnreachableServerMakesTheHealthIndicatorDown() {
        runner.withPropertyValues("pagantic.engine.kind=openai", "pagantic.engine.openai.base-url=http://127.0.0.1:9",
                        "pagantic.engine.openai.model=m")
                .run(context -> {
                    Health health = context.getBean(HealthIndicator.class).health();
                    assertThat(health.getStatus().getCode()).isEqualTo("DOWN");
                    assertThat(health.getDetails()).containsKey("reason");
                });
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
