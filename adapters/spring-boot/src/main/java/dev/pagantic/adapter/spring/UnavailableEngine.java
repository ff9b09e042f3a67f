package dev.pagantic.adapter.spring;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.util.Objects;
import java.util.Set;

/**
 * The engine the starter puts in place of a model that could not be loaded (with
 * {@code pagantic.engine.fail-fast=false}, the default): the application starts, the health indicator reports the
 * engine DOWN with the reason, and every inference fails with the load failure's code and message
 * ({@code INFERENCE_MODEL_UNAVAILABLE} for a missing, corrupt or unsupported model file). Restart the application
 * once the model is in place.
 */
public final class UnavailableEngine implements Engine {

    private final PaganticException failure;
    private final ModelInfo info;

    UnavailableEngine(PaganticException failure, String modelName) {
        this.failure = Objects.requireNonNull(failure, "failure");
        this.info = new ModelInfo(modelName, 0, Set.of());
    }

    /** Why the engine could not be built. */
    public PaganticException failure() {
        return failure;
    }

    /** Fails with the load failure's code and message; the failure is the cause. */
    @Override
    public Result infer(CallContext context, Request request) {
        throw PaganticException.builder(failure.code(), failure.getMessage()).details(failure.details())
                .cause(failure).build();
    }

    /** The configured model's name, a context window of 0 and no capabilities. */
    @Override
    public ModelInfo modelInfo() {
        return info;
    }

    @Override
    public String toString() {
        return "UnavailableEngine[" + failure.getMessage() + "]";
    }
}
