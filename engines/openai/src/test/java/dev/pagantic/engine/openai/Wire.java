package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.StubServer.JSON;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The OpenAI wire documents the stub server answers with, written with Jackson so that escaping is right. */
final class Wire {

    private Wire() {
    }

    /** {@code {"error": {"message", "type", "code"}}}. */
    static String error(String message) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("error").put("message", message).put("type", "invalid_request_error").putNull("code");
        return root.toString();
    }

    /** A whole {@code chat.completion} with text content. */
    static String completion(String content, String finishReason, int promptTokens, int completionTokens) {
        ObjectNode root = envelope("chat.completion");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", content);
        choice.put("finish_reason", finishReason);
        usage(root, promptTokens, completionTokens);
        return root.toString();
    }

    /** A chunk with a content delta. */
    static String contentChunk(String delta) {
        ObjectNode root = envelope("chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.putObject("delta").put("content", delta);
        choice.putNull("finish_reason");
        return root.toString();
    }

    /** A chunk with a reasoning delta, as llama-server and vLLM send it. */
    static String reasoningChunk(String delta) {
        ObjectNode root = envelope("chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.putObject("delta").put("reasoning_content", delta);
        choice.putNull("finish_reason");
        return root.toString();
    }

    /** A chunk with one tool call fragment; null id or name are left out, as in the fragments after the first. */
    static String toolCallChunk(int index, String id, String name, String arguments) {
        ObjectNode root = envelope("chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ArrayNode calls = choice.putObject("delta").putArray("tool_calls");
        ObjectNode call = calls.addObject().put("index", index);
        if (id != null) {
            call.put("id", id).put("type", "function");
        }
        ObjectNode function = call.putObject("function");
        if (name != null) {
            function.put("name", name);
        }
        function.put("arguments", arguments);
        choice.putNull("finish_reason");
        return root.toString();
    }

    /** The chunk that ends the choice. */
    static String finishChunk(String finishReason) {
        ObjectNode root = envelope("chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.putObject("delta");
        choice.put("finish_reason", finishReason);
        return root.toString();
    }

    /** The usage chunk of {@code stream_options.include_usage}: no choices. */
    static String usageChunk(int promptTokens, int completionTokens) {
        ObjectNode root = envelope("chat.completion.chunk");
        root.putArray("choices");
        usage(root, promptTokens, completionTokens);
        return root.toString();
    }

    private static ObjectNode envelope(String object) {
        return JSON.createObjectNode().put("id", "chatcmpl-stub").put("object", object).put("created", 1_700_000_000)
                .put("model", "stub-model");
    }

    private static void usage(ObjectNode root, int promptTokens, int completionTokens) {
        root.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
    }
}
