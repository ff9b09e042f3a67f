package dev.pagantic.testkit;

import dev.pagantic.core.Message;
import dev.pagantic.inference.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text cut into the testkit's tokens: one token per whitespace-separated word. Each piece is a word with the
 * whitespace before it, and the whitespace after the last word rides on the last piece, so the pieces concatenate to
 * the exact text: streamed deltas then rebuild the content byte for byte.
 */
final class WordText {

    /** Counts words; overrides the message count so that only message content costs tokens (no per-message overhead). */
    static final TokenCounter COUNTER = new WordCounter();

    private static final Pattern PIECE = Pattern.compile("\\s*\\S+");
    private static final Pattern WORD = Pattern.compile("\\S+");

    private final List<String> pieces;
    private final int words;

    private WordText(List<String> pieces, int words) {
        this.pieces = List.copyOf(pieces);
        this.words = words;
    }

    /** The text cut into pieces; whitespace-only text is one piece of zero words, empty text has no pieces. */
    static WordText of(String text) {
        List<String> pieces = new ArrayList<>();
        Matcher matcher = PIECE.matcher(text);
        int end = 0;
        while (matcher.find()) {
            pieces.add(matcher.group());
            end = matcher.end();
        }
        int words = pieces.size();
        if (end < text.length()) {
            String tail = text.substring(end);
            if (pieces.isEmpty()) {
                pieces.add(tail);
            } else {
                pieces.set(words - 1, pieces.get(words - 1) + tail);
            }
        }
        return new WordText(pieces, words);
    }

    /** Whitespace-separated words in the text. */
    static int count(String text) {
        Matcher matcher = WORD.matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    /** The first {@code budget} words, cut before the whitespace that would precede the next word. */
    WordText firstWords(int budget) {
        if (words <= budget) {
            return this;
        }
        return new WordText(pieces.subList(0, budget), budget);
    }

    /** The pieces, in order; each but a whitespace-only text's single piece holds exactly one word. */
    List<String> pieces() {
        return pieces;
    }

    int words() {
        return words;
    }

    String text() {
        return String.join("", pieces);
    }

    private static final class WordCounter implements TokenCounter {
        @Override
        public int count(String text) {
            return WordText.count(text);
        }

        @Override
        public int count(List<Message> messages) {
            int total = 0;
            for (Message message : messages) {
                total += WordText.count(message.content());
            }
            return total;
        }
    }
}
