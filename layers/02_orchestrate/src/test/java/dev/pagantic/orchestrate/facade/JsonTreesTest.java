package dev.pagantic.orchestrate.facade;

import static dev.pagantic.orchestrate.facade.FacadeAssertions.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

class JsonTreesTest {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(tools.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    private static Object tree(String json) {
        return JsonTrees.fromJsonNode(MAPPER.readTree(json)).orElseThrow();
    }

    @Test
    void aJsonNodeBecomesATreeOfJdkTypes() {
        Object tree = tree("{\"name\":\"Ada\",\"age\":36,\"ratio\":1.10,\"ok\":true,\"tags\":[\"a\",null],"
                + "\"nested\":{\"none\":null}}");

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("name", "Ada");
        expected.put("age", 36L);
        expected.put("ratio", new BigDecimal("1.10"));
        expected.put("ok", true);
        expected.put("tags", Arrays.asList("a", null));
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("none", null);
        expected.put("nested", nested);
        assertThat(tree).isEqualTo(expected);
    }

    @Test
    void keyOrderIsKept() {
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = (Map<String, Object>) tree("{\"z\":1,\"a\":2,\"m\":3}");

        assertThat(tree.keySet()).containsExactly("z", "a", "m");
    }

    @Test
    void numbersAreLongsOrBigDecimals() {
        assertThat(tree("[1, -9223372036854775808, 12345678901234567890, 2.5, 1e3]")).isEqualTo(List.of(1L,
                Long.MIN_VALUE, new BigDecimal("12345678901234567890"), new BigDecimal("2.5"), new BigDecimal("1E+3")));
        assertThat(JsonTrees.fromJsonNode(JsonNodeFactory.instance.numberNode(2.5d))).contains(new BigDecimal("2.5"));
    }

    @Test
    void aTopLevelJsonNullIsNoValue() {
        assertThat(JsonTrees.fromJsonNode(MAPPER.readTree("null"))).isEmpty();
        assertThat(JsonTrees.fromJsonNode(JsonNodeFactory.instance.missingNode())).isEmpty();
        assertThat(JsonTrees.canonical(null)).isEmpty();
    }

    @Test
    void treesAreImmutable() {
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = (Map<String, Object>) tree("{\"list\":[1]}");

        assertThatThrownBy(() -> tree.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<?>) tree.get("list")).clear())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void jdkValuesAreCanonicalisedAndCopied() {
        List<Object> list = new ArrayList<>(List.of(1, 2.5f, 3.25d, BigInteger.TEN));
        Map<String, Object> map = new HashMap<>(Map.of("list", list, "s", (short) 4));

        Object tree = JsonTrees.canonical(map).orElseThrow();
        list.add("late");

        assertThat(tree).isEqualTo(Map.of("list",
                List.of(1L, new BigDecimal("2.5"), new BigDecimal("3.25"), 10L), "s", 4L));
    }

    @Test
    void aTreeThatIsCanonicalAlreadyIsNotCopiedAgainAndStaysImmutable() {
        Object parsed = tree("{\"items\":[{\"n\":1}],\"s\":\"x\"}");
        Object copied = JsonTrees.canonical(Map.of("list", List.of(1))).orElseThrow();

        assertThat(JsonTrees.canonical(parsed)).get().isSameAs(parsed);
        assertThat(JsonTrees.canonical(copied)).get().isSameAs(copied);
        assertThat(JsonTrees.canonical(Map.of("outer", parsed)).orElseThrow())
                .isEqualTo(Map.of("outer", parsed)).extracting(outer -> ((Map<?, ?>) outer).get("outer"))
                .isSameAs(parsed);
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) copied;
        assertThatThrownBy(() -> map.remove("list")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> map.entrySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<?>) map.get("list")).remove(0))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(parsed).hasToString("{items=[{n=1}], s=x}");
    }

    @Test
    void valuesThatAreNotJsonAreConfigurationErrors() {
        assertConfigInvalid(() -> JsonTrees.canonical(new Object()));
        assertConfigInvalid(() -> JsonTrees.canonical(Map.of(1, "x")));
        assertConfigInvalid(() -> JsonTrees.canonical(Double.NaN));
        assertConfigInvalid(() -> JsonTrees.canonical(List.of(Double.POSITIVE_INFINITY)));
        assertConfigInvalid(() -> JsonTrees.fromJsonNode(JsonNodeFactory.instance.binaryNode(new byte[] {1})));
        assertConfigInvalid(() -> JsonTrees.fromJsonNode((JsonNode) null));
    }
}
