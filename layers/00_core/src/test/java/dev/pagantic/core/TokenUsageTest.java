package dev.pagantic.core;

import static dev.pagantic.core.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TokenUsageTest {

    private static final long SEED = 20240601L;
    private static final int TRIALS = 1_000;

    private static TokenUsage usage(int prompt, int reasoning, int output, int context, int window, Duration time) {
        return new TokenUsage(prompt, reasoning, output, context, window, time);
    }

    /** Generated tokens (all as output) over a generation time. */
    private static TokenUsage generated(int tokens, Duration time) {
        return usage(0, 0, tokens, tokens, 0, time);
    }

    private static TokenUsage random(Random random) {
        return usage(random.nextInt(100_000), random.nextInt(10_000), random.nextInt(10_000), random.nextInt(200_000),
                random.nextBoolean() ? 0 : 1 << (10 + random.nextInt(8)),
                Duration.ofNanos(random.nextLong(0, 60_000_000_000L)));
    }

    /** The original's pairwise combination of rates: the mean of the two tokens-per-second values. */
    private static double averagedTokensPerSecond(double left, double right) {
        return (left + right) / 2;
    }

    @Nested
    class Combination {

        @Test
        void countsAddUpWindowIsTheLargestAndTimeAddsUp() {
            TokenUsage first = usage(100, 10, 50, 160, 4096, Duration.ofMillis(1500));
            TokenUsage second = usage(200, 0, 30, 230, 8192, Duration.ofMillis(500));

            TokenUsage sum = first.plus(second);

            assertThat(sum).isEqualTo(usage(300, 10, 80, 390, 8192, Duration.ofSeconds(2)));
            assertThat(second.plus(first).contextWindow()).isEqualTo(8192);
        }

        @Test
        void tokensPerSecondIsGeneratedTokensOverGenerationTime() {
            TokenUsage usage = usage(1_000, 20, 80, 1_100, 0, Duration.ofSeconds(2));

            assertThat(usage.tokensPerSecond()).isCloseTo(50.0, within(1e-9));
        }

        @Test
        void promptTokensDoNotCountTowardsThroughput() {
            TokenUsage small = usage(10, 0, 100, 110, 0, Duration.ofSeconds(1));
            TokenUsage large = usage(90_000, 0, 100, 90_100, 0, Duration.ofSeconds(1));

            assertThat(large.tokensPerSecond()).isEqualTo(small.tokensPerSecond()).isCloseTo(100.0, within(1e-9));
        }

        @Test
        void throughputWithoutRecordedTimeIsZero() {
            assertThat(TokenUsage.of(10, 500).tokensPerSecond()).isZero();
            assertThat(TokenUsage.ZERO.tokensPerSecond()).isZero();
        }

        @Test
        void combinedThroughputIsTotalGeneratedTokensOverTotalTime() {
            TokenUsage first = usage(5, 40, 60, 105, 0, Duration.ofSeconds(1));
            TokenUsage second = usage(5, 0, 100, 105, 0, Duration.ofSeconds(4));

            assertThat(first.plus(second).tokensPerSecond()).isCloseTo(200.0 / 5, within(1e-9));
        }

        @Test
        void combinedThroughputDiffersFromPairwiseAveraging() {
            TokenUsage fast = generated(100, Duration.ofSeconds(1));
            TokenUsage slow = generated(10, Duration.ofSeconds(10));

            double averaged = averagedTokensPerSecond(fast.tokensPerSecond(), slow.tokensPerSecond());
            double combined = fast.plus(slow).tokensPerSecond();

            // 100 t/s and 1 t/s average to 50.5 t/s, although 110 tokens took 11 s: 10 t/s.
            assertThat(averaged).isCloseTo(50.5, within(1e-9));
            assertThat(combined).isCloseTo(110.0 / 11, within(1e-9));
        }

        @Test
        void pairwiseAveragingDependsOnGroupingWhileCombinationDoesNot() {
            TokenUsage a = generated(100, Duration.ofSeconds(1));
            TokenUsage b = generated(10, Duration.ofSeconds(10));
            TokenUsage c = generated(50, Duration.ofSeconds(1));

            double averagedLeft = averagedTokensPerSecond(
                    averagedTokensPerSecond(a.tokensPerSecond(), b.tokensPerSecond()), c.tokensPerSecond());
            double averagedRight = averagedTokensPerSecond(
                    a.tokensPerSecond(), averagedTokensPerSecond(b.tokensPerSecond(), c.tokensPerSecond()));

            assertThat(averagedLeft).isNotCloseTo(averagedRight, within(1.0));
            assertThat(a.plus(b).plus(c).tokensPerSecond()).isEqualTo(a.plus(b.plus(c)).tokensPerSecond())
                    .isCloseTo(160.0 / 12, within(1e-9));
        }

        @Test
        void usageCombinationIsAssociative() {
            Random random = new Random(SEED);
            for (int trial = 0; trial < TRIALS; trial++) {
                TokenUsage a = random(random);
                TokenUsage b = random(random);
                TokenUsage c = random(random);

                assertThat(a.plus(b).plus(c)).as("(a+b)+c vs a+(b+c) for %s, %s, %s", a, b, c)
                        .isEqualTo(a.plus(b.plus(c)));
            }
        }

        @Test
        void usageCombinationIsCommutative() {
            Random random = new Random(SEED + 1);
            for (int trial = 0; trial < TRIALS; trial++) {
                TokenUsage a = random(random);
                TokenUsage b = random(random);

                assertThat(a.plus(b)).as("a+b vs b+a for %s, %s", a, b).isEqualTo(b.plus(a));
            }
        }

        @Test
        void usageOfManyCallsDoesNotDependOnTheirOrder() {
            Random random = new Random(SEED + 2);
            TokenUsage[] calls = new TokenUsage[20];
            for (int i = 0; i < calls.length; i++) {
                calls[i] = random(random);
            }
            TokenUsage forward = TokenUsage.ZERO;
            TokenUsage backward = TokenUsage.ZERO;
            for (int i = 0; i < calls.length; i++) {
                forward = forward.plus(calls[i]);
                backward = calls[calls.length - 1 - i].plus(backward);
            }

            assertThat(forward).isEqualTo(backward);
            assertThat(forward.tokensPerSecond()).isEqualTo(backward.tokensPerSecond());
        }

        @Test
        void zeroIsTheIdentity() {
            Random random = new Random(SEED + 3);
            for (int trial = 0; trial < TRIALS; trial++) {
                TokenUsage a = random(random);

                assertThat(a.plus(TokenUsage.ZERO)).isEqualTo(a);
                assertThat(TokenUsage.ZERO.plus(a)).isEqualTo(a);
            }
        }
    }

    @Nested
    class Values {

        @Test
        void ofSetsPromptAndOutputAndTheirSumAsContext() {
            assertThat(TokenUsage.of(120, 30)).isEqualTo(usage(120, 0, 30, 150, 0, Duration.ZERO));
        }

        @Test
        void totalTokensAddsPromptReasoningAndOutput() {
            assertThat(usage(100, 20, 30, 0, 0, Duration.ZERO).totalTokens()).isEqualTo(150);
        }

        @Test
        void withersReplaceOneField() {
            TokenUsage base = TokenUsage.of(10, 5);

            assertThat(base.withContextWindow(4096)).isEqualTo(usage(10, 0, 5, 15, 4096, Duration.ZERO));
            assertThat(base.withGenerationTime(Duration.ofSeconds(1)))
                    .isEqualTo(usage(10, 0, 5, 15, 0, Duration.ofSeconds(1)));
        }

        @ParameterizedTest
        @ValueSource(ints = {0, 1, 2, 3, 4})
        void negativeCountsAreRefused(int field) {
            IntFunction<TokenUsage> withNegative = index -> usage(index == 0 ? -1 : 0, index == 1 ? -1 : 0,
                    index == 2 ? -1 : 0, index == 3 ? -1 : 0, index == 4 ? -1 : 0, Duration.ZERO);

            assertConfigInvalid(() -> withNegative.apply(field));
        }

        @Test
        void negativeGenerationTimeIsRefused() {
            assertConfigInvalid(() -> usage(0, 0, 0, 0, 0, Duration.ofMillis(-1)));
            assertConfigInvalid(() -> TokenUsage.ZERO.withGenerationTime(Duration.ofNanos(-1)));
            assertConfigInvalid(() -> TokenUsage.ZERO.withContextWindow(-1));
        }

        @Test
        void nullGenerationTimeIsRefused() {
            assertThatThrownBy(() -> usage(0, 0, 0, 0, 0, null)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void overflowingCombinationFailsInsteadOfWrapping() {
            TokenUsage nearlyFull = TokenUsage.of(Integer.MAX_VALUE, 0);

            assertThatThrownBy(() -> nearlyFull.plus(TokenUsage.of(1, 0))).isInstanceOf(ArithmeticException.class);
            assertThatThrownBy(() -> usage(0, Integer.MAX_VALUE, 0, 0, 0, Duration.ZERO)
                    .plus(usage(0, 1, 0, 0, 0, Duration.ZERO))).isInstanceOf(ArithmeticException.class);
        }

        @Test
        void overflowingTotalFailsInsteadOfWrapping() {
            TokenUsage usage = usage(Integer.MAX_VALUE, 0, 1, 0, 0, Duration.ZERO);

            assertThatThrownBy(usage::totalTokens).isInstanceOf(ArithmeticException.class);
        }

        @Test
        void throughputOfLargeCountsDoesNotOverflow() {
            int billion = 1_500_000_000;
            TokenUsage usage = usage(0, billion, billion, 0, 0, Duration.ofSeconds(1));

            assertThat(usage.tokensPerSecond()).isCloseTo(3.0e9, within(1.0));
        }
    }
}
