package dev.pagantic.core;

import static dev.pagantic.core.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ToolTypesTest {

    private static final Schema CITY = Schema.object().required("city", Schema.string()).build();

    @Nested
    class ToolCalls {

        @Test
        void argumentsAreDeepCopied() {
            List<Object> tags = new ArrayList<>(List.of("a", "b"));
            Map<String, Object> filter = new LinkedHashMap<>();
            filter.put("tags", tags);
            Map<String, Object> arguments = new LinkedHashMap<>();
            arguments.put("city", "Paris");
            arguments.put("filter", filter);

            ToolCall call = ToolCall.of("call_1", "search", arguments);
            arguments.put("city", "Lyon");
            arguments.put("extra", true);
            filter.put("limit", 3);
            tags.add("c");

            assertThat(call.arguments()).containsOnlyKeys("city", "filter").containsEntry("city", "Paris");
            assertThat(call.arguments().get("filter")).isEqualTo(Map.of("tags", List.of("a", "b")));
        }

        @Test
        void nestedMapsAndListsAreUnmodifiable() {
            Map<String, Object> filter = new HashMap<>(Map.of("tags", new ArrayList<>(List.of("a"))));
            ToolCall call = ToolCall.of("call_1", "search", Map.of("filter", filter));

            @SuppressWarnings("unchecked")
            Map<String, Object> nested = (Map<String, Object>) call.arguments().get("filter");
            @SuppressWarnings("unchecked")
            List<Object> nestedList = (List<Object>) nested.get("tags");

            assertThatThrownBy(() -> call.arguments().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> nested.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> nestedList.add("b")).isInstanceOf(UnsupportedOperationException.class);
        }

        @Test
        void argumentKeyOrderIsPreserved() {
            Map<String, Object> arguments = new LinkedHashMap<>();
            arguments.put("zeta", 1);
            arguments.put("alpha", 2);
            arguments.put("mid", 3);

            ToolCall call = ToolCall.of("call_1", "f", arguments);

            assertThat(call.arguments().keySet()).containsExactly("zeta", "alpha", "mid");
        }

        @Test
        void jsonNullArgumentValuesAreKept() {
            Map<String, Object> arguments = new LinkedHashMap<>();
            arguments.put("unit", null);
            arguments.put("list", new ArrayList<>(java.util.Arrays.asList("x", null)));

            ToolCall call = ToolCall.of("call_1", "f", arguments);

            assertThat(call.arguments()).containsEntry("unit", null);
            assertThat(call.arguments().get("list")).isEqualTo(java.util.Arrays.asList("x", null));
        }

        @Test
        void jsonScalarsAreAccepted() {
            ToolCall call = ToolCall.of("call_1", "f", Map.of("s", "x", "i", 1, "l", 2L, "d", 1.5, "b", false,
                    "big", new BigDecimal("1.25")));

            assertThat(call.arguments()).hasSize(6).containsEntry("big", new BigDecimal("1.25"));
        }

        @Test
        void callsWithEqualArgumentsAreEqualWhateverTheCallersMapType() {
            Map<String, Object> hashed = new HashMap<>(Map.of("a", 1));

            assertThat(ToolCall.of("c", "f", hashed)).isEqualTo(ToolCall.of("c", "f", Map.of("a", 1)));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " "})
        void blankIdIsRejected(String id) {
            assertConfigInvalid(() -> ToolCall.of(id, "f", Map.of()));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " "})
        void blankNameIsRejected(String name) {
            assertConfigInvalid(() -> ToolCall.of("call_1", name, Map.of()));
        }

        @Test
        void valuesThatAreNotJsonAreRejected() {
            PaganticException failure = assertConfigInvalid(
                    () -> ToolCall.of("call_1", "f", Map.of("when", new Object())));

            assertThat(failure.details()).containsEntry("tool", "f");
        }

        @Test
        void nestedNonStringKeysAreRejected() {
            assertConfigInvalid(() -> ToolCall.of("call_1", "f", Map.of("nested", Map.of(1, "one"))));
        }

        @Test
        void nullArgumentsAreRefused() {
            assertThatThrownBy(() -> ToolCall.of("call_1", "f", null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    class ToolDefinitions {

        @Test
        void definitionKeepsNameDescriptionAndObjectSchema() {
            ToolDefinition tool = ToolDefinition.of("get_weather", "Current weather for a city", CITY);

            assertThat(tool.name()).isEqualTo("get_weather");
            assertThat(tool.description()).isEqualTo("Current weather for a city");
            assertThat(tool.parameters()).isEqualTo(CITY);
        }

        @ParameterizedTest
        @ValueSource(strings = {"a", "get-weather_2", "A_B"})
        void namesOfLettersDigitsUnderscoresAndHyphensAreAccepted(String name) {
            assertThat(ToolDefinition.of(name, "", CITY).name()).isEqualTo(name);
        }

        @Test
        void nameOfSixtyFourCharactersIsAcceptedAndSixtyFiveIsNot() {
            assertThat(ToolDefinition.of("x".repeat(64), "", CITY).name()).hasSize(64);
            assertConfigInvalid(() -> ToolDefinition.of("x".repeat(65), "", CITY));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "get weather", "get.weather", "wetter/heute", "é"})
        void invalidNamesAreRejected(String name) {
            PaganticException failure = assertConfigInvalid(() -> ToolDefinition.of(name, "", CITY));

            assertThat(failure.details()).containsEntry("tool", name);
        }

        @Test
        void nullNameIsRejected() {
            assertConfigInvalid(() -> ToolDefinition.of(null, "", CITY));
        }

        @Test
        void parametersWithoutATypeOrAllowingObjectsAreAccepted() {
            assertThat(ToolDefinition.of("ping", "", Schema.any()).parameters()).isEqualTo(Schema.any());
            assertThat(ToolDefinition.of("f", "", Schema.fromJsonSchema(Map.of("type", List.of("object", "null"))))
                    .name()).isEqualTo("f");
        }

        @Test
        void parametersMustBeAnObjectSchema() {
            PaganticException failure = assertConfigInvalid(
                    () -> ToolDefinition.of("f", "", Schema.arrayOf(Schema.string())));

            assertThat(failure.details()).containsEntry("tool", "f");
            assertThat(failure.description()).contains("array");
        }
    }

    @Nested
    class ToolResults {

        @Test
        void successResultIsNotAnError() {
            ToolResult result = ToolResult.success("call_1", "get_weather", "18 C");

            assertThat(result.callId()).isEqualTo("call_1");
            assertThat(result.name()).isEqualTo("get_weather");
            assertThat(result.content()).isEqualTo("18 C");
            assertThat(result.isError()).isFalse();
        }

        @Test
        void errorResultCarriesTheErrorText() {
            ToolResult result = ToolResult.error("call_1", "get_weather", "city not found");

            assertThat(result.isError()).isTrue();
            assertThat(result.content()).isEqualTo("city not found");
        }

        @Test
        void resultBecomesAToolMessageAnsweringItsCall() {
            Message message = ToolResult.success("call_1", "get_weather", "18 C").toMessage();

            assertThat(message).isEqualTo(Message.toolResult("call_1", "get_weather", "18 C"));
        }

        @Test
        void failedResultIsStillFedBackToTheModel() {
            Message message = ToolResult.error("call_1", "get_weather", "city not found").toMessage();

            assertThat(message.role()).isEqualTo(Role.TOOL);
            assertThat(message.content()).isEqualTo("city not found");
        }

        @Test
        void blankCallIdOrNameIsRejected() {
            assertConfigInvalid(() -> ToolResult.success(" ", "get_weather", "x"));
            assertConfigInvalid(() -> ToolResult.success("call_1", "", "x"));
        }

        @Test
        void nullContentIsRefused() {
            assertThatThrownBy(() -> ToolResult.success("call_1", "f", null))
                    .isInstanceOf(NullPointerException.class);
        }

        @Test
        void aFailedResultNamesTheErrorCodeItsTextStartsWith() {
            assertThat(ToolResult.error("call_1", "f", "TOOL_TIMEOUT: f ran past 2s").errorCode())
                    .contains(ErrorCode.TOOL_TIMEOUT);
            assertThat(ToolResult.error("call_1", "f", "the disk is full").errorCode())
                    .contains(ErrorCode.TOOL_EXECUTION_FAILED);
            assertThat(ToolResult.error("call_1", "f", "NOT_A_CODE: x").errorCode())
                    .contains(ErrorCode.TOOL_EXECUTION_FAILED);
            assertThat(ToolResult.success("call_1", "f", "TOOL_TIMEOUT: looks like one").errorCode()).isEmpty();
        }
    }
}
