package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.ToolCall;
import java.util.List;

/**
 * A model's answer read in its tool-call format: the text for the user, the reasoning the format sets apart (a
 * {@code <think>} block, Command R7B's thinking), and the tool calls.
 *
 * @param content   the answer's text, without the format's markup
 * @param reasoning the reasoning, empty when there is none
 * @param calls     the tool calls, in order; empty for a plain answer
 */
record ToolReply(String content, String reasoning, List<ToolCall> calls) {

    ToolReply {
        calls = List.copyOf(calls);
    }

    /** A plain answer. */
    static ToolReply text(String content, String reasoning) {
        return new ToolReply(content, reasoning, List.of());
    }
}
