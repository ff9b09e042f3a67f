package dev.pagantic.archfixture.violating.adapter.spring.health;

import dev.pagantic.archfixture.violating.engine.x.XEngine;

/** Accepted: the Spring Boot adapter's health indicator reads an engine's state. */
public final class HealthReadingModelInfo {

    public String status(XEngine engine) {
        return engine.modelInfo();
    }
}
