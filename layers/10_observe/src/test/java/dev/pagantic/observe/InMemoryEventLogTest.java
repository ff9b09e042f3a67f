package dev.pagantic.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Correlation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InMemoryEventLogTest {

    private static Event event(int thread, int sequence) {
        return Event.builder(new Correlation("req-" + thread, "", "t", "s", "", ""), TestContexts.T0, "test", "write")
                .data("thread", thread).data("seq", sequence).build();
    }

    @Test
    void concurrentWritersLoseNoEvents() throws Exception {
        InMemoryEventLog log = EventLog.inMemory();

        Concurrently.run(Concurrently.THREADS, thread -> {
            for (int i = 0; i < Concurrently.PER_THREAD; i++) {
                log.record(event(thread, i));
            }
        });

        List<Event> events = log.events();
        assertThat(events).hasSize(Concurrently.THREADS * Concurrently.PER_THREAD);
        Set<String> distinct = new HashSet<>();
        int[] next = new int[Concurrently.THREADS];
        for (Event event : events) {
            int thread = (Integer) event.data().get("thread");
            int seq = (Integer) event.data().get("seq");
            assertThat(seq).as("each thread's events stay in order").isEqualTo(next[thread]++);
            distinct.add(thread + ":" + seq);
        }
        assertThat(distinct).hasSize(Concurrently.THREADS * Concurrently.PER_THREAD);
        assertThat(log.dropped()).isZero();
    }

    @Test
    void concurrentWritersToABoundedLogKeepTheNewestAndCountTheDropped() throws Exception {
        InMemoryEventLog log = InMemoryEventLog.bounded(1_000);

        Concurrently.run(Concurrently.THREADS, thread -> {
            for (int i = 0; i < Concurrently.PER_THREAD; i++) {
                log.record(event(thread, i));
            }
        });

        assertThat(log.size()).isEqualTo(1_000);
        assertThat(log.dropped()).isEqualTo(Concurrently.THREADS * Concurrently.PER_THREAD - 1_000L);
        // The newest are kept: each thread's kept events are the tail of its sequence (contiguous, ending at its last).
        for (int thread = 0; thread < Concurrently.THREADS; thread++) {
            int t = thread;
            List<Integer> kept = log.events().stream().filter(e -> e.data().get("thread").equals(t))
                    .map(e -> (Integer) e.data().get("seq")).toList();
            for (int i = 0; i < kept.size(); i++) {
                assertThat(kept.get(i)).isEqualTo(Concurrently.PER_THREAD - kept.size() + i);
            }
        }
    }

    @Test
    void boundedLogDropsTheOldestFirst() {
        InMemoryEventLog log = InMemoryEventLog.bounded(2);

        log.record(event(0, 0));
        log.record(event(0, 1));
        log.record(event(0, 2));

        assertThat(log.events()).extracting(e -> e.data().get("seq")).containsExactly(1, 2);
        assertThat(log.dropped()).isEqualTo(1);
    }

    @Test
    void boundedLogNeedsAPositiveCapacity() {
        assertThatThrownBy(() -> InMemoryEventLog.bounded(0))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void eventsAreAnImmutableSnapshotThatLaterRecordsDoNotChange() {
        InMemoryEventLog log = EventLog.inMemory();
        log.record(event(0, 0));

        List<Event> before = log.events();
        log.record(event(0, 1));

        assertThat(before).hasSize(1);
        assertThat(log.events()).hasSize(2);
        assertThatThrownBy(() -> before.add(event(0, 2))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void eventsOfARequestAreFilteredByRequestId() {
        InMemoryEventLog log = EventLog.inMemory();
        log.record(event(1, 0));
        log.record(event(2, 0));
        log.record(event(1, 1));

        assertThat(log.eventsOfRequest("req-1")).extracting(e -> e.data().get("seq")).containsExactly(0, 1);
    }

    @Test
    void clearForgetsEverything() {
        InMemoryEventLog log = InMemoryEventLog.bounded(1);
        log.record(event(0, 0));
        log.record(event(0, 1));

        log.clear();

        assertThat(log.events()).isEmpty();
        assertThat(log.dropped()).isZero();
    }

    @Test
    void teeRecordsIntoEveryLogAndReadsFromTheFirst() {
        InMemoryEventLog first = EventLog.inMemory();
        InMemoryEventLog second = EventLog.inMemory();
        EventLog both = EventLog.tee(first, second);
        CallContext ctx = TestContexts.context();

        both.record(Event.builder(ctx, "orchestrate", "infer").build());

        assertThat(first.events()).hasSize(1);
        assertThat(second.events()).hasSize(1);
        assertThat(both.events()).isEqualTo(first.events());
    }
}
