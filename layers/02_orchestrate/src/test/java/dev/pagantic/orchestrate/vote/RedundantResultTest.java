package dev.pagantic.orchestrate.vote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedundantResultTest {

    private static final TokenUsage ONE_CALL = new TokenUsage(10, 0, 5, 15, 4096, Duration.ofMillis(100));

    @Test
    void carriesTheWinnerConfidenceCandidatesAndCombinedUsage() {
        List<String> candidates = List.of("positive", "positive", "negative");
        TokenUsage usage = ONE_CALL.plus(ONE_CALL).plus(ONE_CALL);

        RedundantResult result = RedundantResult.of(new MajorityVoting().vote(candidates), candidates, usage,
                List.of());

        assertThat(result.content()).isEqualTo("positive");
        assertThat(result.confidence()).isEqualTo(2.0 / 3);
        assertThat(result.candidates()).containsExactly("positive", "positive", "negative");
        assertThat(result.usage().outputTokens()).isEqualTo(15);
        assertThat(result.usage().contextWindow()).isEqualTo(4096);
        assertThat(result.usage().generationTime()).isEqualTo(Duration.ofMillis(300));
        assertThat(result.hasFailures()).isFalse();
        assertThat(result.replicas()).isEqualTo(3);
    }

    @Test
    void reportsFailedReplicasAlongsideTheCandidates() {
        PaganticException failure = PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "replica 1: HTTP 503");

        RedundantResult result = new RedundantResult("a", 1.0, List.of("a", "a"), ONE_CALL, List.of(failure));

        assertThat(result.failures()).containsExactly(failure);
        assertThat(result.hasFailures()).isTrue();
        assertThat(result.replicas()).isEqualTo(3);
    }

    @Test
    void copiesItsListsSoLaterChangesDoNotLeakIn() {
        List<String> candidates = new ArrayList<>(List.of("a"));
        List<PaganticException> failures = new ArrayList<>();

        RedundantResult result = new RedundantResult("a", 1.0, candidates, TokenUsage.ZERO, failures);
        candidates.add("b");
        failures.add(PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "late"));

        assertThat(result.candidates()).containsExactly("a");
        assertThat(result.failures()).isEmpty();
    }

    @Test
    void itsListsAreImmutable() {
        RedundantResult result = RedundantResult.of("a", 1.0, List.of("a"), TokenUsage.ZERO);

        assertThatThrownBy(() -> result.candidates().add("b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> result.failures().add(PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void refusesAConfidenceOutsideZeroToOne() {
        assertThatThrownBy(() -> RedundantResult.of("a", 1.2, List.of("a"), TokenUsage.ZERO))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void refusesNullFields() {
        assertThatThrownBy(() -> RedundantResult.of(null, 1.0, List.of(), TokenUsage.ZERO))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RedundantResult.of("a", 1.0, List.of("a"), null))
                .isInstanceOf(NullPointerException.class);
    }
}
