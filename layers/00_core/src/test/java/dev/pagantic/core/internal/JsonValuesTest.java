package dev.pagantic.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonValuesTest {

    @Test
    @SuppressWarnings("unchecked")
    void aCopyIsDeepUnmodifiableAndKeepsKeyOrder() {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("z", 1);
        nested.put("a", new ArrayList<>(List.of("x")));
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("second", nested);
        source.put("first", null);

        Map<String, Object> copy = JsonValues.copyObject(source);
        nested.put("late", true);

        assertThat(copy.keySet()).containsExactly("second", "first");
        assertThat(copy.get("second")).isEqualTo(Map.of("z", 1, "a", List.of("x")));
        assertThat(copy).containsEntry("first", null);
        assertThatThrownBy(() -> copy.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> copy.entrySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((Map<String, Object>) copy.get("second")).remove("z"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void copyingACopyAgainReturnsItWithoutCopying() {
        Map<String, Object> copy = JsonValues.copyObject(Map.of("city", "Paris", "days", List.of(1, 2)));

        assertThat(JsonValues.copyObject(copy)).isSameAs(copy);
        assertThat(JsonValues.copyValue(copy)).isSameAs(copy);
        assertThat(copy).isEqualTo(Map.of("city", "Paris", "days", List.of(1, 2)))
                .hasSameHashCodeAs(Map.of("city", "Paris", "days", List.of(1, 2)));
    }

    @Test
    void nestingDeeperThanTheLimitIsRefusedInsteadOfOverflowingTheStack() {
        Map<String, Object> deep = Map.of();
        for (int i = 0; i < 100_000; i++) {
            deep = Map.of("a", deep);
        }
        Map<String, Object> tooDeep = deep;
        Object atLimit = List.of();
        for (int i = 1; i < JsonValues.MAX_DEPTH; i++) {
            atLimit = List.of(atLimit);
        }

        assertThatThrownBy(() -> JsonValues.copyObject(tooDeep)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nested deeper than 1000");
        assertThat(JsonValues.copyValue(atLimit)).isEqualTo(atLimit);
    }
}
