package dev.pagantic.engine.routing;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.tck.EngineContractTest;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A routing engine over two scripted replicas meets the Engine contract. Both replicas are scripted alike for each
 * scenario, as the testkit's own contract tests script one engine, so whichever replica a call reaches answers as
 * the scenario needs; in the backend-failure scenario both fail, so the failover's retry fails too.
 */
class RoutingEngineContractTest extends EngineContractTest {

    /** Sixty tokens: longer than the kit's small maxTokens, and long enough to be cancelled while streaming. */
    private static final String LONG_REPLY = IntStream.rangeClosed(1, 60).mapToObj(Integer::toString)
            .collect(Collectors.joining(" "));
    /** Far longer than the kit's 200 ms deadline, short enough that an engine ignoring deadlines still finishes. */
    private static final Duration SLOWER_THAN_THE_DEADLINE = Duration.ofSeconds(1);

    /** The scripted engine's default capabilities. */
    static final Set<Capability> DEFAULT_CAPABILITIES =
            EnumSet.of(Capability.TOOLS, Capability.STREAMING, Capability.TOKEN_COUNTING);

    @Override
    protected Engine createEngine(Scenario scenario) {
        return fleet(scenario, DEFAULT_CAPABILITIES);
    }

    /** Two replicas scripted alike for the scenario, owned by the routing engine so that the kit's close ends them. */
    static Engine fleet(Scenario scenario, Set<Capability> capabilities) {
        return RoutingEngine.builder().replicas(replica(scenario, capabilities), replica(scenario, capabilities))
                .ownReplicas(true).build();
    }

    private static Engine replica(Scenario scenario, Set<Capability> capabilities) {
        ScriptedEngine.Builder builder = ScriptedEngine.builder().capabilities(capabilities);
        switch (scenario) {
            case MAX_TOKENS, CANCEL_DURING, DEADLINE -> builder.reply(LONG_REPLY);
            case STREAMING -> builder.replyWithReasoning("The user wants a greeting.",
                    "Hello there, this reply streams word by word.");
            case TOOL_CALL -> builder.replyCallingTool(CONTRACT_TOOL.name(), Map.of("city", "Paris"));
            case GRAMMAR -> builder.reply("yes");
            case BACKEND_FAILURE -> builder.fail(ErrorCode.INFERENCE_ENGINE_ERROR, "backend answered HTTP 500");
            default -> builder.reply("Hello there, nice to meet you.");
        }
        ScriptedEngine scripted = builder.build();
        if (scenario == Scenario.DEADLINE) {
            return SlowEngine.builder().delegate(scripted).initialDelay(SLOWER_THAN_THE_DEADLINE).build();
        }
        return scripted;
    }
}
