package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The request's seed, stop strings and option {@code logit_bias} reach the llama.cpp sampler, on the real stories
 * model. The logit biases that would abort the JVM (NaN and infinite) are refused in Java ({@link NativeAbortTest}
 * shows the abort without the check).
 */
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

    private static Request greedy(Map<?, ?> logitBias) {
        Request.Builder request = Request.builder().addMessage(Message.user("Once upon a time")).temperature(0)
                .maxTokens(1).option("cache_prompt", false);
        return (logitBias.isEmpty() ? request : request.option("logit_bias", logitBias)).build();
    }

    @Test
    void aLargeBiasMakesItsTokenTheAnswerAndMinusOneHundredBansIt() {
        int dog = token(" dog");
        int cat = token(" cat");

        assertThat(engine.infer(greedy(Map.of(id(dog), 100, id(cat), 90))).content()).isEqualTo(text(dog));
        assertThat(engine.infer(greedy(Map.of(id(dog), -100, id(cat), 90))).content()).isEqualTo(text(cat));
    }

    private static int token(String word) {
        int[] tokens = engine.nativeModel().encode(word);
        return tokens[tokens.length - 1];
    }

    private static String id(int token) {
        return String.valueOf(token);
    }

    private static String text(int token) {
        return engine.nativeModel().decode(new int[] {token});
    }

    @Test
    void tokenIdsOutsideTheVocabularyAreIgnoredAsLlamaServerDoes() {
        String first = engine.infer(greedy(Map.of())).content();

        assertThat(engine.infer(greedy(Map.of("99999999", 100))).content()).isEqualTo(first);
    }

    @Test
    void biasesNativeCodeCannotTakeAndKeysThatAreNoTokenIdsAreRefused() {
        for (Map<?, ?> bias : new Map<?, ?>[] {Map.of("10", Double.NaN), Map.of("10", Double.POSITIVE_INFINITY),
                Map.of("10", 1e300), Map.of("-1", 5), Map.of("ten", 5), Map.of("1.5", 5), Map.of("10", "high")}) {
            assertThatThrownBy(() -> engine.infer(greedy(bias))).as("%s", bias)
                    .isInstanceOfSatisfying(PaganticException.class, refused -> {
                        assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                        assertThat(refused.details()).containsEntry("option", "logit_bias");
                    });
        }
    }
}
