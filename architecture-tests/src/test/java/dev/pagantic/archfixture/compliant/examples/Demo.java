package dev.pagantic.archfixture.compliant.examples;

import dev.pagantic.archfixture.compliant.context.ContextBuilder;
import dev.pagantic.archfixture.compliant.engine.fake.FakeEngine;
import dev.pagantic.archfixture.compliant.orchestrate.agent.AgentLoop;
import dev.pagantic.archfixture.compliant.orchestrate.spi.StepInterceptor;
import java.util.function.Supplier;

/** Examples may use anything and print; only the general rules (cycles, known layers) apply to them. */
public final class Demo {

    private Demo() {
    }

    public static void main(String[] args) {
        StepInterceptor direct = new StepInterceptor() {
            @Override
            public <T> T around(String step, Supplier<T> invocation) {
                return invocation.get();
            }
        };
        AgentLoop loop = new AgentLoop(FakeEngine.builder().reply("hello").build(), new ContextBuilder(), direct);
        System.out.println(loop.run("greet", arguments -> arguments));
    }
}
