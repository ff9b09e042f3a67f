package dev.pagantic.orchestrate.ports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.context.Bm25Retriever;
import dev.pagantic.context.ContextBuilder;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.prompt.InstructionSet;
import dev.pagantic.prompt.SystemPrompt;
import java.util.List;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void theContextLayersContextBuilderIsAContextProviderByMethodReference() {
        Bm25Retriever retriever = Bm25Retriever.builder()
                .add("spec.md", "Go interfaces are satisfied implicitly by method sets.")
                .add("recipes.md", "Boil the pasta for nine minutes.")
                .build();
        ContextBuilder contextBuilder = ContextBuilder.builder().retriever(retriever).maxChunks(1).build();

        ContextProvider provider = contextBuilder::build;
        List<Message> context = provider.build(CallContext.background(), "go interfaces");

        assertThat(context).hasSize(1);
        assertThat(context.get(0).role()).isEqualTo(Role.SYSTEM);
        assertThat(context.get(0).content())
                .isEqualTo("Relevant context:\n\n[1] (spec.md): Go interfaces are satisfied implicitly by method sets.");
    }

    @Test
    void aContextProviderThatFindsNothingReturnsNoMessages() {
        ContextBuilder contextBuilder = ContextBuilder.builder()
                .retriever(Bm25Retriever.builder().add("a.md", "alpha beta").build()).build();
        ContextProvider provider = contextBuilder::build;

        assertThat(provider.build(CallContext.background(), "zeta")).isEmpty();
    }

    @Test
    void thePromptLayersSystemPromptIsAPromptProviderByMethodReference() {
        SystemPrompt systemPrompt = SystemPrompt.builder()
                .base("You are a support assistant.")
                .instructions(InstructionSet.of("Style", "Answer briefly."))
                .build();

        PromptProvider provider = systemPrompt::buildSystemPrompt;
        Message message = provider.buildSystemPrompt();

        assertThat(message.role()).isEqualTo(Role.SYSTEM);
        assertThat(message).isEqualTo(systemPrompt.buildSystemPrompt());
        assertThat(message.content()).startsWith("You are a support assistant.").contains("Answer briefly.");
    }
}
