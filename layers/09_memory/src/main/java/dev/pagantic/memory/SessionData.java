package dev.pagantic.memory;

import dev.pagantic.core.Message;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The contents of one stored session, rebuilt by applying journal records in order. Not thread-safe. */
final class SessionData {

    final List<Message> messages = new ArrayList<>();
    final Map<String, Object> state = new LinkedHashMap<>();

    void apply(JournalRecord record) {
        if (record instanceof JournalRecord.Messages batch) {
            messages.addAll(batch.messages());
        } else if (record instanceof JournalRecord.Put put) {
            state.put(put.key(), put.value());
        } else if (record instanceof JournalRecord.Remove remove) {
            state.remove(remove.key());
        } else if (record instanceof JournalRecord.State replace) {
            state.clear();
            state.putAll(replace.state());
        }
    }

    StoredSession toStored(String sessionId, RecoveryReport recovery) {
        return new StoredSession(sessionId, messages, state, recovery);
    }
}
