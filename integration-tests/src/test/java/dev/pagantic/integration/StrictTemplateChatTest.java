package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.engine.llamacpp.GgufFiles;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.llamacpp.NativeAbortProbe;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A RAG chat on a model whose chat template raises on the conversation's shape (Mistral's and Gemma's do): the
 * orchestrator places retrieved context as a system message just before the latest user message, which such a
 * template rejects (and a rejecting template aborts the JVM in llama.cpp b4916), so the engine folds it into the user
 * message it serves. Here, because the engine module may not depend on the orchestrator.
 */
class StrictTemplateChatTest {

    private static final String CONTEXT = "Relevant context:\n\n[1] The dog is called Tom.";

    @Test
    void aChatWithRetrievedContextIsAnsweredTurnAfterTurnOnAModelWhoseTemplateRaises(@TempDir Path folder)
            throws Exception {
        Path model = GgufFiles.withTemplate(Models.stories(), folder.resolve("strict.gguf"),
                NativeAbortProbe.STRICT_TEMPLATE);
        List<String> queries = new CopyOnWriteArrayList<>();
        InMemoryConversationStore store = new InMemoryConversationStore();
        try (LlamaCppEngine engine = LlamaCppEngine.builder().modelPath(model).contextSize(512).threads(2).build();
             Orchestrator orchestrator = Orchestrator.builder().engine(engine).systemPrompt("Tell a short story.")
                     .contextProvider((ctx, query) -> {
                         queries.add(query);
                         return List.of(Message.system(CONTEXT));
                     })
                     .maxTokens(8).conversationStore(store).build()) {
            SystemResponse first = orchestrator.execute(SystemRequest.builder().sessionId("rag").user("Once upon a "
                    + "time").build());
            SystemResponse second = orchestrator.execute(SystemRequest.builder().sessionId("rag").user("The dog")
                    .build());

            assertThat(List.of(first, second)).allSatisfy(response -> assertThat(response.error()).isEmpty());
            assertThat(queries).as("the context provider ran on each turn").containsExactly("Once upon a time",
                    "The dog");
            List<Message> history = store.load("rag").messages();
            assertThat(history).extracting(Message::role).as("the stored history keeps its own shape")
                    .containsExactly(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT);
            assertThat(history).extracting(Message::content).doesNotContain(CONTEXT)
                    .contains("Once upon a time", "The dog");
        }
    }
}
