package dev.pagantic.rerank;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The default tokenisation of this layer's lexical scorers: lower-case (in {@link Locale#ROOT}), split on every code
 * point that is not a letter or a digit, drop stop words. The context layer's standard tokenizer follows the same rule;
 * band layers cannot share code, so these few lines are written twice on purpose (see the package documentation).
 */
final class Terms {

    private Terms() {
    }

    /** The default tokenizer without stop words. */
    static Function<String, List<String>> standard() {
        return Terms::tokenize;
    }

    /** The default tokenizer dropping the given stop words (compared in lower case). */
    static Function<String, List<String>> withStopWords(Set<String> stopWords) {
        Set<String> lowered = stopWords.stream().map(word -> word.toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
        return text -> {
            List<String> terms = new ArrayList<>(tokenize(text));
            terms.removeIf(lowered::contains);
            return List.copyOf(terms);
        };
    }

    static List<String> tokenize(String text) {
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
        return List.copyOf(terms);
    }
}
