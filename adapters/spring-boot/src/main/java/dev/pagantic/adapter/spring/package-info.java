/**
 * The Spring Boot starter: an {@link dev.pagantic.orchestrate.facade.Orchestrator} auto-configured from
 * {@code application.yml}.
 *
 * <h2>What is configured</h2>
 * <ul>
 *   <li>{@link dev.pagantic.adapter.spring.PaganticEngineAutoConfiguration}: the engine of
 *       {@code pagantic.engine.kind} (a llama.cpp model, an OpenAI-compatible server, or a routing fleet of both), and
 *       the application's llama.cpp runtime when a model is configured. No kind, no engine: the starter stays out of
 *       the way of an application that has not configured it.</li>
 *   <li>{@link dev.pagantic.adapter.spring.PaganticAutoConfiguration}: the conversation store of
 *       {@code pagantic.store.kind} (memory, a journal directory, or the JDBC store on the application's
 *       {@code DataSource}), the tools of the context (beans with {@code @Tool} methods, and beans that are
 *       {@code Tool}s) and the orchestrator with the system prompt and limits.</li>
 *   <li>{@code health}: the engine's actuator health indicator.</li>
 * </ul>
 *
 * <h2>Decisions</h2>
 * <ul>
 *   <li>Every bean is {@code @ConditionalOnMissingBean}: declaring an engine, a store, a tool registry, a llama.cpp
 *       runtime or the orchestrator replaces the starter's; {@link dev.pagantic.adapter.spring.OrchestratorCustomizer}
 *       beans adjust the builder without replacing it.</li>
 *   <li>A model that cannot be loaded does not stop the application by default: the engine is an
 *       {@link dev.pagantic.adapter.spring.UnavailableEngine}, the health indicator is DOWN with the reason (so an
 *       orchestrator's readiness probe keeps traffic away) and every request fails with
 *       {@code INFERENCE_MODEL_UNAVAILABLE}; {@code pagantic.engine.fail-fast=true} stops the start instead. Invalid
 *       properties always stop it, with {@code CONFIG_INVALID} naming the property.</li>
 *   <li>Tools are found from bean definitions, so only beans that have tools are created for it; the tools are
 *       offered to the model in chat mode, under the tool layer's timeouts and argument checks.</li>
 *   <li>Spring stays in this module: nothing else in pagantic depends on it, and Spring Boot's dependency management
 *       is imported here only.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.adapter.spring;

import org.jspecify.annotations.NullMarked;
