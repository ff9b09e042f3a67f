package dev.pagantic.rerank;

import static dev.pagantic.rerank.RerankTesting.sources;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import java.util.List;
import org.junit.jupiter.api.Test;

class MmrTest {

    // The two most relevant candidates say the same thing; the third is less relevant but different.
    private static final List<Candidate> CANDIDATES = List.of(
            Candidate.of("Go interfaces are satisfied implicitly.", "original", 0.90),
            Candidate.of("Go interfaces are satisfied implicitly!", "near-duplicate", 0.88),
            Candidate.of("Embedding lets a struct reuse methods.", "different", 0.60));

    @Test
    void picksADiverseCandidateOverANearDuplicate() {
        // near-duplicate: 0.5 * 0.88 - 0.5 * 1.0 = -0.06; different: 0.5 * 0.60 - 0.5 * 0.0 = 0.30
        Reranker diverse = Reranker.builder().topK(2).diversity(Mmr.of(0.5)).build();
        Reranker plain = Reranker.builder().topK(2).build();

        assertThat(sources(diverse.rerank("go interfaces", CANDIDATES))).containsExactly("original", "different");
        assertThat(sources(plain.rerank("go interfaces", CANDIDATES))).containsExactly("original", "near-duplicate");
    }

    @Test
    void lambdaOneIsPureRelevanceAndPickedCandidatesKeepTheirScores() {
        List<Candidate> picked = Mmr.of(1.0).select(CallContext.background(), CANDIDATES, 3);

        assertThat(sources(picked)).containsExactly("original", "near-duplicate", "different");
        assertThat(picked).extracting(Candidate::score).containsExactly(0.90, 0.88, 0.60);
    }

    @Test
    void withoutATopKEveryCandidateIsPickedEventually() {
        Reranker diverse = Reranker.builder().diversity(Mmr.of(0.5)).build();

        assertThat(sources(diverse.rerank("q", CANDIDATES)))
                .containsExactly("original", "different", "near-duplicate");
    }

    @Test
    void theSimilarityIsPluggable() {
        // A similarity that calls everything from the same source family alike.
        Similarity bySourcePrefix = (a, b) -> a.source().charAt(0) == b.source().charAt(0) ? 1.0 : 0.0;
        List<Candidate> candidates = List.of(Candidate.of("x", "a1", 0.9), Candidate.of("y", "a2", 0.8),
                Candidate.of("z", "b1", 0.5));

        assertThat(sources(Mmr.of(0.6, bySourcePrefix).select(CallContext.background(), candidates, 2)))
                .containsExactly("a1", "b1");
    }

    @Test
    void jaccardComparesTermSets() {
        Similarity jaccard = Similarity.jaccard();

        assertThat(jaccard.similarity(Candidate.of("a b c", "1"), Candidate.of("C B a!", "2"))).isEqualTo(1.0);
        assertThat(jaccard.similarity(Candidate.of("a b", "1"), Candidate.of("b c", "2"))).isEqualTo(1.0 / 3);
        assertThat(jaccard.similarity(Candidate.of("", "1"), Candidate.of("!", "2"))).isEqualTo(1.0);
    }
}
