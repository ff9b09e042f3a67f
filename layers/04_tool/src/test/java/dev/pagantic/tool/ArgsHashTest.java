package dev.pagantic.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArgsHashTest {

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void theHashIsTheSha256HexOfTheCanonicalJson() {
        assertThat(ArgsHash.canonicalJson(Map.of())).isEqualTo("{}");
        assertThat(ArgsHash.of(Map.of()))
                .isEqualTo("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
    }

    @Test
    void theHashIsDeterministic() {
        Map<String, Object> args = ordered("city", "Oslo", "days", 3);

        assertThat(ArgsHash.of(args)).isEqualTo(ArgsHash.of(ordered("city", "Oslo", "days", 3))).hasSize(64);
    }

    @Test
    void keyOrderDoesNotChangeTheHashAtAnyDepth() {
        Map<String, Object> one = ordered("b", 1, "a", ordered("y", List.of(ordered("q", 1, "p", 2)), "x", true));
        Map<String, Object> two = ordered("a", ordered("x", true, "y", List.of(ordered("p", 2, "q", 1))), "b", 1);

        assertThat(ArgsHash.canonicalJson(one)).isEqualTo("{\"a\":{\"x\":true,\"y\":[{\"p\":2,\"q\":1}]},\"b\":1}");
        assertThat(ArgsHash.of(one)).isEqualTo(ArgsHash.of(two));
    }

    @Test
    void differentArgumentsHaveDifferentHashes() {
        assertThat(ArgsHash.of(ordered("city", "Oslo"))).isNotEqualTo(ArgsHash.of(ordered("city", "Bergen")));
        assertThat(ArgsHash.of(ordered("list", List.of(1, 2)))).isNotEqualTo(ArgsHash.of(ordered("list",
                List.of(2, 1))));
    }
}
