package dev.pagantic.tck;

import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import java.util.EnumSet;

/**
 * A scripted engine that declares every request capability: the grammar case runs (the script answers "yes") and
 * the undeclared-capability case is skipped.
 */
class ScriptedEngineWithGrammarAndSchemaContractTest extends EngineContractTest {

    @Override
    protected Engine createEngine(Scenario scenario) {
        return ContractScripts.healthy(scenario, EnumSet.of(Capability.TOOLS, Capability.STREAMING,
                Capability.TOKEN_COUNTING, Capability.GRAMMAR, Capability.SCHEMA));
    }
}
