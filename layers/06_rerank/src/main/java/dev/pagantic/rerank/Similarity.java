package dev.pagantic.rerank;

import dev.pagantic.core.Candidate;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * How alike two candidates are, for {@link Mmr}: a symmetric number, 1 for identical content and 0 for nothing in
 * common. Plug in any measure, such as the cosine of embeddings supplied by an engine.
 */
@FunctionalInterface
public interface Similarity {

    /** The similarity of two candidates, normally in [0, 1]. */
    double similarity(Candidate a, Candidate b);

    /**
     * Jaccard similarity of the candidates' term sets (default tokenisation): shared distinct terms over all distinct
     * terms; 1 when both have no terms.
     */
    static Similarity jaccard() {
        return jaccard(Terms.standard());
    }

    /** Jaccard similarity of the term sets that the given tokenizer yields. */
    static Similarity jaccard(Function<String, ? extends List<String>> tokenizer) {
        Objects.requireNonNull(tokenizer, "tokenizer");
        return (a, b) -> {
            Set<String> left = new HashSet<>(tokenizer.apply(a.content()));
            Set<String> right = new HashSet<>(tokenizer.apply(b.content()));
            if (left.isEmpty() && right.isEmpty()) {
                return 1.0;
            }
            Set<String> union = new HashSet<>(left);
            union.addAll(right);
            left.retainAll(right);
            return (double) left.size() / union.size();
        };
    }
}
