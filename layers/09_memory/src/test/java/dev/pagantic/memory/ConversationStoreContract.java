package dev.pagantic.memory;

import static dev.pagantic.memory.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link ConversationStore} shares; subclasses supply the store. */
abstract class ConversationStoreContract {

    protected ConversationStore store;

    protected abstract ConversationStore createStore();

    @BeforeEach
    void openStore() {
        store = createStore();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    static Message toolCall(String id) {
        return Message.assistant("let me look", List.of(ToolCall.of(id, "lookup",
                Map.of("city", "Paris", "days", 3, "nested", Map.of("units", List.of("C", "F"))))));
    }

    @Test
    void appendedMessagesLoadBackInOrder() {
        assertThat(store.append("s1", Message.system("sys"))).isEqualTo(1);
        assertThat(store.append("s1", List.of(Message.user("weather?"), toolCall("c1"),
                Message.toolResult("c1", "lookup", "sunny")))).isEqualTo(4);
        store.append("s1", Message.assistant("It is sunny."));

        StoredSession session = store.load("s1");
        assertThat(session.sessionId()).isEqualTo("s1");
        assertThat(session.messages()).containsExactly(Message.system("sys"), Message.user("weather?"),
                toolCall("c1"), Message.toolResult("c1", "lookup", "sunny"), Message.assistant("It is sunny."));
        assertThat(session.recovery().isClean()).isTrue();
    }

    @Test
    void stateIsPutAndRemovedPerSession() {
        store.putState("s1", "lang", "fr");
        store.putState("s1", "count", 2);
        store.putState("s1", "prefs", Map.of("dark", true, "ratio", 1.5));
        store.putState("s2", "lang", "de");
        store.removeState("s1", "count");
        store.removeState("s1", "absent");

        assertThat(store.load("s1").state()).containsExactly(Map.entry("lang", "fr"),
                Map.entry("prefs", Map.of("dark", true, "ratio", 1.5)));
        assertThat(store.load("s2").state()).containsExactly(Map.entry("lang", "de"));
        assertThat(store.load("s1").sessionState().get("lang")).contains("fr");
    }

    @Test
    void unknownSessionsLoadEmptyWithoutBeingCreated() {
        StoredSession session = store.load("nobody");
        assertThat(session.isEmpty()).isTrue();
        assertThat(store.contains("nobody")).isFalse();
        assertThat(store.sessions()).isEmpty();
    }

    @Test
    void sessionsAreListedSortedAndCanBeDeleted() {
        store.append("b", Message.user("1"));
        store.append("a/with odd:chars é", Message.user("2"));
        store.putState("c", "k", "v");

        assertThat(store.sessions()).containsExactly("a/with odd:chars é", "b", "c");
        store.delete("b");
        assertThat(store.sessions()).containsExactly("a/with odd:chars é", "c");
        assertThat(store.contains("b")).isFalse();
        assertThat(store.load("b").isEmpty()).isTrue();
        assertThat(store.load("a/with odd:chars é").messages()).containsExactly(Message.user("2"));
    }

    @Test
    void compactionChangesNothingVisible() {
        for (int i = 0; i < 10; i++) {
            store.append("s", Message.user("m" + i));
            store.putState("s", "last", i);
        }
        store.removeState("s", "never-set");
        StoredSession before = store.load("s");
        store.compact("s");
        StoredSession after = store.load("s");

        assertThat(after.messages()).isEqualTo(before.messages());
        assertThat(after.state()).isEqualTo(before.state());
        store.append("s", Message.user("after"));
        assertThat(store.load("s").messages()).hasSize(11);
    }

    @Test
    void concurrentAppendsToManySessionsAreAllKept() throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            int thread = t;
            pool.submit(() -> {
                for (int i = 0; i < 50; i++) {
                    store.append("shared", Message.user(thread + ":" + i));
                    store.append("own-" + thread, Message.user(String.valueOf(i)));
                }
            });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        assertThat(store.load("shared").messages()).hasSize(200);
        for (int t = 0; t < 4; t++) {
            List<String> contents = new ArrayList<>();
            store.load("own-" + t).messages().forEach(m -> contents.add(m.content()));
            assertThat(contents).hasSize(50).startsWith("0", "1", "2").endsWith("49");
        }
    }

    @Test
    void invalidInputIsRefused() {
        assertConfigInvalid(() -> store.append(" ", Message.user("x")));
        assertConfigInvalid(() -> store.append("x".repeat(ConversationStore.MAX_SESSION_ID_LENGTH + 1),
                Message.user("x")));
        assertConfigInvalid(() -> store.putState("s", "k", new Object()));
        assertConfigInvalid(() -> store.putState("s", "", "v"));
    }

    @Test
    void aClosedStoreRefusesCalls() {
        store.append("s", Message.user("x"));
        store.close();
        store.close();
        assertConfigInvalid(() -> store.append("s", Message.user("y")));
        assertConfigInvalid(() -> store.load("s"));
    }
}
