package dev.pagantic.inference;

import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of one inference call.
 *
 * @param content      the answer text (may be empty when the model only calls tools)
 * @param reasoning    the reasoning ("thinking") text, when the model produced one separately; empty otherwise
 * @param toolCalls    the tool calls the model requested
 * @param messages     the messages this call adds to the conversation: normally one assistant message carrying the
 *                     content and the tool calls
 * @param usage        tokens and timing of this call
 * @param finishReason why generation stopped
 */
public record Result(String content, String reasoning, List<ToolCall> toolCalls, List<Message> messages,
                     TokenUsage usage, FinishReason finishReason) {

    public Result {
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(reasoning, "reasoning");
        toolCalls = List.copyOf(toolCalls);
        messages = List.copyOf(messages);
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(finishReason, "finishReason");
    }

    /** A text answer with the given usage, finished normally. */
    public static Result of(String content, TokenUsage usage) {
        return builder().content(content).usage(usage).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder initialised with this result's values. Messages and finish reason that equal the builder's defaults
     * are left to be derived again, so that changing the content or the tool calls (a repaired answer, for example)
     * does not leave a stale assistant message or finish reason behind; values that were set otherwise are kept.
     */
    public Builder toBuilder() {
        Builder builder = new Builder().content(content).reasoning(reasoning).toolCalls(toolCalls).usage(usage);
        if (!messages.equals(Builder.defaultMessages(content, toolCalls))) {
            builder.messages = new ArrayList<>(messages);
        }
        if (finishReason != Builder.defaultFinishReason(toolCalls)) {
            builder.finishReason = finishReason;
        }
        return builder;
    }

    /** Whether the model requested tool calls. */
    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }

    /**
     * Builds a {@link Result}. Unless set explicitly, {@code messages} is the single assistant message carrying the
     * content and tool calls, and the finish reason is {@link FinishReason#TOOL_CALLS} when there are tool calls and
     * {@link FinishReason#STOP} otherwise.
     */
    public static final class Builder {
        private String content = "";
        private String reasoning = "";
        private List<ToolCall> toolCalls = List.of();
        private List<Message> messages;
        private TokenUsage usage = TokenUsage.ZERO;
        private FinishReason finishReason;

        private Builder() {
        }

        public Builder content(String value) {
            this.content = Objects.requireNonNull(value, "content");
            return this;
        }

        public Builder reasoning(String value) {
            this.reasoning = Objects.requireNonNull(value, "reasoning");
            return this;
        }

        public Builder toolCalls(List<ToolCall> value) {
            this.toolCalls = List.copyOf(value);
            return this;
        }

        public Builder messages(List<Message> value) {
            this.messages = new ArrayList<>(value);
            return this;
        }

        public Builder usage(TokenUsage value) {
            this.usage = Objects.requireNonNull(value, "usage");
            return this;
        }

        public Builder finishReason(FinishReason value) {
            this.finishReason = Objects.requireNonNull(value, "finishReason");
            return this;
        }

        public Result build() {
            List<Message> produced = messages != null ? messages : defaultMessages(content, toolCalls);
            FinishReason reason = finishReason != null ? finishReason : defaultFinishReason(toolCalls);
            return new Result(content, reasoning, toolCalls, produced, usage, reason);
        }

        private static List<Message> defaultMessages(String content, List<ToolCall> toolCalls) {
            return List.of(Message.assistant(content, toolCalls));
        }

        private static FinishReason defaultFinishReason(List<ToolCall> toolCalls) {
            return toolCalls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
        }
    }
}
