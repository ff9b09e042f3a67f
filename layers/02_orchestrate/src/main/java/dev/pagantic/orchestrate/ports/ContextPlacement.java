package dev.pagantic.orchestrate.ports;

import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.prompt.ContextPolicy;
import dev.pagantic.prompt.ContextSnippet;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where retrieved context goes in the messages sent to the engine. The loops default to the specification's
 * placement, {@link #BEFORE_USER_MESSAGE}; the prompt layer's {@link ContextPolicy} decides it instead through
 * {@link #of(ContextPolicy)} (appended to the system prompt, inside the user message, before it, or left out, within
 * a character or token budget). The context stays ephemeral whatever the placement: it is never stored in a history.
 */
@FunctionalInterface
public interface ContextPlacement {

    /** The specification's placement: the context messages just before the latest user message (at the end without one). */
    ContextPlacement BEFORE_USER_MESSAGE = (messages, context) -> {
        List<Message> placed = new ArrayList<>(messages);
        int user = messages.size();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == Role.USER) {
                user = i;
                break;
            }
        }
        placed.addAll(user, context);
        return List.copyOf(placed);
    };

    /**
     * The messages with the context placed.
     *
     * @param messages the history to send, oldest first; not modified
     * @param context  the retrieved context messages; not empty
     * @return the messages to send
     */
    List<Message> place(List<Message> messages, List<Message> context);

    /**
     * A placement decided by the prompt layer's policy: each context message becomes a snippet of its content, which
     * the policy renders, budgets and places.
     */
    static ContextPlacement of(ContextPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return (messages, context) -> policy.apply(messages,
                context.stream().map(message -> ContextSnippet.of(message.content())).toList());
    }
}
