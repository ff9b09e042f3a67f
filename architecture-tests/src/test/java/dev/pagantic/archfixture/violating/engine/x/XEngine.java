package dev.pagantic.archfixture.violating.engine.x;

import dev.pagantic.archfixture.violating.inference.Engine;
import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** A compliant engine with a builder; adapters may build and close it, but not call infer(). */
public final class XEngine implements Engine {

    private final String model;

    private XEngine(String model) {
        this.model = model;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String infer(InferenceRequest request) {
        return model + ": " + request.prompt();
    }

    /** The engine's state, which a health indicator may read. */
    public String modelInfo() {
        return model;
    }

    @Override
    public void close() {
        // nothing to release
    }

    /** Configures an engine. */
    public static final class Builder {

        private String model = "tiny";

        public Builder model(String value) {
            this.model = value;
            return this;
        }

        public XEngine build() {
            return new XEngine(model);
        }
    }
}
