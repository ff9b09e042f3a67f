package dev.pagantic.tck;

import dev.pagantic.inference.Engine;
import dev.pagantic.testkit.ChaosEngine;

/**
 * The chaos engine with every probability 0 is its delegate: it meets the Engine contract around a scripted engine,
 * so that whatever a chaos test sees comes from the injected faults, never from the wrapper itself.
 */
class ChaosEngineContractTest extends EngineContractTest {

    @Override
    protected Engine createEngine(Scenario scenario) {
        return ChaosEngine.builder().delegate(ContractScripts.healthy(scenario)).seed(42).build();
    }
}
