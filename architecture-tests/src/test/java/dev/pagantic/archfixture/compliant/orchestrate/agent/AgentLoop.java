package dev.pagantic.archfixture.compliant.orchestrate.agent;

import dev.pagantic.archfixture.compliant.context.ContextBuilder;
import dev.pagantic.archfixture.compliant.core.Message;
import dev.pagantic.archfixture.compliant.core.Role;
import dev.pagantic.archfixture.compliant.inference.Engine;
import dev.pagantic.archfixture.compliant.inference.Request;
import dev.pagantic.archfixture.compliant.orchestrate.internal.InferenceCall;
import dev.pagantic.archfixture.compliant.orchestrate.ports.ContextProvider;
import dev.pagantic.archfixture.compliant.orchestrate.spi.StepInterceptor;
import dev.pagantic.archfixture.compliant.tool.Tool;
import java.util.ArrayList;
import java.util.List;

/** Orchestrate reaching across the band (context and tool), through the SPI it offers. */
public final class AgentLoop {

    private final InferenceCall inference;
    private final ContextProvider context;
    private final StepInterceptor interceptor;

    public AgentLoop(Engine engine, ContextBuilder contextBuilder, StepInterceptor interceptor) {
        this.inference = new InferenceCall(engine);
        this.context = contextBuilder::build;
        this.interceptor = interceptor;
    }

    public String run(String prompt, Tool tool) {
        List<Message> messages = new ArrayList<>(context.provide(prompt));
        messages.add(new Message(Role.USER, tool.execute(prompt)));
        return interceptor.around("infer", () -> inference.infer(new Request(messages)));
    }
}
