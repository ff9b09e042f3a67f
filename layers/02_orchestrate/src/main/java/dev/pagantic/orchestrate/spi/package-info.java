/**
 * The interception SPI of orchestration: {@link dev.pagantic.orchestrate.spi.Interceptor} sees every engine call, tool
 * call and plan step as an {@link dev.pagantic.orchestrate.spi.Invocation} (its kind, name, context and input, and the
 * means to proceed), so that durable execution (the Temporal adapter runs each invocation as an activity), tracing or
 * caching wrap the work without changing the patterns.
 *
 * <p>This package depends only on core (and the JDK): it is the one part of orchestrate that adapters/temporal may use
 * besides the facade, and it must not expose orchestrate's internals.
 */
@NullMarked
package dev.pagantic.orchestrate.spi;

import org.jspecify.annotations.NullMarked;
