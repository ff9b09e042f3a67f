package dev.pagantic.archfixture.violating.adapter.spring;

import dev.pagantic.archfixture.violating.engine.x.XEngine;

/** Breaks "adapters only build and close wired components": only the health indicator may read an engine's state. */
public final class SpringReadingStateOutsideHealth {

    public String model() {
        return XEngine.builder().build().modelInfo();
    }
}
