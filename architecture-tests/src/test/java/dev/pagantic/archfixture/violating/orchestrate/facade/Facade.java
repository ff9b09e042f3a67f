package dev.pagantic.archfixture.violating.orchestrate.facade;

import dev.pagantic.archfixture.violating.inference.Engine;
import dev.pagantic.archfixture.violating.orchestrate.AgentLoop;
import java.util.function.Function;

/** The fixture's facade: the one entry point that adapters use. */
public final class Facade {

    private final Engine engine;
    private final Function<String, String> tool;

    private Facade(Engine engine, Function<String, String> tool) {
        this.engine = engine;
        this.tool = tool;
    }

    public static Builder builder() {
        return new Builder();
    }

    public SystemResponse handle(SystemRequest request) {
        return new SystemResponse(new AgentLoop().run(engine, tool.apply(request.prompt())));
    }

    /** Configures a facade. */
    public static final class Builder {

        private Engine engine;
        private Function<String, String> tool = Function.identity();

        public Builder engine(Engine value) {
            this.engine = value;
            return this;
        }

        public Builder tool(Function<String, String> value) {
            this.tool = value;
            return this;
        }

        public Facade build() {
            return new Facade(engine, tool);
        }
    }
}
