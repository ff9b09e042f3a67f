package dev.pagantic.archfixture.compliant.orchestrate.facade;

import dev.pagantic.archfixture.compliant.context.ContextBuilder;
import dev.pagantic.archfixture.compliant.inference.Engine;
import dev.pagantic.archfixture.compliant.orchestrate.agent.AgentLoop;
import dev.pagantic.archfixture.compliant.orchestrate.spi.StepInterceptor;
import dev.pagantic.archfixture.compliant.tool.Tool;
import java.util.function.Supplier;

/** The facade routes to orchestrate's internals; the internals never refer back to it. */
public final class Facade {

    private final AgentLoop loop;
    private final Tool tool;

    private Facade(AgentLoop loop, Tool tool) {
        this.loop = loop;
        this.tool = tool;
    }

    public static Builder builder() {
        return new Builder();
    }

    public SystemResponse handle(SystemRequest request) {
        return new SystemResponse(loop.run(request.prompt(), tool));
    }

    /** Configures a facade. */
    public static final class Builder {

        private Engine engine;
        private Tool tool = arguments -> arguments;
        private StepInterceptor interceptor = new StepInterceptor() {
            @Override
            public <T> T around(String step, Supplier<T> invocation) {
                return invocation.get();
            }
        };

        public Builder engine(Engine value) {
            this.engine = value;
            return this;
        }

        public Builder tool(Tool value) {
            this.tool = value;
            return this;
        }

        public Builder interceptor(StepInterceptor value) {
            this.interceptor = value;
            return this;
        }

        public Facade build() {
            return new Facade(new AgentLoop(engine, new ContextBuilder(), interceptor), tool);
        }
    }
}
