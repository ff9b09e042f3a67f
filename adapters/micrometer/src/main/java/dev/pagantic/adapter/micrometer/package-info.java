/**
 * pagantic on Micrometer: {@link dev.pagantic.adapter.micrometer.PaganticObservations} is an
 * {@link dev.pagantic.orchestrate.spi.Observer} that runs every request, agent turn, inference, tool call and plan
 * step as a Micrometer {@code Observation}.
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li><b>The Observation API, so that the application decides.</b> Observations go to whatever handlers the
 *       application's {@code ObservationRegistry} has: Spring Boot's give timers in the actuator's metrics and spans
 *       through Micrometer Tracing, with no code of pagantic's. A registry without handlers (a no-op registry) costs
 *       one check per invocation.</li>
 *   <li><b>Spring AI's names where they overlap.</b> An inference is the {@code gen_ai.client.operation} observation
 *       with Spring AI's keys ({@code gen_ai.operation.name}, {@code gen_ai.system}, {@code gen_ai.request.model},
 *       ...), and tokens are Spring AI's {@code gen_ai.client.token.usage} counter, so a Spring AI dashboard shows
 *       pagantic's inferences. What Spring AI has no name for is under {@code pagantic.}.</li>
 *   <li><b>One call to wire</b>: {@code Orchestrator.builder().observer(PaganticObservations.of(registry))}, which an
 *       auto-configuration can make with the application's {@code ObservationRegistry} (and {@code MeterRegistry}).
 *       </li>
 *   <li><b>Same tags on every timer.</b> {@code error.type} is always present ({@code none} on success), because
 *       Prometheus-style registries refuse a meter whose tag keys differ from its siblings'.</li>
 * </ul>
 */
@NullMarked
package dev.pagantic.adapter.micrometer;

import org.jspecify.annotations.NullMarked;
