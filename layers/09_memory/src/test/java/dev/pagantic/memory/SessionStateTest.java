package dev.pagantic.memory;

import static dev.pagantic.memory.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SessionStateTest {

    @Test
    void putGetAndRemoveAValue() {
        SessionState state = new SessionState();
        assertThat(state.put("language", "fr")).isEmpty();
        assertThat(state.put("language", "de")).contains("fr");
        assertThat(state.get("language")).contains("de");
        assertThat(state.get("language", String.class)).contains("de");
        assertThat(state.remove("language")).contains("de");
        assertThat(state.get("language")).isEmpty();
        assertThat(state.isEmpty()).isTrue();
    }

    @Test
    void valuesAreNormalisedToJsonTypesAndCopiedDeeply() {
        SessionState state = new SessionState();
        List<Object> tags = new ArrayList<>(List.of("a", 1));
        state.put("count", 3);
        state.put("ratio", 0.5f);
        state.put("tags", tags);
        tags.add("mutated");

        assertThat(state.get("count")).contains(3L);
        assertThat(state.get("ratio")).contains(0.5d);
        assertThat(state.get("tags")).contains(List.of("a", 1L));
        @SuppressWarnings("unchecked")
        List<Object> stored = (List<Object>) state.get("tags").orElseThrow();
        assertThatThrownBy(() -> stored.add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void nonJsonValuesBlankKeysAndNullsAreRefused() {
        SessionState state = new SessionState();
        assertConfigInvalid(() -> state.put("k", new Object()));
        assertConfigInvalid(() -> state.put("k", null));
        assertConfigInvalid(() -> state.put(" ", "v"));
        assertConfigInvalid(() -> state.put("k", Double.NaN));
        assertConfigInvalid(() -> state.put("k", Map.of(1, "v")));
        state.put("n", 1);
        assertConfigInvalid(() -> state.get("n", String.class));
    }

    @Test
    void snapshotIsSortedAndImmutable() {
        SessionState state = new SessionState(Map.of("b", 2, "a", 1));
        Map<String, Object> snapshot = state.snapshot();
        state.put("c", 3);

        assertThat(snapshot).containsExactly(Map.entry("a", 1L), Map.entry("b", 2L));
        assertThat(state.keys()).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> snapshot.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void concurrentUpdatesOfOneKeyLoseNoIncrement() throws InterruptedException {
        SessionState state = new SessionState();
        int threads = 8;
        int increments = 5_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            pool.submit(() -> {
                start.await();
                for (int i = 0; i < increments; i++) {
                    state.update("counter", old -> (Long) old.orElse(0L) + 1);
                    state.put("thread-" + thread + "-" + (i % 10), i);
                }
                return null;
            });
        }
        start.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        assertThat(state.get("counter")).contains((long) threads * increments);
        assertThat(state.size()).isEqualTo(1 + threads * 10);
    }

    @Test
    void aListenerSeesEveryChangeInOrderAndCanVetoIt() {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        SessionState state = new SessionState(Map.of(), (key, value) -> {
            if (value.equals(Optional.of("forbidden"))) {
                throw new IllegalStateException("vetoed");
            }
            seen.add(key + "=" + value.map(String::valueOf).orElse("<removed>"));
        });
        state.put("a", "1");
        state.update("a", old -> old.get() + "2");
        state.putIfAbsent("a", "ignored");
        state.remove("a");
        state.remove("a");
        assertThatThrownBy(() -> state.put("b", "forbidden")).hasMessage("vetoed");

        assertThat(seen).containsExactly("a=1", "a=12", "a=<removed>");
        assertThat(state.containsKey("b")).isFalse();
    }

    @Test
    void updateReturningNullRemovesTheKey() {
        SessionState state = new SessionState(Map.of("k", "v"));
        assertThat(state.update("k", old -> null)).isEmpty();
        assertThat(state.containsKey("k")).isFalse();
    }
}
