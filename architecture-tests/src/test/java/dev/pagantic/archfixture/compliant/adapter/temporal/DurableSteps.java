package dev.pagantic.archfixture.compliant.adapter.temporal;

import dev.pagantic.archfixture.compliant.orchestrate.spi.StepInterceptor;
import java.util.function.Supplier;

/** The temporal adapter implements the interception SPI. */
public final class DurableSteps implements StepInterceptor {

    @Override
    public <T> T around(String step, Supplier<T> invocation) {
        return invocation.get();
    }
}
