package dev.pagantic.tck;

import dev.pagantic.inference.Engine;
import dev.pagantic.testkit.EchoEngine;
import dev.pagantic.testkit.FailingEngine;
import dev.pagantic.testkit.SlowEngine;

/**
 * The echo engine meets the contract: the kit's prompts are echoed (the MAX_TOKENS prompt is longer than the kit's
 * small limit), and the scenarios an echo cannot produce by itself compose it with the other fakes.
 */
class EchoEngineContractTest extends EngineContractTest {

    @Override
    protected Engine createEngine(Scenario scenario) {
        return switch (scenario) {
            case DEADLINE -> SlowEngine.builder().delegate(EchoEngine.create())
                    .initialDelay(ContractScripts.SLOWER_THAN_THE_DEADLINE).build();
            case BACKEND_FAILURE -> FailingEngine.builder().failAlways().delegate(EchoEngine.create()).build();
            default -> EchoEngine.create();
        };
    }
}
