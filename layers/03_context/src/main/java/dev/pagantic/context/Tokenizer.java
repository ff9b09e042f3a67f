package dev.pagantic.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns text into the terms that {@link Bm25Retriever} indexes and matches. Any lambda of this shape plugs in
 * (stemming, n-grams, a language-specific analyser).
 *
 * <p>The standard tokenizer ({@link #standard()}) lower-cases (in {@link Locale#ROOT}, so the result does not depend
 * on the machine's locale) and splits on every code point that is not a letter or a digit: {@code "Don't stop-me
 * now2"} gives {@code [don, t, stop, me, now2]}. {@link #withStopWords(Set)} also drops the given words (compared
 * after lower-casing).
 */
@FunctionalInterface
public interface Tokenizer {

    /** The terms of the text, in order, repeats kept; an empty list for text without letters or digits. */
    List<String> tokenize(String text);

    /** Lower-case, split on non-letters/digits, keep every term. */
    static Tokenizer standard() {
        return text -> List.copyOf(split(text));
    }

    /** Lower-case, split on non-letters/digits, and drop the given stop words (matched in lower case). */
    static Tokenizer withStopWords(Set<String> stopWords) {
        Objects.requireNonNull(stopWords, "stopWords");
        Set<String> lowered = stopWords.stream().map(word -> word.toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
        return text -> {
            List<String> terms = split(text);
            terms.removeIf(lowered::contains);
            return List.copyOf(terms);
        };
    }

    /** A small list of English function words (articles, pronouns, auxiliaries, prepositions, conjunctions). */
    static Set<String> englishStopWords() {
        return Set.of("a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "he",
                "her", "his", "i", "if", "in", "into", "is", "it", "its", "no", "not", "of", "on", "or", "our",
                "she", "so", "such", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to",
                "was", "we", "were", "what", "when", "which", "who", "will", "with", "you", "your");
    }

    /** The standard split: lower-cased runs of letters and digits, as a mutable list. */
    private static List<String> split(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        List<String> terms = new ArrayList<>();
        int start = -1;
        int i = 0;
        while (i < lower.length()) {
            int cp = lower.codePointAt(i);
            if (Character.isLetterOrDigit(cp)) {
                if (start < 0) {
                    start = i;
                }
            } else if (start >= 0) {
                terms.add(lower.substring(start, i));
                start = -1;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) {
            terms.add(lower.substring(start));
        }
        return terms;
    }
}
