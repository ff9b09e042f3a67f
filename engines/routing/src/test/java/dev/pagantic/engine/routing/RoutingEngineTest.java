package dev.pagantic.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.TokenCounter;
import dev.pagantic.testkit.ScriptedEngine;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The builder, the fleet's model info, pass-through of the call context, refusals and closing. */
class RoutingEngineTest {

    private static final Request HELLO = Request.of("hello");

    // ------------------------------------------------------------------------------------------------------ builder

    @Test
    void aRoutingEngineNeedsAtLeastOneReplica() {
        assertThatThrownBy(() -> RoutingEngine.builder().build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID))
                .hasMessageContaining("at least one replica");
    }

    @Test
    void theFailureThresholdMustBeAtLeastOne() {
        assertThatThrownBy(() -> RoutingEngine.builder().replicas(FakeReplica.named("a")).unhealthyAfter(0).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID))
                .hasMessageContaining("unhealthyAfter");
    }

    @Test
    void theCooldownMustNotBeNegative() {
        assertThatThrownBy(() -> RoutingEngine.builder().replicas(FakeReplica.named("a"))
                .cooldown(Duration.ofSeconds(-1)).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID))
                .hasMessageContaining("cooldown");
    }

    @Test
    void replicasReplaceThoseGivenBeforeAndAddReplicaAppends() {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica b = FakeReplica.named("b");
        FakeReplica c = FakeReplica.named("c");
        RoutingEngine engine = RoutingEngine.builder().replicas(a).replicas(List.of(b)).addReplica(c).build();

        assertThat(engine.health()).extracting(ReplicaHealth::modelName).containsExactly("b", "c");
    }

    // --------------------------------------------------------------------------------------------------- model info

    @Test
    void theFleetDeclaresOnlyTheCapabilitiesEveryReplicaDeclaresAndTheSmallestKnownWindow() {
        Engine a = ScriptedEngine.builder().modelName("llama").contextWindow(8192)
                .capabilities(Capability.TOOLS, Capability.STREAMING, Capability.GRAMMAR).build();
        Engine b = ScriptedEngine.builder().modelName("llama").contextWindow(4096)
                .capabilities(Capability.TOOLS, Capability.STREAMING, Capability.SCHEMA).build();
        Engine c = ScriptedEngine.builder().modelName("llama").contextWindow(0) // unknown: left out of the minimum
                .capabilities(Capability.TOOLS, Capability.STREAMING, Capability.TOKEN_COUNTING).build();

        ModelInfo info = RoutingEngine.builder().replicas(a, b, c).build().modelInfo();

        assertThat(info.name()).isEqualTo("routing(llama)");
        assertThat(info.contextWindow()).isEqualTo(4096);
        assertThat(info.capabilities()).containsExactlyInAnyOrder(Capability.TOOLS, Capability.STREAMING);
    }

    @Test
    void theFleetNamesEachDistinctReplicaModelOnce() {
        RoutingEngine engine = RoutingEngine.builder()
                .replicas(FakeReplica.named("a"), FakeReplica.named("b"), FakeReplica.named("a")).build();

        assertThat(engine.modelInfo().name()).isEqualTo("routing(a, b)");
    }

    @Test
    void theWindowIsUnknownWhenNoReplicaKnowsIt() {
        Engine a = ScriptedEngine.builder().contextWindow(0).build();

        assertThat(RoutingEngine.builder().replicas(a).build().modelInfo().contextWindow()).isZero();
    }

    @Test
    void aRequestForACapabilityNotEveryReplicaDeclaresIsRefusedBeforeAnyReplicaIsCalled() {
        ScriptedEngine withTools = ScriptedEngine.replying("never");
        ScriptedEngine withoutTools = ScriptedEngine.builder().capabilities(Capability.STREAMING).reply("never")
                .build();
        RoutingEngine engine = RoutingEngine.builder().replicas(withTools, withoutTools).build();
        Request needsTools = Request.builder().addMessage(Message.user("weather?"))
                .addTool(ToolDefinition.of("get_weather", "weather",
                        Schema.object().required("city", Schema.string()).build()))
                .build();

        assertThatThrownBy(() -> engine.infer(needsTools))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY));
        assertThat(withTools.callCount()).isZero();
        assertThat(withoutTools.callCount()).isZero();
        assertThat(engine.health()).allSatisfy(replica -> {
            assertThat(replica.healthy()).isTrue();
            assertThat(replica.consecutiveFailures()).isZero();
        });
    }

    @Test
    void theTokenCounterIsTheFirstReplicas() {
        TokenCounter fortyTwo = text -> 42;
        Engine first = new Engine() {
            @Override
            public Result infer(CallContext context, Request request) {
                throw new UnsupportedOperationException("not called");
            }

            @Override
            public ModelInfo modelInfo() {
                return ModelInfo.of("first", 100);
            }

            @Override
            public TokenCounter tokenCounter() {
                return fortyTwo;
            }
        };

        RoutingEngine engine = RoutingEngine.builder().replicas(first, FakeReplica.named("second")).build();

        assertThat(engine.tokenCounter().count("anything")).isEqualTo(42);
    }

    // ------------------------------------------------------------------------------------------------- pass-through

    @Test
    void theCallContextReachesTheReplicaUnchanged() {
        FakeReplica a = FakeReplica.named("a");
        RoutingEngine engine = RoutingEngine.builder().replicas(a).build();
        CallContext context = CallContext.builder().requestId("req-7").sessionId("chat-1")
                .timeout(Duration.ofMinutes(1)).build();

        Result result = engine.infer(context, HELLO);

        assertThat(result.content()).isEqualTo("a");
        assertThat(a.contexts()).singleElement().isSameAs(context);
    }

    @Test
    void aCancelledCallIsRefusedBeforeAnyReplicaIsCalled() {
        FakeReplica a = FakeReplica.named("a");
        RoutingEngine engine = RoutingEngine.builder().replicas(a).build();
        Cancellation cancellation = new Cancellation();
        cancellation.cancel("user left");
        CallContext context = CallContext.builder().cancellation(cancellation).build();

        assertThatThrownBy(() -> engine.infer(context, HELLO))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
        assertThat(a.calls()).isZero();
    }

    // ----------------------------------------------------------------------------------------------------- closing

    @Test
    void aClosedRoutingEngineRefusesCallsButLeavesReplicasItDoesNotOwnOpen() {
        FakeReplica a = FakeReplica.named("a");
        RoutingEngine engine = RoutingEngine.builder().replicas(a).build();

        engine.close();

        assertThatThrownBy(() -> engine.infer(HELLO))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INFERENCE_ENGINE_CLOSED));
        assertThat(a.isClosed()).isFalse();
        assertThat(a.infer(HELLO).content()).isEqualTo("a");
    }

    @Test
    void anOwningRoutingEngineClosesEveryReplicaEvenWhenOneFailsToClose() {
        FakeReplica a = FakeReplica.named("a");
        FakeReplica c = FakeReplica.named("c");
        Engine failsToClose = new Engine() {
            @Override
            public Result infer(CallContext context, Request request) {
                throw new UnsupportedOperationException("not called");
            }

            @Override
            public ModelInfo modelInfo() {
                return ModelInfo.of("b", 100);
            }

            @Override
            public void close() {
                throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "connection reset while closing");
            }
        };
        RoutingEngine engine = RoutingEngine.builder().replicas(a, failsToClose, c).ownReplicas(true).build();

        assertThatThrownBy(engine::close).hasMessageContaining("connection reset while closing");
        assertThat(a.isClosed()).isTrue();
        assertThat(c.isClosed()).isTrue();
        engine.close(); // a second close does nothing
    }
}
