package dev.pagantic.memory.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.StoredSession;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link ConversationStore} shares. A store's test class extends this kit and supplies a fresh,
 * empty store in {@link #createStore()}; every test here then runs against it. Stores that keep sessions across a
 * restart extend {@link DurableConversationStoreContract} instead.
 */
public abstract class ConversationStoreContract {

    /** The store under test, created before each test and closed after it. */
    protected @Nullable ConversationStore store;

    /** A new, empty store; called before each test. */
    protected abstract ConversationStore createStore();

    @BeforeEach
    void openStore() {
        store = createStore();
    }

    @AfterEach
    void closeStore() {
        if (store != null) { // null when creating it failed, or skipped the test
            store.close();
        }
    }

    /** An assistant message that calls a tool with nested arguments. */
    protected static Message toolCall(String id) {
        return Message.assistant("let me look", List.of(ToolCall.of(id, "lookup",
                Map.of("city", "Paris", "days", 3, "nested", Map.of("units", List.of("C", "F"))))));
    }

    /** Asserts that the call fails with a {@link PaganticException} of the code, and returns it. */
    protected static PaganticException assertFailsWith(ErrorCode code, ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).isInstanceOf(PaganticException.class);
        PaganticException failure = (PaganticException) thrown;
        assertThat(failure.code()).as("error code of %s", failure.getMessage()).isEqualTo(code);
        return failure;
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
    void messagesOfEveryShapeLoadBackEqual() {
        List<Message> messages = List.of(
                Message.user(""),
                Message.user("quotes \" backslash \\ newline \n tab \t nul \u0000 bell \u0007"),
                Message.user("é ü 中文 emoji \uD83D\uDE00 right-to-left \u05E9\u05DC\u05D5\u05DD"),
                Message.assistant("two calls", List.of(
                        ToolCall.of("a", "first", Map.of()),
                        ToolCall.of("b", "second", Map.of("list", List.of(1, 2.5, true, "x"), "big",
                                new BigInteger("123456789012345678901234567890"), "none", Map.of())))),
                Message.toolResult("a", "first", "{\"json\": [1, 2]}"),
                Message.toolResult("b", "second", "x".repeat(100_000)));

        store.append("shapes", messages);

        assertThat(store.load("shapes").messages()).isEqualTo(messages);
    }

    @Test
    void stateIsPutAndRemovedPerSession() {
        store.putState("s1", "lang", "fr");
        store.putState("s1", "count", 2);
        store.putState("s1", "prefs", Map.of("dark", true, "ratio", 1.5));
        store.putState("s2", "lang", "de");
        store.removeState("s1", "count");
        store.removeState("s1", "absent");
        store.removeState("nobody", "lang");

        assertThat(store.load("s1").state()).containsExactly(Map.entry("lang", "fr"),
                Map.entry("prefs", Map.of("dark", true, "ratio", 1.5)));
        assertThat(store.load("s2").state()).containsExactly(Map.entry("lang", "de"));
        assertThat(store.load("s1").sessionState().get("lang")).contains("fr");
        assertThat(store.contains("nobody")).isFalse();
    }

    @Test
    void stateValuesKeepTheirJsonTypesAndAPutReplacesTheValue() {
        store.putState("s", "n", 7);
        store.putState("s", "n", 8);
        store.putState("s", "big", new BigInteger("98765432109876543210"));
        store.putState("s", "list", List.of("a", 1, List.of(), Map.of("k", false)));

        assertThat(store.load("s").state()).containsExactly(
                Map.entry("big", new BigInteger("98765432109876543210")),
                Map.entry("list", List.of("a", 1L, List.of(), Map.of("k", false))),
                Map.entry("n", 8L));
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
        store.append("B", Message.user("upper case sorts first"));

        assertThat(store.sessions()).containsExactly("B", "a/with odd:chars é", "b", "c");
        store.delete("b");
        store.delete("c");
        store.delete("never-there");
        assertThat(store.sessions()).containsExactly("B", "a/with odd:chars é");
        assertThat(store.contains("b")).isFalse();
        assertThat(store.load("b").isEmpty()).isTrue();
        assertThat(store.load("c").isEmpty()).isTrue();
        assertThat(store.load("a/with odd:chars é").messages()).containsExactly(Message.user("2"));
    }

    @Test
    void aDeletedSessionStartsAfreshWhenUsedAgain() {
        store.append("s", List.of(Message.user("old"), Message.assistant("old reply")));
        store.putState("s", "k", "old");
        store.delete("s");

        assertThat(store.append("s", Message.user("new"))).isEqualTo(1);
        assertThat(store.load("s").messages()).containsExactly(Message.user("new"));
        assertThat(store.load("s").state()).isEmpty();
    }

    @Test
    void appendAtTheConversationsEndCommitsAndReturnsTheNewSize() {
        assertThat(store.appendAt("s", 0, List.of(Message.user("q1")))).isEqualTo(1);
        assertThat(store.appendAt("s", 1, List.of(toolCall("c"), Message.toolResult("c", "lookup", "r"))))
                .isEqualTo(3);
        assertThat(store.appendAt("s", 3, List.of())).isEqualTo(3);

        assertThat(store.load("s").messages()).containsExactly(Message.user("q1"), toolCall("c"),
                Message.toolResult("c", "lookup", "r"));
    }

    @Test
    void appendAtAStalePositionFailsAndChangesNothing() {
        store.append("s", List.of(Message.user("mine"), Message.assistant("reply")));

        PaganticException behind = assertFailsWith(ErrorCode.ORCHESTRATION_CONCURRENT_USE,
                () -> store.appendAt("s", 1, List.of(Message.user("stale"))));
        assertFailsWith(ErrorCode.ORCHESTRATION_CONCURRENT_USE,
                () -> store.appendAt("s", 3, List.of(Message.user("ahead"))));
        assertFailsWith(ErrorCode.ORCHESTRATION_CONCURRENT_USE,
                () -> store.appendAt("absent", 2, List.of(Message.user("x"))));

        assertThat(behind.details()).containsEntry("messages", 2L);
        assertThat(store.load("s").messages()).containsExactly(Message.user("mine"), Message.assistant("reply"));
        assertThat(store.contains("absent")).isFalse();
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
        assertThat(pool.awaitTermination(120, TimeUnit.SECONDS)).isTrue();

        List<Message> shared = store.load("shared").messages();
        assertThat(shared).hasSize(200).doesNotHaveDuplicates();
        for (int t = 0; t < 4; t++) {
            String prefix = t + ":";
            assertThat(shared).filteredOn(m -> m.content().startsWith(prefix)).extracting(Message::content)
                    .as("thread %d's messages, in its order", t).containsExactlyElementsOf(numbered(prefix, 50));
            List<String> contents = new ArrayList<>();
            store.load("own-" + t).messages().forEach(m -> contents.add(m.content()));
            assertThat(contents).containsExactlyElementsOf(numbered("", 50));
        }
    }

    @Test
    void invalidInputIsRefused() {
        assertFailsWith(ErrorCode.CONFIG_INVALID, () -> store.append(" ", Message.user("x")));
        assertFailsWith(ErrorCode.CONFIG_INVALID, () -> store.append(
                "x".repeat(ConversationStore.MAX_SESSION_ID_LENGTH + 1), Message.user("x")));
        assertFailsWith(ErrorCode.CONFIG_INVALID, () -> store.putState("s", "k", new Object()));
        assertFailsWith(ErrorCode.CONFIG_INVALID, () -> store.putState("s", "k", Double.NaN));
        assertFailsWith(ErrorCode.CONFIG_INVALID, () -> store.putState("s", "", "v"));
        assertThat(store.sessions()).isEmpty();
        assertThat(store.append("x".repeat(ConversationStore.MAX_SESSION_ID_LENGTH), Message.user("longest id")))
                .isEqualTo(1);
    }

    @Test
    void aClosedStoreRefusesCalls() {
        store.append("s", Message.user("x"));
        store.close();
        store.close();
        assertFailsWith(ErrorCode.CONFIG_INVALID, () -> store.append("s", Message.user("y")));
        assertFailsWith(ErrorCode.CONFIG_INVALID, () -> store.load("s"));
        assertFailsWith(ErrorCode.CONFIG_INVALID, () -> store.sessions());
    }

    private static List<String> numbered(String prefix, int count) {
        List<String> contents = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            contents.add(prefix + i);
        }
        return contents;
    }
}
