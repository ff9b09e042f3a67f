package dev.pagantic.archfixture.violating.orchestrate.spi;

import java.util.function.Supplier;

/** The fixture's interception SPI: runs a step, for example as a durable activity. */
public interface StepInterceptor {

    <T> T around(String step, Supplier<T> invocation);
}
