package dev.pagantic.archfixture.violating.adapter.cli;

import dev.pagantic.archfixture.violating.orchestrate.spi.StepInterceptor;
import java.util.function.Supplier;

/** Breaks "only the temporal adapter uses the interception SPI". */
public final class CliUsingTheSpi implements StepInterceptor {

    @Override
    public <T> T around(String step, Supplier<T> invocation) {
        return invocation.get();
    }
}
