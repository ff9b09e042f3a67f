package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.EmbeddingModel;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EmbeddingsTest {

    @Test
    void twoDifferentTextsHaveDifferentEmbeddingsOfTheModelsDimension() {
        EmbeddingModel embeddings = LlamaCppEngine.builder().runtime(TestModels.runtime())
                .modelPath(TestModels.model(TestModels.STORIES)).contextSize(256).threads(2).embeddings(true).build();

        float[] cat = embeddings.embed("The cat sat on the mat.");
        float[] dog = embeddings.embed("A dog ran far away.");

        assertThat(embeddings.dimension()).isEqualTo(64); // stories260K's embedding size
        assertThat(cat).hasSize(64);
        assertThat(dog).hasSize(64);
        assertThat(Arrays.equals(cat, dog)).isFalse();
        assertThat(embeddings.embed("The cat sat on the mat.")).containsExactly(cat);
    }

    @Test
    void anEngineBuiltWithoutEmbeddingsRefusesToEmbed() {
        try {
            TestModels.stories().embed("hello");
            throw new AssertionError("expected CONFIG_UNSUPPORTED_CAPABILITY");
        } catch (PaganticException expected) {
            assertThat(expected.code()).isEqualTo(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY);
        }
    }
}
