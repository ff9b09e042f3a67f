package dev.pagantic.archfixture.violating.adapter.temporal;

import dev.pagantic.archfixture.violating.orchestrate.spi.StepInterceptor;
import java.util.function.Supplier;

/** Compliant: the temporal adapter is the one adapter that implements the interception SPI. */
public final class TemporalUsingTheSpi implements StepInterceptor {

    @Override
    public <T> T around(String step, Supplier<T> invocation) {
        return invocation.get();
    }
}
