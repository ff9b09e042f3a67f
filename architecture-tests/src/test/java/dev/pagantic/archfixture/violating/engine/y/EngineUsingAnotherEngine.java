package dev.pagantic.archfixture.violating.engine.y;

import dev.pagantic.archfixture.violating.engine.x.XEngine;

/** Breaks "engines do not depend on each other": engine y imports engine x. */
public final class EngineUsingAnotherEngine {

    public XEngine delegate() {
        return XEngine.builder().build();
    }
}
