package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The request's seed and stop strings reach the llama.cpp sampler, on the real stories model. */
class SeedAndStopTest {

    private static LlamaCppEngine engine;

    @BeforeAll
    static void load() {
        engine = TestModels.stories();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    /** A sampled (not greedy) story, so that only the seed can make two of them equal. */
    private static Request story(long seed) {
        return Request.builder().addMessage(Message.user("Once upon a time")).temperature(1.0).maxTokens(24)
                .seed(seed).build();
    }

    @Test
    void theEngineDeclaresSeedAndStop() {
        assertThat(engine.modelInfo().supports(Capability.SEED)).isTrue();
        assertThat(engine.modelInfo().supports(Capability.STOP)).isTrue();
    }

    @Test
    void theSameSeedGivesTheSameSampledOutputTwice() {
        Result first = engine.infer(story(42));
        Result second = engine.infer(story(42));

        assertThat(first.content()).isNotBlank().isEqualTo(second.content());
    }

    @Test
    void otherSeedsSampleOtherOutputs() {
        String fortyTwo = engine.infer(story(42)).content();

        // One other seed could by chance sample the same story; four in a row cannot, unless the seed is ignored.
        assertThat(LongStream.of(1, 2, 3, 4).mapToObj(seed -> engine.infer(story(seed)).content()))
                .anyMatch(other -> !other.equals(fortyTwo));
    }

    @Test
    void aStopStringEndsTheOutputBeforeIt() {
        Request unstopped = Request.builder().addMessage(Message.user("Once upon a time")).temperature(0).maxTokens(48)
                .build();
        String free = engine.infer(unstopped).content();
        String word = free.strip().split("\\s+")[1]; // a word the greedy story writes after its first

        Result stopped = engine.infer(unstopped.toBuilder().addStop(word).build());

        assertThat(stopped.content()).doesNotContain(word);
        assertThat(free).startsWith(stopped.content());
        assertThat(stopped.finishReason()).isEqualTo(FinishReason.STOP);
    }
}
