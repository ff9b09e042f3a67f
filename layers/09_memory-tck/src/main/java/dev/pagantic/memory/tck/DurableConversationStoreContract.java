package dev.pagantic.memory.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.StoredSession;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of a {@link ConversationStore} that keeps its sessions across a restart (a file, a database), on top
 * of {@link ConversationStoreContract}'s. The test class also supplies {@link #reopenStore()}.
 */
public abstract class DurableConversationStoreContract extends ConversationStoreContract {

    /**
     * A new store on the same storage as the current {@link #store}, which the kit has already closed: what an
     * application finds when it starts again.
     */
    protected abstract ConversationStore reopenStore();

    /** Closes the store under test and replaces it with {@link #reopenStore()}. */
    protected final ConversationStore restart() {
        store.close();
        store = reopenStore();
        return store;
    }

    @Test
    void everythingCommittedSurvivesReopening() {
        store.append("s", List.of(Message.system("sys"), Message.user("q"), toolCall("c1"),
                Message.toolResult("c1", "lookup", "r")));
        store.putState("s", "city", "Paris");
        store.putState("s", "n", 7);
        store.removeState("s", "n");
        store.append("other", Message.user("another session"));
        StoredSession before = store.load("s");

        StoredSession after = restart().load("s");

        assertThat(after.messages()).isEqualTo(before.messages());
        assertThat(after.state()).containsExactly(Map.entry("city", "Paris"));
        assertThat(after.recovery().isClean()).isTrue();
        assertThat(store.sessions()).containsExactly("other", "s");
    }

    @Test
    void aReopenedStoreGoesOnWhereTheOldOneStopped() {
        store.append("s", List.of(Message.user("q1"), Message.assistant("a1")));
        store.delete("gone");
        store.putState("gone", "k", "v");
        store.delete("gone");

        restart();

        assertThat(store.appendAt("s", 2, List.of(Message.user("q2")))).isEqualTo(3);
        assertThat(store.contains("gone")).isFalse();
        assertThat(store.load("s").messages()).extracting(Message::content).containsExactly("q1", "a1", "q2");
    }
}
