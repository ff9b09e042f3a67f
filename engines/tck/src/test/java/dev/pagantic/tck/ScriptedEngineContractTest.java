package dev.pagantic.tck;

import dev.pagantic.inference.Engine;

/** The scripted engine, with its default capabilities (tools, streaming, token counting), meets the contract. */
class ScriptedEngineContractTest extends EngineContractTest {

    @Override
    protected Engine createEngine(Scenario scenario) {
        return ContractScripts.healthy(scenario);
    }
}
