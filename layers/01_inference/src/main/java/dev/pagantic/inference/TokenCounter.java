package dev.pagantic.inference;

import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.util.List;

/**
 * Counts tokens, to fit prompts into a context window before sending them. Engines with a tokenizer count exactly
 * (and declare {@link Capability#TOKEN_COUNTING}); others return the {@link #estimate() estimate}.
 */
@FunctionalInterface
public interface TokenCounter {

    /** Tokens in a piece of text. */
    int count(String text);

    /**
     * Tokens in a list of messages, including an allowance for each message's role and delimiters
     * ({@value #MESSAGE_OVERHEAD_TOKENS} tokens) and for tool-call names and arguments.
     */
    default int count(List<Message> messages) {
        int total = 0;
        for (Message message : messages) {
            total += MESSAGE_OVERHEAD_TOKENS + count(message.content());
            for (ToolCall call : message.toolCalls()) {
                total += count(call.name()) + count(call.arguments().toString());
            }
        }
        return total;
    }

    /** Tokens added per message for role markers and delimiters, as in common chat templates. */
    int MESSAGE_OVERHEAD_TOKENS = 4;

    /**
     * An estimate for engines without a tokenizer: one token per four characters (rounded up), but never fewer than
     * the number of whitespace-separated words. BPE tokenizers average about four characters per token on English
     * text; code and non-Latin scripts run higher, so leave a margin when fitting a window with an estimate.
     */
    static TokenCounter estimate() {
        return text -> Math.max((text.codePointCount(0, text.length()) + 3) / 4, words(text));
    }

    /** Whitespace-separated words, counted in one pass without allocating: a chat counts its history every turn. */
    private static int words(String text) {
        int words = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            boolean space = Character.isWhitespace(text.charAt(i));
            if (!space && !inWord) {
                words++;
            }
            inWord = !space;
        }
        return words;
    }
}
