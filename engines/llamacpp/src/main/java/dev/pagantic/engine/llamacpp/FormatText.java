package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the tool-call formats share when they read a model's output: JSON values found inside text, arguments as a
 * map, a {@code <think>} block before the answer, the text before a call, and the one failure of them all,
 * {@code INFERENCE_MALFORMED_RESPONSE} with the output in its details.
 */
final class FormatText {

    /** Reads one JSON value and stops there: a call is followed by the format's markup, not by the end. */
    static final JsonMapper JSON = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private FormatText() {
    }

    /** A JSON value read from text, and the index just after it. */
    record JsonAt(JsonNode value, int end) {
    }

    /**
     * The JSON value that starts at {@code from} (after whitespace).
     *
     * @throws PaganticException {@code INFERENCE_MALFORMED_RESPONSE} when there is none, or it is nested deeper than
     *                           Jackson's limit (500)
     */
    static JsonAt json(String output, String text, int from, String what) {
        try (JsonParser parser = JSON.createParser(text.substring(from))) {
            JsonNode value = JSON.readTree(parser);
            if (value == null || value.isMissingNode()) {
                throw malformed(output, "no " + what);
            }
            return new JsonAt(value, from + (int) parser.currentLocation().getCharOffset());
        } catch (JacksonException notJson) {
            throw malformed(output, what + " is not JSON: " + notJson.getOriginalMessage());
        }
    }

    /** A call, with the id the model gave it or, when it gave none, a new one. */
    static ToolCall call(String output, JsonNode name, JsonNode arguments, String id, CallContext ctx) {
        if (!name.isString() || name.asString().isBlank()) {
            throw malformed(output, "a tool call without a name");
        }
        return ToolCall.of(id.isBlank() ? "call_" + ctx.newId() : id, name.asString(), arguments(output, arguments));
    }

    /**
     * The calls of a JSON array of call objects, with the keys the format uses for the name, the arguments and the
     * id ({@code ""}: the format has none, a new id is made).
     */
    static List<ToolCall> calls(String output, JsonNode array, String nameKey, String argumentsKey, String idKey,
                                CallContext ctx) {
        if (!array.isArray() || array.isEmpty()) {
            throw malformed(output, "no list of tool calls");
        }
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode call : array) {
            String id = idKey.isEmpty() || !call.path(idKey).isString() ? "" : call.path(idKey).asString();
            calls.add(call(output, call.path(nameKey), call.path(argumentsKey), id, ctx));
        }
        return calls;
    }

    /**
     * A reply of text up to {@code at}, where the format's opening is, and a JSON array of calls from {@code list}
     * to the end of the output (whitespace aside).
     */
    static ToolReply textThenCallArray(String output, int at, int list, String idKey, CallContext ctx) {
        JsonAt calls = json(output, output, list, "list of tool calls");
        if (skipSpace(output, calls.end()) < output.length()) {
            throw malformed(output, "text after the tool calls");
        }
        return new ToolReply(output.substring(0, at), "",
                calls(output, calls.value(), "name", "arguments", idKey, ctx));
    }

    /** Arguments as a map: an object, or a string holding one (as some models write them). */
    static Map<String, Object> arguments(String output, JsonNode arguments) {
        JsonNode value = arguments;
        if (value.isString()) {
            value = json(output, value.asString(), 0, "the arguments string").value();
        }
        if (!value.isObject()) {
            throw malformed(output, "tool call arguments that are not a JSON object");
        }
        return JSON.convertValue(value, OBJECT);
    }

    /** The index of the first character from {@code from} that is not whitespace (or the text's length). */
    static int skipSpace(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The index of the first of the markers in the text from {@code from}, or -1. */
    static int indexOfAny(String text, List<String> markers, int from) {
        int first = -1;
        for (String marker : markers) {
            int at = text.indexOf(marker, from);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }

    /**
     * The text up to the first marker, without an end that may be the start of one (a marker being written): what
     * of a streamed output is certainly text.
     */
    static String beforeMarkers(String text, List<String> markers) {
        int at = indexOfAny(text, markers, 0);
        if (at >= 0) {
            return text.substring(0, at);
        }
        for (int start = Math.max(0, text.length() - longest(markers) + 1); start < text.length(); start++) {
            String tail = text.substring(start);
            if (markers.stream().anyMatch(marker -> marker.startsWith(tail))) {
                return text.substring(0, start);
            }
        }
        return text;
    }

    private static int longest(List<String> markers) {
        return markers.stream().mapToInt(String::length).max().orElse(0);
    }

    /** An output split at a reasoning block that opens it ({@code <think>...</think>}). */
    record Thought(String reasoning, String rest) {
    }

    /**
     * The reasoning block that opens the output, as DeepSeek R1, QwQ and Qwen 3 write it: {@code open} (optional, as
     * the prompt may have opened it), text, {@code close}. Without {@code close}, no reasoning.
     */
    static Thought thought(String output, String open, String close) {
        int end = output.indexOf(close);
        if (end < 0) {
            return new Thought("", output);
        }
        String head = output.substring(0, end);
        String stripped = head.stripLeading();
        if (!stripped.startsWith(open) && head.contains(open)) {
            return new Thought("", output); // the block does not open the output
        }
        String reasoning = stripped.startsWith(open) ? stripped.substring(open.length()) : head;
        return new Thought(reasoning, output.substring(end + close.length()).stripLeading());
    }

    /** For streaming: the reasoning and the text written so far, when the output opens with a reasoning block. */
    static Thought partialThought(String output, String open, String close) {
        if (!output.startsWith(open)) {
            return open.startsWith(output) && !output.isEmpty() ? new Thought("", "") : new Thought("", output);
        }
        int end = output.indexOf(close);
        if (end < 0) {
            return new Thought(beforeMarkers(output.substring(open.length()), List.of(close)), "");
        }
        return new Thought(output.substring(open.length(), end), output.substring(end + close.length()).stripLeading());
    }

    static PaganticException malformed(String output, String why) {
        return PaganticException.builder(ErrorCode.INFERENCE_MALFORMED_RESPONSE,
                "the model's tool call cannot be read: " + why).detail("output", output).build();
    }
}
