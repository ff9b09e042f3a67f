package dev.pagantic.bench;

import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.facade.Orchestrator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The cost of one chat turn in a session of the facade {@link Orchestrator} while N sessions are open, on
 * {@link ZeroLatencyEngine} with a no-op event log: the per-turn counterpart (JMH, with {@code -prof gc} for bytes
 * per turn) of the {@link SessionScaling} harness, whose sessions it drives the same way. Each JMH thread
 * ({@code -t}) owns every T-th session and visits its sessions round-robin; a session has 2 turns of history when
 * the trial starts and is replaced after {@value SessionScaling#TURNS_PER_SESSION} turns, so histories stay short.
 * A session serves one turn at a time, so the thread count may not exceed the session count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SessionTurnBench {

    @Param({"1", "100", "10000"})
    public int sessions;

    Orchestrator orchestrator;
    InMemoryConversationStore store;
    SessionScaling.Slot[] slots;

    @Setup(Level.Trial)
    public void open(ThreadParams threads) {
        if (threads.getThreadCount() > sessions) {
            throw new IllegalStateException(threads.getThreadCount() + " threads cannot share " + sessions
                    + " session(s): a session serves one turn at a time");
        }
        store = new InMemoryConversationStore();
        orchestrator = Orchestrator.builder().engine(new ZeroLatencyEngine()).eventLog(EventLog.noOp())
                .conversationStore(store).maxSessions(2 * sessions + threads.getThreadCount())
                .sessionTtl(Duration.ofHours(1)).build();
        slots = new SessionScaling.Slot[sessions];
        for (int i = 0; i < sessions; i++) {
            slots[i] = new SessionScaling.Slot(i);
            for (int turn = 0; turn < SessionScaling.CENSUS_TURNS; turn++) {
                requireOk(SessionScaling.turn(orchestrator, store, slots[i]));
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        orchestrator.close();
        store.close();
    }

    /** A thread's own sessions and where it is in its round. */
    @State(Scope.Thread)
    public static class Cursor {
        List<SessionScaling.Slot> mine;
        int next;

        @Setup(Level.Trial)
        public void assign(SessionTurnBench bench, ThreadParams threads) {
            mine = new ArrayList<>();
            for (int i = threads.getThreadIndex(); i < bench.sessions; i += threads.getThreadCount()) {
                mine.add(bench.slots[i]);
            }
        }

        SessionScaling.Slot advance() {
            SessionScaling.Slot slot = mine.get(next);
            next = next + 1 == mine.size() ? 0 : next + 1;
            return slot;
        }
    }

    /** One chat turn in the thread's next session. */
    @Benchmark
    public boolean chatTurn(Cursor cursor) {
        return requireOk(SessionScaling.turn(orchestrator, store, cursor.advance()));
    }

    private static boolean requireOk(boolean ok) {
        if (!ok) {
            throw new IllegalStateException("a chat turn failed");
        }
        return true;
    }
}
