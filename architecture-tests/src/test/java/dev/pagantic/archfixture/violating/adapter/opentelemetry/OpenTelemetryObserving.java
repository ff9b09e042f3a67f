package dev.pagantic.archfixture.violating.adapter.opentelemetry;

import dev.pagantic.archfixture.violating.inference.InferenceRequest;
import dev.pagantic.archfixture.violating.orchestrate.spi.StepInterceptor;
import java.util.function.Supplier;

/** Compliant: an observability adapter implements the interception SPI and reads the inference values it sees. */
public final class OpenTelemetryObserving implements StepInterceptor {

    @Override
    public <T> T around(String step, Supplier<T> invocation) {
        return invocation.get();
    }

    public int promptLength(InferenceRequest request) {
        return request.prompt().length();
    }
}
