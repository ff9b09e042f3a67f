package dev.pagantic.memory;

import dev.pagantic.core.Message;
import java.util.List;
import java.util.Map;

/** One record of a session journal: what a single commit changed. */
sealed interface JournalRecord {

    /** Messages appended to the conversation, as one atomic batch. */
    record Messages(List<Message> messages) implements JournalRecord {
        public Messages {
            messages = List.copyOf(messages);
        }
    }

    /** A session-state key set (the value is normalised). */
    record Put(String key, Object value) implements JournalRecord {
    }

    /** A session-state key removed. */
    record Remove(String key) implements JournalRecord {
    }

    /** The whole session state replaced (written by compaction). */
    record State(Map<String, Object> state) implements JournalRecord {
    }
}
