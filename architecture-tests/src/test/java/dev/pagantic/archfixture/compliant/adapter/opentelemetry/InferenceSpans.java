package dev.pagantic.archfixture.compliant.adapter.opentelemetry;

import dev.pagantic.archfixture.compliant.inference.Request;
import dev.pagantic.archfixture.compliant.orchestrate.spi.StepInterceptor;
import java.util.function.Supplier;

/** An observability adapter implements the interception SPI and reads the inference values it is handed. */
public final class InferenceSpans implements StepInterceptor {

    @Override
    public <T> T around(String step, Supplier<T> invocation) {
        return invocation.get();
    }

    public String spanName(Request request) {
        return "chat of " + request.messages().size() + " messages";
    }
}
