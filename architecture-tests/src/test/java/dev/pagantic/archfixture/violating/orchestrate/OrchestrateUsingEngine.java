package dev.pagantic.archfixture.violating.orchestrate;

import dev.pagantic.archfixture.violating.engine.x.XEngine;

/** Breaks "orchestrate uses engines only through the inference SPI": it imports a concrete engine. */
public final class OrchestrateUsingEngine {

    public XEngine engine() {
        return XEngine.builder().build();
    }
}
