package dev.pagantic.orchestrate.agent;

import dev.pagantic.core.Message;
import dev.pagantic.orchestrate.ports.ContextPlacement;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The ephemeral context of one turn and where it goes: by the configured {@link ContextPlacement}, or by default just
 * before the turn's user message. The position is counted from the end of the history, which keeps it right when a
 * bounded buffer evicts older messages during the turn. The context is never stored in the history.
 */
final class ContextInjection {

    private final List<Message> context;
    private final @Nullable ContextPlacement placement;
    private final int userFromEnd;

    /**
     * @param userFromEnd the turn's user message's distance from the end of the history when the turn started (1 when
     *                    it is the last message)
     */
    ContextInjection(List<Message> context, @Nullable ContextPlacement placement, int userFromEnd) {
        this.context = List.copyOf(context);
        this.placement = placement;
        this.userFromEnd = userFromEnd;
    }

    /** The history with the context placed, {@code added} messages after the turn started. */
    List<Message> place(List<Message> history, int added) {
        if (context.isEmpty()) {
            return history;
        }
        if (placement != null) {
            return placement.place(history, context);
        }
        int userIndex = Math.max(0, history.size() - userFromEnd - added);
        List<Message> messages = new ArrayList<>(history.size() + context.size());
        messages.addAll(history.subList(0, userIndex));
        messages.addAll(context);
        messages.addAll(history.subList(userIndex, history.size()));
        return messages;
    }
}
