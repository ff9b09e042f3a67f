package dev.pagantic.adapter.spring;

import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.HealthIndicator;

/** What a test of a started application looks at: the configured engine, orchestrator and health indicator. */
abstract class StartedApplication {

    @Autowired
    Engine engine;
    @Autowired
    Orchestrator orchestrator;
    @Autowired
    HealthIndicator paganticHealthIndicator;
}
