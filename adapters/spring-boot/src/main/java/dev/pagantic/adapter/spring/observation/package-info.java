/**
 * Micrometer observations for the auto-configured orchestrator, through {@code pagantic-micrometer} (an optional
 * dependency of the starter: add it, and an application with an {@code ObservationRegistry} observes every request).
 * It is a customizer rather than an orchestrator of its own, so that it combines with the application's customizers
 * and steps aside when the application declares its own {@code Orchestrator}.
 */
@NullMarked
package dev.pagantic.adapter.spring.observation;

import org.jspecify.annotations.NullMarked;
