package dev.pagantic.archfixture.compliant.orchestrate.spi;

import java.util.function.Supplier;

/** The interception SPI; it refers to no orchestrate internals, so orchestrate can use it without a cycle. */
public interface StepInterceptor {

    <T> T around(String step, Supplier<T> invocation);
}
