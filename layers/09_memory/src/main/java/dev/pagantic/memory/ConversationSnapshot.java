package dev.pagantic.memory;

import dev.pagantic.core.Message;
import java.util.List;
import java.util.Objects;

/**
 * An immutable copy of a {@link ConversationBuffer}'s messages at one moment, from which a buffer can be rebuilt
 * ({@link ConversationBuffer#restore}, {@link ConversationBuffer.Builder#from}). Later changes to the buffer do not
 * show in the snapshot, and changes to a buffer rebuilt from it do not show in the original.
 *
 * @param messages the messages, oldest first; an immutable copy
 */
public record ConversationSnapshot(List<Message> messages) {

    /** Copies the messages. */
    public ConversationSnapshot {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
    }

    /** The empty snapshot. */
    public static ConversationSnapshot empty() {
        return new ConversationSnapshot(List.of());
    }

    /** The number of messages. */
    public int size() {
        return messages.size();
    }
}
