package dev.pagantic.archfixture.violating.observe;

import dev.pagantic.archfixture.violating.engine.x.XEngine;

/** Breaks "band layers depend only on core and inference": observe imports a concrete engine. */
public final class ObserveUsingEngine {

    public String name(XEngine engine) {
        return engine.getClass().getSimpleName();
    }
}
