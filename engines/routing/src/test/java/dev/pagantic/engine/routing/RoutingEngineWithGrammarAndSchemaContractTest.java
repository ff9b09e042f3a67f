package dev.pagantic.engine.routing;

import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.tck.EngineContractTest;
import java.util.EnumSet;

/**
 * A routing engine over two scripted replicas that declare every request capability: the grammar case runs (the
 * scripts answer "yes") and the undeclared-capability case is skipped.
 */
class RoutingEngineWithGrammarAndSchemaContractTest extends EngineContractTest {

    @Override
    protected Engine createEngine(Scenario scenario) {
        return RoutingEngineContractTest.fleet(scenario, EnumSet.of(Capability.TOOLS, Capability.STREAMING,
                Capability.TOKEN_COUNTING, Capability.GRAMMAR, Capability.SCHEMA));
    }
}
