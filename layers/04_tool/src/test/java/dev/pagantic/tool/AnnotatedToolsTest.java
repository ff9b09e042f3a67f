package dev.pagantic.tool;

import static dev.pagantic.tool.Failures.assertConfigInvalid;
import static dev.pagantic.tool.Failures.assertFailsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Schema;
import dev.pagantic.tool.annotation.Param;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AnnotatedToolsTest {

    enum Unit { CELSIUS, FAHRENHEIT;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT); // must not leak into schema or conversion
        }
    }

    record Location(@Param("City name") String city, Optional<String> country, double lat) {
    }

    record Forecast(String city, int temperature, Unit unit) {
    }

    record Node(String name, List<Node> children) {
    }

    static final class Weather {
        final List<Object> received = new ArrayList<>();

        @dev.pagantic.tool.annotation.Tool(value = "Current weather", readOnly = true, idempotent = true)
        Forecast weather(@Param("Where") Location location,
                         @Param(value = "Unit", required = false) Unit unit) {
            received.add(location);
            received.add(unit);
            return new Forecast(location.city(), 21, unit == null ? Unit.CELSIUS : unit);
        }

        @dev.pagantic.tool.annotation.Tool(name = "sum_all", value = "Adds numbers")
        long sum(List<Integer> values, int[] more, Optional<Long> offset) {
            long total = offset.orElse(0L);
            for (int value : values) {
                total += value;
            }
            for (int value : more) {
                total += value;
            }
            return total;
        }

        @dev.pagantic.tool.annotation.Tool("Echoes")
        public String echo(@Param(name = "text") String input, CallContext ctx) {
            received.add(ctx);
            return input;
        }

        @dev.pagantic.tool.annotation.Tool(value = "Remembers", timeoutMillis = 1500)
        void remember(boolean flag, char letter, BigDecimal amount, Set<String> tags) {
            received.add(List.of(flag, letter, amount, tags));
        }

        @dev.pagantic.tool.annotation.Tool("Fails")
        String fail() throws IOException {
            throw new IOException("disk on fire");
        }

        String notATool() {
            return "";
        }
    }

    private static final Weather WEATHER_SHAPE = new Weather();

    private Tool tool(Weather target, String name) {
        return ToolRegistry.builder().addAnnotated(target).build().lookup(name).orElseThrow();
    }

    @Test
    void everyAnnotatedMethodBecomesAToolInNameOrder() {
        List<Tool> tools = AnnotatedTools.from(WEATHER_SHAPE);

        assertThat(tools).extracting(Tool::name).containsExactly("echo", "fail", "remember", "sum_all", "weather");
    }

    @Test
    void descriptionAndSafetyComeFromTheAnnotation() {
        Tool weather = tool(WEATHER_SHAPE, "weather");

        assertThat(weather.definition().description()).isEqualTo("Current weather");
        assertThat(weather.safety()).isEqualTo(ToolSafety.of(SideEffect.READ, true));
        assertThat(tool(WEATHER_SHAPE, "sum_all").safety()).isEqualTo(ToolSafety.UNKNOWN);
        assertThat(tool(WEATHER_SHAPE, "remember").timeout()).contains(Duration.ofMillis(1500));
        assertThat(weather.timeout()).isEmpty();
    }

    @Test
    void recordsBecomeNestedObjectsAndEnumsBecomeStringEnumsByName() {
        Schema expected = Schema.object()
                .required("location", Schema.object()
                        .required("city", Schema.string().withDescription("City name"))
                        .optional("country", Schema.string())
                        .required("lat", Schema.number())
                        .build().withDescription("Where"))
                .optional("unit", Schema.enumOf("CELSIUS", "FAHRENHEIT").withDescription("Unit"))
                .build();

        assertThat(tool(WEATHER_SHAPE, "weather").definition().parameters()).isEqualTo(expected);
    }

    /** An {@code int}: an integer within its range, so that a constrained answer fits it. */
    private static final Schema JAVA_INT = Schema.fromJsonSchema(
            Map.of("type", "integer", "minimum", Integer.MIN_VALUE, "maximum", Integer.MAX_VALUE));

    @Test
    void listsArraysAndOptionalsBecomeArraysAndOptionalProperties() {
        Schema expected = Schema.object()
                .required("values", Schema.arrayOf(JAVA_INT))
                .required("more", Schema.arrayOf(JAVA_INT))
                .optional("offset", Schema.integer())
                .build();

        assertThat(tool(WEATHER_SHAPE, "sum_all").definition().parameters()).isEqualTo(expected);
    }

    @Test
    void primitivesBoxesAndSetsHaveTheirJsonTypes() {
        Schema expected = Schema.object()
                .required("flag", Schema.bool())
                .required("letter", Schema.string().withMaxLength(1))
                .required("amount", Schema.number())
                .required("tags", Schema.arrayOf(Schema.string()))
                .build();

        assertThat(tool(WEATHER_SHAPE, "remember").definition().parameters()).isEqualTo(expected);
    }

    @Test
    void paramNameOverridesTheJavaNameAndTheContextParameterIsNotPartOfTheSchema() {
        Schema expected = Schema.object().required("text", Schema.string()).build();

        assertThat(tool(WEATHER_SHAPE, "echo").definition().parameters()).isEqualTo(expected);
    }

    @Test
    void argumentsAreConvertedToRecordsAndEnumsAndTheResultIsJson() throws Exception {
        Weather weather = new Weather();
        Map<String, Object> location = new LinkedHashMap<>();
        location.put("city", "Oslo");
        location.put("lat", 59.9);

        String output = tool(weather, "weather").execute(CallContext.background(),
                Map.of("location", location, "unit", "FAHRENHEIT"));

        assertThat(weather.received).containsExactly(new Location("Oslo", Optional.empty(), 59.9), Unit.FAHRENHEIT);
        assertThat(output).contains("\"city\":\"Oslo\"").contains("\"temperature\":21")
                .contains("\"unit\":\"FAHRENHEIT\"");
    }

    @Test
    void anAbsentOptionalArgumentArrivesAsNullOrEmpty() throws Exception {
        Weather weather = new Weather();

        tool(weather, "weather").execute(CallContext.background(), Map.of("location", Map.of("city", "Rome",
                "lat", 41.9, "country", "IT")));
        String sum = tool(weather, "sum_all").execute(CallContext.background(),
                Map.of("values", List.of(1, 2), "more", List.of(3)));

        assertThat(weather.received).containsExactly(new Location("Rome", Optional.of("IT"), 41.9), null);
        assertThat(sum).isEqualTo("6");
    }

    @Test
    void listsArraysAndOptionalsAreConverted() throws Exception {
        String sum = tool(WEATHER_SHAPE, "sum_all").execute(CallContext.background(),
                Map.of("values", List.of(1, 2), "more", List.of(3, 4), "offset", 100));

        assertThat(sum).isEqualTo("110");
    }

    @Test
    void aStringResultIsReturnedAsIsAndTheContextIsInjected() throws Exception {
        Weather weather = new Weather();
        CallContext ctx = CallContext.background();

        String output = tool(weather, "echo").execute(ctx, Map.of("text", "{not json"));

        assertThat(output).isEqualTo("{not json");
        assertThat(weather.received).containsExactly(ctx);
    }

    @Test
    void aVoidMethodReportsSuccessAndScalarsAreConverted() throws Exception {
        Weather weather = new Weather();

        String output = tool(weather, "remember").execute(CallContext.background(),
                Map.of("flag", true, "letter", "x", "amount", 12.5, "tags", List.of("a", "b", "a")));

        assertThat(output).isEqualTo("Success");
        assertThat(weather.received).containsExactly(List.of(true, 'x', new BigDecimal("12.5"), Set.of("a", "b")));
    }

    @Test
    void aMissingRequiredArgumentNeverReachesTheMethod() {
        Weather weather = new Weather();

        var failure = assertFailsWith(ErrorCode.TOOL_INVALID_ARGUMENTS,
                () -> tool(weather, "weather").execute(CallContext.background(), Map.of("unit", "CELSIUS")));

        assertThat(failure.getMessage()).contains("missing required argument 'location'");
        assertThat(weather.received).isEmpty();
    }

    @Test
    void aTypeMismatchNeverReachesTheMethodAndNamesThePath() {
        Weather weather = new Weather();

        var failure = assertFailsWith(ErrorCode.TOOL_INVALID_ARGUMENTS,
                () -> tool(weather, "weather").execute(CallContext.background(),
                        Map.of("location", Map.of("city", "Oslo", "lat", "north"), "unit", "KELVIN")));

        assertThat(failure.getMessage()).contains("'location.lat' must be a number, got string \"north\"")
                .contains("'unit' must be one of [CELSIUS, FAHRENHEIT], got \"KELVIN\"");
        assertThat(failure.retryable()).isTrue();
        assertThat(weather.received).isEmpty();
    }

    @Test
    void anUnexpectedArgumentIsRefused() {
        var failure = assertFailsWith(ErrorCode.TOOL_INVALID_ARGUMENTS,
                () -> tool(WEATHER_SHAPE, "echo").execute(CallContext.background(),
                        Map.of("text", "hi", "volume", 11)));

        assertThat(failure.getMessage()).contains("unexpected argument 'volume' (expected: text)");
    }

    @Test
    void aValueThatJacksonCannotConvertIsAnInvalidArgument() {
        var failure = assertFailsWith(ErrorCode.TOOL_INVALID_ARGUMENTS,
                () -> tool(WEATHER_SHAPE, "remember").execute(CallContext.background(),
                        Map.of("flag", true, "letter", "xy", "amount", 1, "tags", List.of())));

        assertThat(failure.getMessage()).contains("'letter'");
    }

    @Test
    void whatTheMethodThrowsIsRethrownUnwrapped() {
        assertThatThrownBy(() -> tool(WEATHER_SHAPE, "fail").execute(CallContext.background(), Map.of()))
                .isInstanceOf(IOException.class).hasMessage("disk on fire");
    }

    @Test
    void anObjectWithoutToolMethodsIsRefused() {
        assertConfigInvalid(() -> AnnotatedTools.from(new Object()));
    }

    static final class MapTool {
        final List<Object> received = new ArrayList<>();

        @dev.pagantic.tool.annotation.Tool("Stores anything")
        String store(Map<String, Object> anything) {
            received.add(anything);
            return "";
        }
    }

    static final class RecursiveTool {
        @dev.pagantic.tool.annotation.Tool("tree")
        String tree(Node root, Node other) {
            return root.name() + root.children().size() + other.name();
        }
    }

    static final class RawListTool {
        final List<Object> received = new ArrayList<>();

        @dev.pagantic.tool.annotation.Tool("raw")
        @SuppressWarnings("rawtypes")
        String raw(List items) {
            received.add(items);
            return "";
        }
    }

    record Named(@Param(name = "other") String value) {
    }

    static final class NamedComponentTool {
        @dev.pagantic.tool.annotation.Tool("named")
        String named(Named named) {
            return named.value();
        }
    }

    @Test
    void aRawListIsAListOfAnyJsonValues() throws Exception {
        RawListTool target = new RawListTool();
        Tool raw = AnnotatedTools.from(target).get(0);

        raw.execute(CallContext.background(), Map.of("items", List.of("a", 1, Map.of("b", true))));

        assertThat(raw.definition().parameters())
                .isEqualTo(Schema.object().required("items", Schema.arrayOf(Schema.fromJsonSchema(Map.of()))).build());
        assertThat(target.received).containsExactly(List.of("a", 1, Map.of("b", true)));
    }

    @Test
    void aMapWithStringKeysIsAFreeFormObject() throws Exception {
        MapTool target = new MapTool();
        Tool store = AnnotatedTools.from(target).get(0);

        store.execute(CallContext.background(), Map.of("anything", Map.of("k", List.of(1, 2))));

        assertThat(target.received).containsExactly(Map.of("k", List.of(1, 2)));
    }

    @Test
    void aRecursiveRecordIsDefinedOnceForAllParametersAndConverted() throws Exception {
        Tool tree = AnnotatedTools.from(new RecursiveTool()).get(0);

        String output = tree.execute(CallContext.background(), Map.of(
                "root", Map.of("name", "a", "children", List.of(Map.of("name", "b", "children", List.of()))),
                "other", Map.of("name", "c", "children", List.of())));

        assertThat(tree.definition().parameters().toJsonSchema()).containsKey("$defs");
        assertThat(output).isEqualTo("a1c");
    }

    @Test
    void paramNameOnARecordComponentIsRefusedAtRegistration() {
        assertThat(assertConfigInvalid(() -> AnnotatedTools.from(new NamedComponentTool())).getMessage())
                .contains("@Param(name) is not supported on record components");
    }

    static final class BadName {
        @dev.pagantic.tool.annotation.Tool(name = "has space", value = "x")
        String bad() {
            return "";
        }
    }

    @Test
    void anInvalidToolNameIsRefusedAtRegistration() {
        assertConfigInvalid(() -> AnnotatedTools.from(new BadName()));
    }

    static class Base {
        @dev.pagantic.tool.annotation.Tool("base version")
        String greet() {
            return "base";
        }

        @dev.pagantic.tool.annotation.Tool("inherited")
        String inherited() {
            return "inherited";
        }
    }

    static final class Derived extends Base {
        @Override
        @dev.pagantic.tool.annotation.Tool("derived version")
        String greet() {
            return "derived";
        }
    }

    @Test
    void inheritedToolsAreFoundAndAnOverrideHidesTheMethodItOverrides() throws Exception {
        List<Tool> tools = AnnotatedTools.from(new Derived());

        assertThat(tools).extracting(Tool::name).containsExactly("greet", "inherited");
        assertThat(tools.get(0).definition().description()).isEqualTo("derived version");
        assertThat(tools.get(0).execute(CallContext.background(), Map.of())).isEqualTo("derived");
    }
}
