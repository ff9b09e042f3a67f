package dev.pagantic.tck;

import dev.pagantic.inference.Engine;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import java.time.Duration;

/**
 * The slow engine meets the contract around a scripted engine. In the DEADLINE scenario the deadline passes during
 * the per-token delays, so that path of the slow engine is the one under test.
 */
class SlowEngineContractTest extends EngineContractTest {

    @Override
    protected Engine createEngine(Scenario scenario) {
        ScriptedEngine scripted = ContractScripts.scripted(scenario, ContractScripts.DEFAULT_CAPABILITIES);
        if (scenario == Scenario.DEADLINE) {
            // 60 tokens at 50 ms each: three seconds, unless the 200 ms deadline stops it.
            return SlowEngine.builder().delegate(scripted).delayPerToken(Duration.ofMillis(50)).build();
        }
        return SlowEngine.builder().delegate(scripted).initialDelay(Duration.ofMillis(2))
                .delayPerToken(Duration.ofMillis(1)).build();
    }
}
