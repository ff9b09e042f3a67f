package dev.pagantic.context;

import static dev.pagantic.context.Bm25RetrieverTest.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class EmbeddingRetrieverTest {

    /** A bag-of-words embedding over the vocabulary [cat, dog, fish]. */
    private static float[] embed(String text) {
        float[] v = new float[3];
        for (String word : text.toLowerCase(Locale.ROOT).split("\\W+")) {
            switch (word) {
                case "cat" -> v[0]++;
                case "dog" -> v[1]++;
                case "fish" -> v[2]++;
                default -> { }
            }
        }
        return v;
    }

    private static final List<Candidate> CHUNKS = List.of(
            Candidate.of("cat cat dog", "a"),   // (2, 1, 0)
            Candidate.of("fish", "b"),          // (0, 0, 1)
            Candidate.of("dog", "c"),           // (0, 1, 0)
            Candidate.of("cat dog fish", "d")); // (1, 1, 1)

    @Test
    void returnsTheTopKByCosineSimilarityWithExactScores() {
        EmbeddingRetriever retriever = EmbeddingRetriever.builder(EmbeddingRetrieverTest::embed)
                .addAll(CHUNKS).build();

        List<Candidate> top = retriever.retrieve(CallContext.background(), "cat", 3); // query (1, 0, 0)

        assertThat(top).extracting(Candidate::source).containsExactly("a", "d", "b"); // b and c both 0: insertion order
        assertThat(top.get(0).score()).isCloseTo(2 / Math.sqrt(5), within(1e-9));
        assertThat(top.get(1).score()).isCloseTo(1 / Math.sqrt(3), within(1e-9));
        assertThat(top.get(2).score()).isCloseTo(0.0, within(1e-9));
    }

    @Test
    void equalSimilaritiesKeepInsertionOrder() {
        EmbeddingRetriever retriever = EmbeddingRetriever.builder(EmbeddingRetrieverTest::embed)
                .add(Candidate.of("dog", "first")).add(Candidate.of("dog dog", "second")).add(Candidate.of("fish",
                        "third"))
                .build();

        assertThat(retriever.retrieve("dog", 3)).extracting(Candidate::source)
                .containsExactly("first", "second", "third");
    }

    @Test
    void aPlainFunctionPlugsInByMethodReference() {
        Function<String, float[]> function = EmbeddingRetrieverTest::embed;
        EmbeddingRetriever retriever = EmbeddingRetriever.builder(function::apply).addAll(CHUNKS).build();

        assertThat(retriever.retrieve("fish", 1)).extracting(Candidate::source).containsExactly("b");
    }

    @Test
    void precomputedVectorsAreNotEmbeddedAgain() {
        AtomicInteger calls = new AtomicInteger();
        EmbeddingRetriever retriever = EmbeddingRetriever.builder(text -> {
                    calls.incrementAndGet();
                    return embed(text);
                })
                .add(Candidate.of("anything", "x"), new float[] {0, 0, 1})
                .add(Candidate.of("dog", "y"))
                .build();

        assertThat(calls).hasValue(1);
        assertThat(retriever.retrieve("fish", 1)).extracting(Candidate::source).containsExactly("x");
        assertThat(calls).hasValue(2);
        assertThat(retriever.dimension()).isEqualTo(3);
    }

    @Test
    void minimumSimilarityDropsWeakMatches() {
        EmbeddingRetriever retriever = EmbeddingRetriever.builder(EmbeddingRetrieverTest::embed)
                .addAll(CHUNKS).minSimilarity(0.5).build();

        assertThat(retriever.retrieve("cat", 10)).extracting(Candidate::source).containsExactly("a", "d");
    }

    @Test
    void vectorsOfAnotherDimensionOrNotFiniteAreRefused() {
        assertConfigInvalid(() -> EmbeddingRetriever.builder(EmbeddingRetrieverTest::embed)
                .add(Candidate.of("a", "a"), new float[] {1, 0}).add(Candidate.of("b", "b")).build());
        assertConfigInvalid(() -> EmbeddingRetriever.builder(text -> new float[] {Float.NaN})
                .add(Candidate.of("a", "a")).build());
        assertConfigInvalid(() -> EmbeddingRetriever.builder(text -> new float[0]).add(Candidate.of("a", "a")).build());
        EmbeddingRetriever retriever = EmbeddingRetriever.builder(EmbeddingRetrieverTest::embed).addAll(CHUNKS)
                .build();
        EmbeddingRetriever otherModel = EmbeddingRetriever.builder(text -> new float[] {1, 2})
                .add(Candidate.of("x", "x"), new float[] {1, 0, 0}).build();
        assertConfigInvalid(() -> otherModel.retrieve("x", 1));
        assertConfigInvalid(() -> retriever.retrieve("cat", 0));
        assertConfigInvalid(() -> EmbeddingRetriever.builder(EmbeddingRetrieverTest::embed).minSimilarity(2).build());
    }

    @Test
    void zeroVectorsHaveSimilarityZero() {
        assertThat(EmbeddingRetriever.cosine(new float[] {0, 0}, new float[] {1, 1})).isZero();
        assertThat(EmbeddingRetriever.cosine(new float[] {1, 1}, new float[] {2, 2})).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void aCancelledContextStopsBeforeTheQueryIsEmbedded() {
        AtomicInteger calls = new AtomicInteger();
        EmbeddingRetriever retriever = EmbeddingRetriever.builder(text -> {
                    calls.incrementAndGet();
                    return embed(text);
                }).addAll(CHUNKS).build();
        int afterBuild = calls.get();

        assertThatThrownBy(() -> retriever.retrieve(Contexts.cancelled(), "cat", 2))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
        assertThatThrownBy(() -> retriever.retrieve(Contexts.expired(), "cat", 2))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT));
        assertThat(calls).hasValue(afterBuild);
    }
}
