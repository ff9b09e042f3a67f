package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.orchestrate.spi.Observer;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The observer hook of the interception SPI: what it sees, in which order, and what it costs when absent. */
class ObserverTest {

    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final InMemoryEventLog observed = EventLog.inMemory();

    private final Observer observer = new Observer() {
        @Override
        public <T> T intercept(Invocation<T> invocation) {
            seen.add("observer>" + invocation.kind());
            try {
                return invocation.proceed();
            } finally {
                seen.add("observer<" + invocation.kind());
            }
        }

        @Override
        public EventLog eventLog() {
            return observed;
        }
    };

    private final Interceptor interceptor = new Interceptor() {
        @Override
        public <T> T intercept(Invocation<T> invocation) {
            seen.add("interceptor " + invocation.kind());
            return invocation.proceed();
        }
    };

    private static ToolRegistry probe() {
        return ToolRegistry.of(Tool.builder(ToolDefinition.of("probe", "a probe", Schema.object().build()))
                .handler((ctx, args) -> "ok").build());
    }

    @Test
    void anObserverWrapsTheRequestAndTheTurnAndIsOutermostAroundEveryInterceptedCall() {
        ScriptedEngine engine = ScriptedEngine.builder().replyCallingTool("probe", Map.of()).reply("done").build();
        try (Orchestrator orchestrator = Orchestrator.builder().engine(engine).tools(probe()).observer(observer)
                .interceptor(interceptor).build()) {
            orchestrator.execute(SystemRequest.builder().user("go").build());
        }

        assertThat(seen).containsExactly("observer>REQUEST", "observer>AGENT_TURN",
                "observer>INFERENCE", "interceptor INFERENCE", "observer<INFERENCE",
                "observer>TOOL_CALL", "interceptor TOOL_CALL", "observer<TOOL_CALL",
                "observer>INFERENCE", "interceptor INFERENCE", "observer<INFERENCE",
                "observer<AGENT_TURN", "observer<REQUEST");
    }

    @Test
    void theObserverReceivesEveryEventNextToTheConfiguredLog() {
        InMemoryEventLog configured = EventLog.inMemory();
        try (Orchestrator orchestrator = Orchestrator.builder().engine(ScriptedEngine.replying("hi"))
                .eventLog(configured).observer(observer).build()) {
            orchestrator.execute(SystemRequest.builder().requestId("r-1").user("go").build());
        }

        assertThat(observed.events()).extracting(Event::action).contains("lifecycle_transition", "inference_start",
                "inference_end");
        assertThat(observed.events()).isEqualTo(configured.events());
    }

    @Test
    void withoutAnObserverTheSettingsAreThoseConfigured() {
        EventLog configured = EventLog.inMemory();
        try (Orchestrator orchestrator = Orchestrator.builder().engine(ScriptedEngine.replying("hi"))
                .eventLog(configured).build()) {
            assertThat(orchestrator.settings().observer()).isSameAs(Observer.NONE);
            assertThat(orchestrator.settings().interceptor()).isSameAs(Interceptor.NONE);
            assertThat(orchestrator.settings().eventLog()).isSameAs(configured);
        }
    }

    @Test
    void aLoopBuiltOnObservedSettingsIsObservedOnce() {
        try (Orchestrator orchestrator = Orchestrator.builder().engine(ScriptedEngine.replying("hi", "again"))
                .observer(observer).build();
             AgentLoop loop = AgentLoop.builder().loopSettings(orchestrator.settings()).eventLog(EventLog.noOp())
                     .build()) {
            loop.chat(CallContext.background(), "go");
        }

        assertThat(seen).containsExactly("observer>AGENT_TURN", "observer>INFERENCE", "observer<INFERENCE",
                "observer<AGENT_TURN");
        assertThat(observed.events()).extracting(Event::action).contains("inference_start");
    }
}
