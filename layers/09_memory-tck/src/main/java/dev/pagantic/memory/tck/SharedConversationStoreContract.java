package dev.pagantic.memory.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.memory.ConversationStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of a {@link ConversationStore} whose storage several store instances use at once (a database shared
 * by the instances of a service), on top of {@link DurableConversationStoreContract}'s: what one instance commits,
 * the others see, and writers on different instances never lose each other's messages. The test class also supplies
 * {@link #openAnotherStore()}.
 */
public abstract class SharedConversationStoreContract extends DurableConversationStoreContract {

    /** Threads per store instance in the concurrent test. */
    protected static final int THREADS_PER_STORE = 4;
    /** Appends per thread and session in the concurrent test. */
    protected static final int APPENDS_PER_THREAD = 25;

    private final List<ConversationStore> others = new ArrayList<>();

    /**
     * Another store instance on the same storage as {@link #store}, open at the same time, with its own connections:
     * a second instance of the service. The kit closes it after the test.
     */
    protected abstract ConversationStore openAnotherStore();

    private ConversationStore another() {
        ConversationStore other = openAnotherStore();
        others.add(other);
        return other;
    }

    @AfterEach
    void closeOtherStores() {
        others.forEach(ConversationStore::close);
    }

    @Test
    void whatOneInstanceCommitsTheOtherSees() {
        ConversationStore other = another();
        store.append("s", List.of(Message.user("q"), Message.assistant("a")));
        store.putState("s", "k", "v");

        assertThat(other.load("s").messages()).containsExactly(Message.user("q"), Message.assistant("a"));
        assertThat(other.load("s").state()).containsEntry("k", "v");
        assertThat(other.append("s", Message.user("from the other"))).isEqualTo(3);
        other.delete("s");
        assertThat(store.contains("s")).isFalse();
    }

    @Test
    void appendAtSeesTheOtherInstancesAppend() {
        ConversationStore other = another();
        long seen = store.append("s", Message.user("turn 1"));
        other.append("s", Message.user("turn 1 on the other instance"));

        assertFailsWith(ErrorCode.ORCHESTRATION_CONCURRENT_USE,
                () -> store.appendAt("s", seen, List.of(Message.user("turn 2, built on a stale history"))));
        assertThat(store.load("s").messages()).hasSize(2);
    }

    @Test
    void writersOnTwoInstancesAppendingToTheSameSessionsLoseNothing() throws Exception {
        List<ConversationStore> instances = List.of(store, another());
        List<String> sessions = List.of("hot-0", "hot-1");
        int writers = instances.size() * THREADS_PER_STORE;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            ConversationStore instance = instances.get(w % instances.size());
            String writer = "w" + w;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < APPENDS_PER_THREAD; i++) {
                    for (String session : sessions) { // each append is a turn: a question and its answer, together
                        instance.append(session, List.of(Message.user(writer + ":" + i),
                                Message.assistant(writer + ":" + i + " answered")));
                    }
                }
                return null;
            }));
        }
        start.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(300, TimeUnit.SECONDS)).as("writers finished").isTrue();
        for (Future<?> writer : done) {
            writer.get(); // a writer's failure fails the test with its cause
        }

        for (String session : sessions) {
            List<Message> messages = store.load(session).messages();
            assertThat(messages).hasSize(writers * APPENDS_PER_THREAD * 2);
            assertThat(instances.get(1).load(session).messages()).isEqualTo(messages);
            for (int m = 0; m < messages.size(); m += 2) { // turns are never split
                assertThat(messages.get(m + 1).content()).isEqualTo(messages.get(m).content() + " answered");
            }
            for (int w = 0; w < writers; w++) {
                String prefix = "w" + w + ":";
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < APPENDS_PER_THREAD; i++) {
                    expected.add(prefix + i);
                }
                assertThat(messages).filteredOn(m -> m.role() == Role.USER && m.content().startsWith(prefix))
                        .extracting(Message::content).as("writer %d's turns in %s", w, session)
                        .containsExactlyElementsOf(expected);
            }
        }
    }
}
