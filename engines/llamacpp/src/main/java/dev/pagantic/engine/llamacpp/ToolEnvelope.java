package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tool-call envelope a tool-calling request constrains the output to ({@link GbnfGrammar#forToolCalls}):
 * {@code {"tool_calls":[{"name":...,"arguments":{...}}]}}, the shape llama.cpp's generic tool-call template also
 * describes to the model. A plain-text answer never starts with {@code {}, so the first character tells which it is.
 */
final class ToolEnvelope {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private ToolEnvelope() {
    }

    /** Whether the output is (the start of) an envelope rather than a text answer. */
    static boolean isEnvelope(String output) {
        return output.startsWith("{");
    }

    /**
     * The calls of a complete envelope, each with a new id.
     *
     * @throws PaganticException {@code INFERENCE_MALFORMED_RESPONSE} when the output is no envelope: not JSON (or nested
     *                           deeper than Jackson's default limit of 500 levels), no non-empty {@code tool_calls}
     *                           list, or a call without a string name
     */
    static List<ToolCall> parse(String output, CallContext ctx) {
        try {
            JsonNode calls = JSON.readTree(output).path(GbnfGrammar.toolCallsKey());
            if (!calls.isArray() || calls.isEmpty()) {
                throw malformed(output, "no " + GbnfGrammar.toolCallsKey() + " list");
            }
            List<ToolCall> parsed = new ArrayList<>();
            for (JsonNode call : calls) {
                // The grammar guarantees a string name, but the output is checked rather than trusted: without this
                // check a nameless call escaped as ToolCall's CONFIG_INVALID (ToolEnvelopeFuzzTest's seed
                // call-without-name).
                JsonNode name = call.path("name");
                if (!name.isString() || name.asString().isBlank()) {
                    throw malformed(output, "a tool call without a name");
                }
                Map<String, Object> arguments = call.path("arguments").isObject()
                        ? JSON.convertValue(call.path("arguments"), OBJECT) : new LinkedHashMap<>();
                parsed.add(ToolCall.of("call_" + ctx.newId(), name.asString(), arguments));
            }
            return parsed;
        } catch (JacksonException notJson) {
            throw malformed(output, notJson.getOriginalMessage());
        }
    }

    private static PaganticException malformed(String output, String why) {
        return PaganticException.builder(ErrorCode.INFERENCE_MALFORMED_RESPONSE,
                "the model's tool-call envelope cannot be read: " + why).detail("output", output).build();
    }
}
