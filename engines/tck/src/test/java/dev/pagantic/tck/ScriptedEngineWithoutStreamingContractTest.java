package dev.pagantic.tck;

import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import java.util.EnumSet;

/**
 * A scripted engine that declares neither streaming nor tools: it exercises the kit's path for non-streaming engines,
 * which are cancelled from another thread after a delay, so the scenario that is cancelled while running is slow.
 */
class ScriptedEngineWithoutStreamingContractTest extends EngineContractTest {

    @Override
    protected Engine createEngine(Scenario scenario) {
        ScriptedEngine scripted = ContractScripts.scripted(scenario, EnumSet.of(Capability.TOKEN_COUNTING));
        if (scenario == Scenario.CANCEL_DURING || scenario == Scenario.DEADLINE) {
            return SlowEngine.builder().delegate(scripted).initialDelay(ContractScripts.SLOWER_THAN_THE_DEADLINE)
                    .build();
        }
        return scripted;
    }
}
