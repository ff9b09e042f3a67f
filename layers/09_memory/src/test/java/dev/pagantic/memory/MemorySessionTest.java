package dev.pagantic.memory;

import static dev.pagantic.memory.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemorySessionTest {

    private static final Message SYSTEM = Message.system("You are helpful.");
    private static final Message CONTEXT = Message.system("Relevant context:\n\n[1] (wiki): Paris is in France.");

    @TempDir
    Path directory;

    @Test
    void ephemeralContextIsNeverStoredInHistory() {
        InMemoryConversationStore store = new InMemoryConversationStore();
        MemorySession session = MemorySession.builder().sessionId("s").store(store).build();
        session.record(SYSTEM);
        session.record(Message.user("Where is Paris?"));
        session.addContext(List.of(CONTEXT));

        assertThat(session.requestMessages()).containsExactly(SYSTEM, CONTEXT, Message.user("Where is Paris?"));

        session.record(Message.assistant("In France."));
        session.endTurn();

        assertThat(session.buffer().messages()).containsExactly(SYSTEM, Message.user("Where is Paris?"),
                Message.assistant("In France."));
        assertThat(session.requestMessages()).doesNotContain(CONTEXT);
        assertThat(store.load("s").messages()).containsExactly(Message.user("Where is Paris?"),
                Message.assistant("In France.")); // the system prompt is CONVERSATION, not DURABLE, by default
    }

    @Test
    void aPolicyThatKeepsContextPutsItInTheConversation() {
        MemorySession session = MemorySession.builder().sessionId("s")
                .policy(MemoryPolicy.builder().retain(ArtifactKind.RETRIEVED_CONTEXT, Retention.CONVERSATION).build())
                .build();
        session.record(Message.user("q"));
        session.addContext(List.of(CONTEXT));
        session.endTurn();

        assertThat(session.buffer().messages()).containsExactly(Message.user("q"), CONTEXT);
    }

    @Test
    void aSessionResumesFromTheFileStoreAfterARestart() {
        Message call = Message.assistant("", List.of(ToolCall.of("c1", "weather", Map.of("city", "Paris"))));
        try (FileConversationStore store = FileConversationStore.open(directory)) {
            MemorySession session = MemorySession.builder().sessionId("user-42").store(store).build();
            session.record(Message.user("Weather in Paris?"));
            session.recordAll(List.of(call, Message.toolResult("c1", "weather", "sunny")));
            session.record(ArtifactKind.INTERMEDIATE_OUTPUT, Message.assistant("draft"));
            session.record(Message.assistant("Sunny."));
            session.state().put("city", "Paris");
            session.state().update("turns", old -> (Long) old.orElse(0L) + 1);
            session.endTurn();
        }
        try (FileConversationStore store = FileConversationStore.open(directory)) {
            MemorySession resumed = MemorySession.builder().sessionId("user-42").store(store).maxMessages(10).build();

            assertThat(resumed.buffer().messages()).containsExactly(Message.user("Weather in Paris?"), call,
                    Message.toolResult("c1", "weather", "sunny"), Message.assistant("Sunny."));
            assertThat(resumed.state().snapshot()).containsExactly(Map.entry("city", "Paris"),
                    Map.entry("turns", 1L));
            assertThat(resumed.recovery().isClean()).isTrue();
            assertThat(resumed.working().isEmpty()).isTrue();
        }
    }

    @Test
    void inProcessOnlyPolicyWritesNothingToTheStore() {
        InMemoryConversationStore store = new InMemoryConversationStore();
        MemorySession session = MemorySession.builder().sessionId("s").store(store)
                .policy(MemoryPolicy.inProcessOnly()).build();
        session.record(Message.user("q"));
        session.state().put("k", "v");

        assertThat(session.buffer().messages()).containsExactly(Message.user("q"));
        assertThat(store.contains("s")).isFalse();
    }

    @Test
    void invalidConfigurationIsRefusedAtBuild() {
        assertConfigInvalid(() -> MemorySession.builder().build());
        assertConfigInvalid(() -> MemorySession.builder().sessionId("s").maxMessages(0).build());
        assertConfigInvalid(() -> MemorySession.builder().sessionId("s").maxTokens(10, null).build());
    }
}
