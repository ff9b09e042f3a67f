/**
 * The engine's actuator health indicator: a model that could not be loaded is DOWN with the reason, an
 * OpenAI-compatible server is probed, a routing fleet is UP while one replica is healthy
 * ({@link dev.pagantic.adapter.spring.health.EngineHealthIndicator}). Configured only when the application has
 * actuator's health support; this package reads the engine's state and nothing else.
 */
@NullMarked
package dev.pagantic.adapter.spring.health;

import org.jspecify.annotations.NullMarked;
