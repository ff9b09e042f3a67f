package dev.pagantic.prompt;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.inference.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where retrieved context goes in a prompt, and how much of it: an explicit policy instead of ad hoc string
 * concatenation.
 *
 * <h2>Format</h2>
 * The context block is the specification's: the header (default {@code Relevant context:}), a blank line, then one
 * line per snippet, {@code [1] (source): content}, lines separated by a single newline.
 *
 * <h2>Budget</h2>
 * {@code maxChars} and {@code maxTokens} (0: unlimited; tokens counted by {@code tokenCounter}, by default the
 * {@link TokenCounter#estimate() estimate}) bound the whole rendered block, header included. Snippets are taken in
 * the given order (best first) while the block stays within budget; the first snippet that does not fit ends the
 * block, so a lower-ranked snippet never displaces a higher-ranked one, and no snippet is ever cut in the middle. A
 * block with no snippet left is empty (no header either).
 *
 * <h2>Placement</h2>
 * See {@link Placement}. Immutable and thread-safe (if the token counter is).
 *
 * @param placement    where the block goes
 * @param maxChars     the most characters of the block; 0 for no limit
 * @param maxTokens    the most tokens of the block; 0 for no limit
 * @param tokenCounter how tokens are counted for {@code maxTokens}
 * @param header       the block's first line
 */
public record ContextPolicy(Placement placement, int maxChars, int maxTokens, TokenCounter tokenCounter,
                            String header) {

    /** The specification's header line. */
    public static final String DEFAULT_HEADER = "Relevant context:";

    /** Where the context block is placed. */
    public enum Placement {
        /** Appended to the system prompt (after its instruction sets), as part of the same system message. */
        SYSTEM_PROMPT,
        /**
         * As its own system message right before the latest user message, the way orchestrate's AgentLoop inserts
         * ephemeral context; appended at the end when there is no user message.
         */
        BEFORE_USER_MESSAGE,
        /**
         * Prepended to the latest user message's content (followed by a blank line), for chat templates that accept
         * only one leading system message; a separate system message at the end when there is no user message.
         */
        IN_USER_MESSAGE,
        /** Left out. */
        OMIT
    }

    public ContextPolicy {
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(tokenCounter, "tokenCounter");
        Objects.requireNonNull(header, "header");
        check(maxChars >= 0, "maxChars must not be negative: " + maxChars);
        check(maxTokens >= 0, "maxTokens must not be negative: " + maxTokens);
        check(!header.isBlank(), "the context header must not be blank");
    }

    /** The default: in the system prompt, no budget, the specification's header. */
    public static ContextPolicy defaults() {
        return builder().build();
    }

    /** Starts building a policy. */
    public static Builder builder() {
        return new Builder();
    }

    /** The leading snippets that fit the budget, in order. */
    public List<ContextSnippet> fit(List<ContextSnippet> snippets) {
        List<ContextSnippet> kept = new ArrayList<>();
        StringBuilder block = new StringBuilder(header).append("\n\n");
        for (ContextSnippet snippet : snippets) {
            int mark = block.length();
            if (!kept.isEmpty()) {
                block.append('\n');
            }
            block.append(snippet.render(kept.size() + 1));
            if (!withinBudget(block.toString())) {
                block.setLength(mark);
                break;
            }
            kept.add(snippet);
        }
        return List.copyOf(kept);
    }

    /** The context block of the snippets that fit the budget; empty when none does (or there are none). */
    public String render(List<ContextSnippet> snippets) {
        List<ContextSnippet> kept = fit(snippets);
        if (kept.isEmpty()) {
            return "";
        }
        StringBuilder block = new StringBuilder(header).append("\n\n");
        for (int i = 0; i < kept.size(); i++) {
            if (i > 0) {
                block.append('\n');
            }
            block.append(kept.get(i).render(i + 1));
        }
        return block.toString();
    }

    /**
     * The messages with the context block placed according to this policy. The input is not modified; with no block
     * (no snippets, nothing fits, or {@link Placement#OMIT}) it is returned as an unchanged copy. For
     * {@link Placement#SYSTEM_PROMPT} the block is appended to the first message when it is a system message, or
     * becomes a new leading system message otherwise.
     */
    public List<Message> apply(List<Message> messages, List<ContextSnippet> snippets) {
        List<Message> out = new ArrayList<>(messages);
        String block = placement == Placement.OMIT ? "" : render(snippets);
        if (block.isEmpty()) {
            return List.copyOf(out);
        }
        int lastUser = -1;
        for (int i = out.size() - 1; i >= 0; i--) {
            if (out.get(i).role() == Role.USER) {
                lastUser = i;
                break;
            }
        }
        switch (placement) {
            case SYSTEM_PROMPT -> {
                if (!out.isEmpty() && out.get(0).role() == Role.SYSTEM) {
                    out.set(0, Message.system(appendBlock(out.get(0).content(), block)));
                } else {
                    out.add(0, Message.system(block));
                }
            }
            case BEFORE_USER_MESSAGE -> out.add(lastUser < 0 ? out.size() : lastUser, Message.system(block));
            case IN_USER_MESSAGE -> {
                if (lastUser < 0) {
                    out.add(Message.system(block));
                } else {
                    out.set(lastUser, Message.user(block + "\n\n" + out.get(lastUser).content()));
                }
            }
            case OMIT -> {
                // unreachable: handled above
            }
        }
        return List.copyOf(out);
    }

    /** The text followed by a blank line and the block, or just the block when the text is blank. */
    static String appendBlock(String text, String block) {
        if (block.isEmpty()) {
            return text;
        }
        return text.isBlank() ? block : text.stripTrailing() + "\n\n" + block;
    }

    private boolean withinBudget(String block) {
        if (maxChars > 0 && block.codePointCount(0, block.length()) > maxChars) {
            return false;
        }
        return maxTokens == 0 || tokenCounter.count(block) <= maxTokens;
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
        }
    }

    /** Builds a {@link ContextPolicy}; {@link #build()} throws {@code CONFIG_INVALID} if it is not valid. */
    public static final class Builder {
        private Placement placement = Placement.SYSTEM_PROMPT;
        private int maxChars;
        private int maxTokens;
        private TokenCounter tokenCounter = TokenCounter.estimate();
        private String header = DEFAULT_HEADER;

        private Builder() {
        }

        /** Where the block goes (default {@link Placement#SYSTEM_PROMPT}). */
        public Builder placement(Placement value) {
            this.placement = Objects.requireNonNull(value, "placement");
            return this;
        }

        /** The most characters (code points) of the block; 0 for no limit (the default). */
        public Builder maxChars(int value) {
            this.maxChars = value;
            return this;
        }

        /** The most tokens of the block; 0 for no limit (the default). */
        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        /** How tokens are counted (default {@link TokenCounter#estimate()}; pass the engine's counter). */
        public Builder tokenCounter(TokenCounter value) {
            this.tokenCounter = Objects.requireNonNull(value, "tokenCounter");
            return this;
        }

        /** The block's first line (default {@value ContextPolicy#DEFAULT_HEADER}). */
        public Builder header(String value) {
            this.header = Objects.requireNonNull(value, "header");
            return this;
        }

        /**
         * Builds the policy.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for a negative budget or a blank header
         */
        public ContextPolicy build() {
            return new ContextPolicy(placement, maxChars, maxTokens, tokenCounter, header);
        }
    }
}
