package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Prompt-prefix reuse across the turns of a conversation. The time to the first token of turn 2 is measured with the
 * slot's prompt cache and without it, and printed: measured, never asserted (machines are shared and noisy). What is
 * asserted is that reuse does not change what a greedy model answers.
 */
class PromptReuseTest {

    private static final int RUNS = 5;

    @Test
    void reusingTheEvaluatedPrefixLeavesGreedyAnswersUnchangedAndIsMeasured() {
        LlamaCppEngine engine = TestModels.stories();
        List<Message> history = new ArrayList<>(List.of(Message.system("You tell short stories."),
                Message.user("Tell me a story about a cat. ".repeat(40))));
        Result first = engine.infer(request(history, true));
        history.add(Message.assistant(first.content()));
        history.add(Message.user("And then?"));

        long cachedNanos = 0;
        long uncachedNanos = 0;
        String cached = null;
        String uncached = null;
        for (int run = 0; run < RUNS; run++) {
            engine.infer(request(history.subList(0, 2), true)); // the slot holds turn 1's prefix again
            Timed withCache = timed(engine, request(history, true));
            Timed withoutCache = timed(engine, request(history, false));
            cachedNanos += withCache.firstTokenNanos;
            uncachedNanos += withoutCache.firstTokenNanos;
            cached = withCache.content;
            uncached = withoutCache.content;
        }

        System.out.printf(Locale.ROOT, "prompt reuse, turn 2 of %d prompt tokens: first token after %.1f ms with the "
                        + "cached prefix, %.1f ms without (mean of %d runs, ratio %.2f)%n",
                engine.tokenCounter().count(history), cachedNanos / 1e6 / RUNS, uncachedNanos / 1e6 / RUNS, RUNS,
                (double) uncachedNanos / Math.max(1, cachedNanos));
        assertThat(cached).isEqualTo(uncached);
    }

    private static Request request(List<Message> messages, boolean cachePrompt) {
        return Request.builder().messages(messages).temperature(0).seed(1).maxTokens(8)
                .option("cache_prompt", cachePrompt).build();
    }

    private static Timed timed(LlamaCppEngine engine, Request request) {
        long started = System.nanoTime();
        long[] first = {0};
        Result result = engine.infer(CallContext.background(), request, StreamHandler.onContent(delta -> {
            if (first[0] == 0) {
                first[0] = System.nanoTime() - started;
            }
        }));
        return new Timed(first[0], result.content());
    }

    private record Timed(long firstTokenNanos, String content) {
    }
}
