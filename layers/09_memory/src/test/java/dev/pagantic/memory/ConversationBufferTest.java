package dev.pagantic.memory;

import static dev.pagantic.memory.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.TokenCounter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConversationBufferTest {

    private static final Message SYSTEM = Message.system("You are helpful.");

    /** One token per character plus the per-message overhead of the default list count: easy to compute by hand. */
    private static final TokenCounter CHARS = String::length;

    private static Message toolCall(String... ids) {
        List<ToolCall> calls = new ArrayList<>();
        for (String id : ids) {
            calls.add(ToolCall.of(id, "lookup", Map.of("q", id)));
        }
        return Message.assistant("", calls);
    }

    private static Message result(String id) {
        return Message.toolResult(id, "lookup", "result " + id);
    }

    @Test
    void appendKeepsMessagesInOrderAndMessagesIsAnImmutableCopy() {
        ConversationBuffer buffer = new ConversationBuffer();
        buffer.append(SYSTEM);
        buffer.append(Message.user("hi"));
        List<Message> copy = buffer.messages();
        buffer.append(Message.assistant("hello"));

        assertThat(copy).containsExactly(SYSTEM, Message.user("hi"));
        assertThat(buffer.messages()).containsExactly(SYSTEM, Message.user("hi"), Message.assistant("hello"));
        assertThat(buffer.size()).isEqualTo(3);
        assertThat(buffer.last()).contains(Message.assistant("hello"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> copy.add(Message.user("x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void snapshotIsUnaffectedByLaterAppendsAndRestoreRebuildsTheBuffer() {
        ConversationBuffer buffer = new ConversationBuffer();
        buffer.appendAll(List.of(SYSTEM, Message.user("one"), Message.assistant("two")));
        ConversationSnapshot snapshot = buffer.snapshot();

        buffer.append(Message.user("three"));
        assertThat(snapshot.messages()).hasSize(3);

        buffer.restore(snapshot);
        assertThat(buffer.messages()).containsExactly(SYSTEM, Message.user("one"), Message.assistant("two"));

        ConversationBuffer rebuilt = ConversationBuffer.builder().from(snapshot).build();
        rebuilt.append(Message.user("elsewhere"));
        assertThat(rebuilt.messages()).hasSize(4);
        assertThat(buffer.messages()).hasSize(3);
    }

    @Test
    void evictionByCountDropsOldestMessagesAndKeepsTheSystemPrompt() {
        ConversationBuffer buffer = ConversationBuffer.builder().maxMessages(4).build();
        buffer.append(SYSTEM);
        for (int i = 1; i <= 5; i++) {
            buffer.append(Message.user("u" + i));
        }

        assertThat(buffer.messages()).containsExactly(SYSTEM, Message.user("u3"), Message.user("u4"),
                Message.user("u5"));
        assertThat(buffer.evictedCount()).isEqualTo(2);
    }

    @Test
    void appendReturnsWhatItEvicted() {
        ConversationBuffer buffer = ConversationBuffer.builder().maxMessages(2).build();
        assertThat(buffer.append(Message.user("a"))).isEmpty();
        assertThat(buffer.append(Message.assistant("b"))).isEmpty();
        assertThat(buffer.append(Message.user("c"))).containsExactly(Message.user("a"));
    }

    @Test
    void evictionByCountNeverSplitsAToolCallFromItsResultsAtTheBoundary() {
        ConversationBuffer buffer = ConversationBuffer.builder().maxMessages(5).build();
        buffer.appendAll(List.of(SYSTEM, Message.user("weather?"), toolCall("c1", "c2"), result("c1"),
                result("c2")));
        // 5 messages: within bounds. One more forces eviction; the oldest unit is the user message.
        assertThat(buffer.append(Message.assistant("sunny"))).containsExactly(Message.user("weather?"));
        assertThat(buffer.messages()).containsExactly(SYSTEM, toolCall("c1", "c2"), result("c1"), result("c2"),
                Message.assistant("sunny"));

        // The next eviction must take the whole exchange (3 messages) although one message would do.
        List<Message> evicted = buffer.append(Message.user("thanks"));
        assertThat(evicted).containsExactly(toolCall("c1", "c2"), result("c1"), result("c2"));
        assertThat(buffer.messages()).containsExactly(SYSTEM, Message.assistant("sunny"), Message.user("thanks"));
        assertNoOrphans(buffer.messages());
    }

    @Test
    void evictionByTokenBudgetNeverSplitsAToolExchangeAndKeepsTheSystemPrompt() {
        // Costs with CHARS: 4 overhead + content length (+ name and arguments for a tool call).
        Message user = Message.user("0123456789");                 // 14
        Message call = toolCall("c1");                              // 4 + 0 + 6 ("lookup") + 6 ("{q=c1}") = 16
        Message res = result("c1");                                 // 4 + 9 = 13
        Message answer = Message.assistant("done");                 // 8
        int system = CHARS.count(List.of(SYSTEM));                  // 4 + 16 = 20
        assertThat(CHARS.count(List.of(call))).isEqualTo(16);

        int budget = system + 16 + 13 + 8; // exactly the system prompt, the exchange and the answer
        ConversationBuffer buffer = ConversationBuffer.builder().maxTokens(budget, CHARS).build();
        buffer.appendAll(List.of(SYSTEM, user, call, res, answer));

        assertThat(buffer.messages()).containsExactly(SYSTEM, call, res, answer);
        assertThat(buffer.tokenCount()).isEqualTo(budget);

        // One token over budget: the whole exchange goes, never the call alone.
        List<Message> evicted = buffer.append(Message.user("x"));  // 5 tokens
        assertThat(evicted).containsExactly(call, res);
        assertThat(buffer.messages()).containsExactly(SYSTEM, answer, Message.user("x"));
        assertThat(buffer.withinLimits()).isTrue();
    }

    @Test
    void aToolCallWhoseResultsAreStillToComeIsNotEvicted() {
        ConversationBuffer buffer = ConversationBuffer.builder().maxMessages(3).build();
        buffer.appendAll(List.of(SYSTEM, Message.user("q")));
        buffer.append(toolCall("c1", "c2"));
        buffer.append(result("c1"));  // the newest unit (call + result) is kept whole even over the bound
        buffer.append(result("c2"));

        assertThat(buffer.messages()).containsExactly(SYSTEM, toolCall("c1", "c2"), result("c1"), result("c2"));
        assertThat(buffer.withinLimits()).isFalse();
        assertNoOrphans(buffer.messages());

        buffer.append(Message.assistant("answer"));
        assertThat(buffer.messages()).containsExactly(SYSTEM, Message.assistant("answer"));
    }

    @Test
    void systemMessagesArePinnedWhereverTheyAre() {
        Message late = Message.system("Late instruction.");
        ConversationBuffer buffer = ConversationBuffer.builder().maxMessages(3).build();
        buffer.appendAll(List.of(SYSTEM, Message.user("a"), late, Message.user("b"), Message.user("c")));

        assertThat(buffer.messages()).containsExactly(SYSTEM, late, Message.user("c"));
    }

    @Test
    void explicitEvictionHonoursTheSameGuarantees() {
        ConversationBuffer buffer = new ConversationBuffer();
        buffer.appendAll(List.of(SYSTEM, Message.user("q"), toolCall("c1"), result("c1"), Message.assistant("a")));

        assertThat(buffer.evictToMessageCount(3)).containsExactly(Message.user("q"), toolCall("c1"), result("c1"));
        assertThat(buffer.messages()).containsExactly(SYSTEM, Message.assistant("a"));

        buffer.appendAll(List.of(Message.user("0123456789"), Message.assistant("ok")));
        int budget = CHARS.count(List.of(SYSTEM, Message.assistant("ok")));
        buffer.evictToTokenBudget(budget, CHARS);
        assertThat(buffer.messages()).containsExactly(SYSTEM, Message.assistant("ok"));
    }

    @Test
    void restoreAppliesTheBoundsOfTheBuffer() {
        ConversationSnapshot snapshot = new ConversationSnapshot(List.of(SYSTEM, Message.user("1"),
                Message.assistant("2"), Message.user("3")));
        ConversationBuffer buffer = ConversationBuffer.builder().maxMessages(2).build();

        assertThat(buffer.restore(snapshot)).containsExactly(Message.user("1"), Message.assistant("2"));
        assertThat(buffer.messages()).containsExactly(SYSTEM, Message.user("3"));
    }

    @Test
    void randomConversationsNeverLeaveAnOrphanedToolMessageOrLoseTheSystemPrompt() {
        java.util.Random random = new java.util.Random(42);
        for (int round = 0; round < 200; round++) {
            ConversationBuffer buffer = ConversationBuffer.builder().maxMessages(2 + random.nextInt(8))
                    .maxTokens(40 + random.nextInt(200), CHARS).build();
            buffer.append(SYSTEM);
            for (int step = 0; step < 30; step++) {
                if (random.nextInt(3) == 0) {
                    int calls = 1 + random.nextInt(3);
                    String[] ids = new String[calls];
                    for (int c = 0; c < calls; c++) {
                        ids[c] = "r" + round + "s" + step + "c" + c;
                    }
                    buffer.append(toolCall(ids));
                    for (String id : ids) {
                        buffer.append(result(id));
                    }
                } else {
                    buffer.append(random.nextBoolean() ? Message.user("u" + step) : Message.assistant("a" + step));
                }
                assertThat(buffer.messages().get(0)).isEqualTo(SYSTEM);
                assertNoOrphans(buffer.messages());
            }
        }
    }

    @Test
    void concurrentAppendsAreAllKept() throws InterruptedException {
        ConversationBuffer buffer = new ConversationBuffer();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int t = 0; t < 8; t++) {
            int thread = t;
            pool.submit(() -> {
                for (int i = 0; i < 1000; i++) {
                    buffer.append(Message.user(thread + ":" + i));
                }
            });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(buffer.size()).isEqualTo(8000);
    }

    @Test
    void invalidBoundsAreRefusedAtBuild() {
        assertConfigInvalid(() -> ConversationBuffer.builder().maxMessages(0).build());
        assertConfigInvalid(() -> ConversationBuffer.builder().maxTokens(0, CHARS).build());
        assertConfigInvalid(() -> ConversationBuffer.builder().maxTokens(10, null).build());
        assertConfigInvalid(() -> new ConversationBuffer().evictToMessageCount(-1));
    }

    /** Every tool message follows its call (directly or after sibling results); every call has all its results. */
    private static void assertNoOrphans(List<Message> messages) {
        Set<String> open = new HashSet<>();
        Set<String> expected = new HashSet<>();
        for (Message message : messages) {
            if (message.role() == Role.TOOL) {
                assertThat(open).as("result %s has its call before it", message.toolCallId())
                        .contains(message.toolCallId());
                expected.remove(message.toolCallId());
                continue;
            }
            if (message.role() == Role.SYSTEM) {
                continue;
            }
            assertThat(expected).as("every call's results before the next message").isEmpty();
            open.clear();
            if (message.hasToolCalls()) {
                message.toolCalls().forEach(call -> {
                    open.add(call.id());
                    expected.add(call.id());
                });
            }
        }
    }
}
