package dev.pagantic.tck;

import dev.pagantic.inference.Engine;
import dev.pagantic.testkit.FailingEngine;

/** The failing engine meets the contract: it fails in the backend-failure scenario and delegates in all others. */
class FailingEngineContractTest extends EngineContractTest {

    @Override
    protected Engine createEngine(Scenario scenario) {
        if (scenario == Scenario.BACKEND_FAILURE) {
            return FailingEngine.builder().failAlways().delegate(ContractScripts.healthy(Scenario.SIMPLE_COMPLETION))
                    .build();
        }
        return FailingEngine.builder().failures(0).delegate(ContractScripts.healthy(scenario)).build();
    }
}
