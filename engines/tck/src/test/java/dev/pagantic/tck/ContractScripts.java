package dev.pagantic.tck;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.tck.EngineContractTest.Scenario;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Scripts that give a scripted engine what each contract scenario needs; shared by the kit's own contract tests. */
final class ContractScripts {

    /** Sixty tokens: longer than the kit's small maxTokens, and long enough to be cancelled while streaming. */
    static final String LONG_REPLY = IntStream.rangeClosed(1, 60).mapToObj(Integer::toString)
            .collect(Collectors.joining(" "));
    static final String GREETING = "Hello there, nice to meet you.";
    static final Set<Capability> DEFAULT_CAPABILITIES =
            EnumSet.of(Capability.TOOLS, Capability.STREAMING, Capability.TOKEN_COUNTING, Capability.SEED,
                    Capability.STOP);
    /** Far longer than the kit's 200 ms deadline, short enough that an engine ignoring deadlines still finishes. */
    static final Duration SLOWER_THAN_THE_DEADLINE = Duration.ofSeconds(1);

    private ContractScripts() {
    }

    /** A scripted engine with the default capabilities, slowed down for the DEADLINE scenario. */
    static Engine healthy(Scenario scenario) {
        return healthy(scenario, DEFAULT_CAPABILITIES);
    }

    /** A scripted engine with these capabilities, slowed down for the DEADLINE scenario. */
    static Engine healthy(Scenario scenario, Set<Capability> capabilities) {
        ScriptedEngine scripted = scripted(scenario, capabilities);
        if (scenario == Scenario.DEADLINE) {
            return SlowEngine.builder().delegate(scripted).initialDelay(SLOWER_THAN_THE_DEADLINE).build();
        }
        return scripted;
    }

    /** A scripted engine whose one step is what the scenario needs. */
    static ScriptedEngine scripted(Scenario scenario, Set<Capability> capabilities) {
        ScriptedEngine.Builder builder = ScriptedEngine.builder().capabilities(capabilities);
        switch (scenario) {
            case MAX_TOKENS, CANCEL_DURING, DEADLINE -> builder.reply(LONG_REPLY);
            case STREAMING -> builder.replyWithReasoning("The user wants a greeting.",
                    "Hello there, this reply streams word by word.");
            case TOOL_CALL -> {
                if (capabilities.contains(Capability.TOOLS)) {
                    builder.replyCallingTool(EngineContractTest.CONTRACT_TOOL.name(), Map.of("city", "Paris"));
                } else {
                    builder.reply(GREETING); // the case is skipped; the script just has to build
                }
            }
            case GRAMMAR -> builder.reply("yes");
            case BACKEND_FAILURE -> builder.fail(ErrorCode.INFERENCE_ENGINE_ERROR, "backend answered HTTP 500");
            default -> builder.reply(GREETING);
        }
        return builder.build();
    }
}
