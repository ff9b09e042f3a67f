/**
 * The interception SPI of orchestration: {@link dev.pagantic.orchestrate.spi.Interceptor} sees every engine call, tool
 * call and plan step as an {@link dev.pagantic.orchestrate.spi.Invocation} (its kind, name, context and input, and the
 * means to proceed), so that durable execution (the Temporal adapter runs each invocation as an activity), tracing or
 * caching wrap the work without changing the patterns. An {@link dev.pagantic.orchestrate.spi.Observer} (the
 * OpenTelemetry and Micrometer adapters) is an interceptor that also sees the scopes around the work (requests and
 * agent turns) and receives every event.
 *
 * <p>This package depends only on core, the observe layer's {@code EventLog} (the observer's event sink) and the JDK:
 * it is the part of orchestrate that adapters/temporal and the observability adapters may use besides the facade, and
 * it must not expose orchestrate's internals.
 */
@NullMarked
package dev.pagantic.orchestrate.spi;

import org.jspecify.annotations.NullMarked;
