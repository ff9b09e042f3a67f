package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.Message;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.memory.ConversationStore;
import dev.pagantic.memory.StoredSession;
import dev.pagantic.orchestrate.agent.AgentLoop;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The live chat sessions of an {@link Orchestrator}: one {@link AgentLoop} per session id, restored from the
 * {@link ConversationStore} when it is not live, and evicted when idle longer than the time-to-live or when more than
 * the limit are live (least recently used first). Eviction loses nothing: every completed turn is in the store, and
 * an evicted session is restored from it on its next request.
 */
final class Sessions {

    /**
     * A live session: its loop, the loop's memory, and how many of the memory's messages the store already holds.
     * History cut to fit the context window ({@link #forget}) leaves the memory, never the store.
     */
    static final class Live {
        final AgentLoop loop;
        final ConversationBuffer memory;
        private int stored;
        private Instant lastUsed;

        Live(AgentLoop loop, ConversationBuffer memory, int stored) {
            this.loop = loop;
            this.memory = memory;
            this.stored = stored;
        }

        /** Notes that the oldest {@code removed} messages left the memory; they were all stored already. */
        synchronized void forget(int removed) {
            stored = Math.max(0, stored - removed);
        }
    }

    private final ConversationStore store;
    private final int maxLive;
    private final Duration ttl;
    private final InstantSource clock;
    private final Function<ConversationBuffer, AgentLoop> loops;
    private final Optional<Message> systemMessage;
    private final LinkedHashMap<String, Live> live = new LinkedHashMap<>(16, 0.75f, true);

    Sessions(ConversationStore store, int maxLive, Duration ttl, InstantSource clock, Optional<Message> systemMessage,
             Function<ConversationBuffer, AgentLoop> loops) {
        this.store = store;
        this.maxLive = maxLive;
        this.ttl = ttl;
        this.clock = clock;
        this.systemMessage = systemMessage;
        this.loops = loops;
    }

    /** The session's live loop, restored from the store (or started with the system prompt) when not live. */
    synchronized Live acquire(String sessionId) {
        Instant now = clock.instant();
        evictIdle(now);
        Live session = live.get(sessionId);
        if (session == null) {
            StoredSession stored = store.load(sessionId);
            ConversationBuffer memory = new ConversationBuffer();
            if (stored.messages().isEmpty()) {
                systemMessage.ifPresent(memory::append);
            }
            memory.appendAll(stored.messages());
            session = new Live(loops.apply(memory), memory, stored.messages().size());
            session.lastUsed = now;
            live.put(sessionId, session);
            evictOverLimit();
        }
        session.lastUsed = now;
        return session;
    }

    /**
     * Commits what the session's last turn added to the store. When the store fails, the live session is dropped, so
     * that the next request restores exactly what the store holds rather than a history the store never saw.
     */
    void persist(String sessionId, Live session) {
        synchronized (session) {
            List<Message> messages = session.loop.messages();
            if (messages.size() <= session.stored) {
                return;
            }
            try {
                store.append(sessionId, messages.subList(session.stored, messages.size()));
                session.stored = messages.size();
            } catch (RuntimeException failure) {
                drop(sessionId, session);
                throw failure;
            }
        }
    }

    /** The number of live sessions. */
    synchronized int liveCount() {
        return live.size();
    }

    private synchronized void drop(String sessionId, Live session) {
        live.remove(sessionId, session);
    }

    /**
     * Evicts the sessions idle longer than the time-to-live. The map is in access order and every access stamps
     * {@code lastUsed}, so the idlest come first and the walk stops at the first live one: a turn pays for the
     * sessions it evicts, not for every open session.
     */
    private void evictIdle(Instant now) {
        Instant cutoff;
        try {
            cutoff = now.minus(ttl);
        } catch (java.time.DateTimeException beyondTime) {
            return; // a time-to-live longer than the time line: nothing is ever idle long enough
        }
        for (Iterator<Map.Entry<String, Live>> it = live.entrySet().iterator(); it.hasNext(); ) {
            if (!it.next().getValue().lastUsed.isBefore(cutoff)) {
                return;
            }
            it.remove();
        }
    }

    private void evictOverLimit() {
        Iterator<Map.Entry<String, Live>> eldest = live.entrySet().iterator();
        while (live.size() > maxLive && eldest.hasNext()) {
            eldest.next();
            eldest.remove();
        }
    }
}
