package dev.pagantic.adapter.spring;

import dev.pagantic.orchestrate.facade.Orchestrator;

/**
 * Adjusts the auto-configured {@link Orchestrator} before it is built, for what the properties do not cover (a
 * planner, a retry policy, rules, a context provider). Declare one or more as beans; they run in their
 * {@link org.springframework.core.annotation.Order order}, after the properties have been applied. To replace the
 * orchestrator altogether, declare an {@code Orchestrator} bean instead.
 */
@FunctionalInterface
public interface OrchestratorCustomizer {

    /** Adjusts the builder; the starter calls {@code build()} afterwards. */
    void customize(Orchestrator.Builder builder);
}
