package dev.pagantic.adapter.api;

import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps a {@link SystemResponse} back onto OpenAI's chat completion documents: the whole completion, the chunks of a
 * streamed one, and the error object. The one place that knows OpenAI's response vocabulary.
 *
 * <ul>
 *   <li>{@code id} is {@code chatcmpl-<request id>}, {@code model} the model the client named (or the served one),
 *       {@code created} the Unix second the request arrived.</li>
 *   <li>The message's {@code content} is the model's text, or in structured mode the validated structured output as
 *       JSON text; it is null when the model only called tools.</li>
 *   <li>{@code tool_calls} are the caller tools the model called ({@link SystemResponse#toolCallsRequested()}), with
 *       their arguments as a JSON string and {@code finish_reason} {@code tool_calls}. Tools the server ran are not
 *       shown: to the client they are part of how the answer was made.</li>
 *   <li>{@code usage}: {@code prompt_tokens}, {@code completion_tokens} (output and reasoning), {@code total_tokens},
 *       summed over every inference of the request.</li>
 * </ul>
 */
final class ChatCompletionResponseMapper {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Where the fields of every document of one request come from. */
    record Envelope(String id, long created, String model) {
    }

    /** The envelope of a request: its id, the second it arrived, and the model to echo. */
    static Envelope envelope(String requestId, long created, String model) {
        return new Envelope("chatcmpl-" + requestId, created, model);
    }

    /** The complete {@code chat.completion} document of a successful response. */
    String completion(Envelope envelope, SystemResponse response, boolean structured) {
        ObjectNode root = header(envelope, "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        String content = content(response, structured);
        if (content.isEmpty() && response.hasToolCallsRequested()) {
            message.putNull("content");
        } else {
            message.put("content", content);
        }
        if (response.hasToolCallsRequested()) {
            message.set("tool_calls", toolCalls(response.toolCallsRequested(), false));
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", response.finishReason().wireName());
        root.set("usage", usage(response.tokenUsage()));
        return JSON.writeValueAsString(root);
    }

    /** The first chunk of a stream: the assistant role with empty content. */
    String roleChunk(Envelope envelope) {
        ObjectNode delta = JSON.createObjectNode().put("role", "assistant").put("content", "");
        return chunk(envelope, delta, null);
    }

    /** A chunk carrying a piece of content. */
    String contentChunk(Envelope envelope, String text) {
        return chunk(envelope, JSON.createObjectNode().put("content", text), null);
    }

    /** A chunk carrying the caller tool calls of the response (each with its index, as OpenAI streams them). */
    String toolCallsChunk(Envelope envelope, List<ToolCall> calls) {
        ObjectNode delta = JSON.createObjectNode();
        delta.set("tool_calls", toolCalls(calls, true));
        return chunk(envelope, delta, null);
    }

    /** The last chunk of the choice: an empty delta and the finish reason. */
    String finishChunk(Envelope envelope, SystemResponse response) {
        return chunk(envelope, JSON.createObjectNode(), response.finishReason().wireName());
    }

    /** The usage chunk that {@code stream_options.include_usage} asks for: no choices, the request's usage. */
    String usageChunk(Envelope envelope, TokenUsage usage) {
        ObjectNode root = header(envelope, "chat.completion.chunk");
        root.putArray("choices");
        root.set("usage", usage(usage));
        return JSON.writeValueAsString(root);
    }

    /** The text a client gets as content: the structured output as JSON in structured mode, else the model's text. */
    String content(SystemResponse response, boolean structured) {
        if (structured && response.structuredOutput().isPresent()) {
            return JSON.writeValueAsString(response.structuredOutput().get());
        }
        return response.content();
    }

    /** OpenAI's error document for a failed response. */
    static String error(SystemError error) {
        return error(HttpStatuses.of(error.code()), error.code().name(), error.message());
    }

    /** OpenAI's error document: {@code {"error": {"message", "type", "param", "code"}}}. */
    static String error(int status, String code, String message) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("error").put("message", message).put("type", HttpStatuses.openAiType(status))
                .putNull("param").put("code", code);
        return JSON.writeValueAsString(root);
    }

    // ------------------------------------------------------------------------------------------------------- parts

    private static String chunk(Envelope envelope, ObjectNode delta, String finishReason) {
        ObjectNode root = header(envelope, "chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return JSON.writeValueAsString(root);
    }

    private static ObjectNode header(Envelope envelope, String object) {
        return JSON.createObjectNode().put("id", envelope.id()).put("object", object)
                .put("created", envelope.created()).put("model", envelope.model());
    }

    private static ArrayNode toolCalls(List<ToolCall> calls, boolean indexed) {
        ArrayNode array = JSON.createArrayNode();
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            ObjectNode node = array.addObject();
            if (indexed) {
                node.put("index", i);
            }
            node.put("id", call.id()).put("type", "function").putObject("function").put("name", call.name())
                    .put("arguments", JSON.writeValueAsString(call.arguments()));
        }
        return array;
    }

    private static ObjectNode usage(TokenUsage usage) {
        int completion = usage.outputTokens() + usage.reasoningTokens();
        ObjectNode node = JSON.createObjectNode().put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", completion).put("total_tokens", usage.promptTokens() + completion);
        node.putObject("completion_tokens_details").put("reasoning_tokens", usage.reasoningTokens());
        return node;
    }
}
