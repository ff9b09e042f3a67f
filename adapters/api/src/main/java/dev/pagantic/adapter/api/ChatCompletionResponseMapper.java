package dev.pagantic.adapter.api;

import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Maps {@link SystemResponse}s back onto OpenAI's chat completion documents: the whole completion and the chunks of a
 * streamed one. The one place that knows OpenAI's response vocabulary (errors: {@link OpenAiError}).
 *
 * <ul>
 *   <li>{@code id} is {@code chatcmpl-<request id>}, {@code model} the model the client named (or the served one),
 *       {@code created} the Unix second the request arrived.</li>
 *   <li>One choice per response ({@code n} of them), indexed in order.</li>
 *   <li>The message's {@code content} is the model's text, or in structured mode the validated structured output as
 *       JSON text; it is null when the model only called tools.</li>
 *   <li>{@code tool_calls} are the caller tools the model called ({@link SystemResponse#toolCallsRequested()}), with
 *       their arguments as a JSON string and {@code finish_reason} {@code tool_calls}. Tools the server ran are not
 *       shown: to the client they are part of how the answer was made. Streamed, each call comes as OpenAI streams
 *       it: a first delta with its index, id and name and empty arguments, then its arguments in pieces
 *       ({@value #ARGUMENT_PIECE} characters), which clients concatenate.</li>
 *   <li>{@code usage}: {@code prompt_tokens}, {@code completion_tokens} (output and reasoning), {@code total_tokens},
 *       summed over every inference of the request (every choice).</li>
 * </ul>
 */
final class ChatCompletionResponseMapper {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The length of a streamed piece of tool-call arguments. */
    static final int ARGUMENT_PIECE = 16;

    /** Where the fields of every document of one request come from. */
    record Envelope(String id, long created, String model) {
    }

    /** The envelope of a request: its id, the second it arrived, and the model to echo. */
    static Envelope envelope(String requestId, long created, String model) {
        return new Envelope("chatcmpl-" + requestId, created, model);
    }

    /** The complete {@code chat.completion} document of successful responses, one choice each. */
    String completion(Envelope envelope, List<SystemResponse> responses, boolean structured) {
        ObjectNode root = header(envelope, "chat.completion");
        ArrayNode choices = root.putArray("choices");
        TokenUsage usage = TokenUsage.ZERO;
        for (int index = 0; index < responses.size(); index++) {
            SystemResponse response = responses.get(index);
            ObjectNode choice = choices.addObject().put("index", index);
            ObjectNode message = choice.putObject("message").put("role", "assistant");
            String content = content(response, structured);
            if (content.isEmpty() && response.hasToolCallsRequested()) {
                message.putNull("content");
            } else {
                message.put("content", content);
            }
            if (response.hasToolCallsRequested()) {
                message.set("tool_calls", toolCalls(response.toolCallsRequested()));
            }
            choice.putNull("logprobs");
            choice.put("finish_reason", response.finishReason().wireName());
            usage = usage.plus(response.tokenUsage());
        }
        root.set("usage", usage(usage));
        return JSON.writeValueAsString(root);
    }

    /** The first chunk of a choice: the assistant role with empty content. */
    String roleChunk(Envelope envelope, int index) {
        ObjectNode delta = JSON.createObjectNode().put("role", "assistant").put("content", "");
        return chunk(envelope, index, delta, null);
    }

    /** A chunk carrying a piece of content. */
    String contentChunk(Envelope envelope, int index, String text) {
        return chunk(envelope, index, JSON.createObjectNode().put("content", text), null);
    }

    /**
     * The chunks carrying the caller tool calls of a response, as OpenAI streams them: per call, its index, id, type
     * and name with empty arguments, then the arguments in pieces.
     */
    List<String> toolCallChunks(Envelope envelope, int index, List<ToolCall> calls) {
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            ObjectNode head = JSON.createObjectNode().put("index", i).put("id", call.id()).put("type", "function");
            head.putObject("function").put("name", call.name()).put("arguments", "");
            chunks.add(toolCallChunk(envelope, index, head));
            String arguments = JSON.writeValueAsString(call.arguments());
            for (int start = 0; start < arguments.length(); ) {
                int end = Math.min(arguments.length(), start + ARGUMENT_PIECE);
                if (end < arguments.length() && Character.isHighSurrogate(arguments.charAt(end - 1))) {
                    end++; // never split a surrogate pair
                }
                ObjectNode piece = JSON.createObjectNode().put("index", i);
                piece.putObject("function").put("arguments", arguments.substring(start, end));
                chunks.add(toolCallChunk(envelope, index, piece));
                start = end;
            }
        }
        return chunks;
    }

    /** The last chunk of a choice: an empty delta and the finish reason. */
    String finishChunk(Envelope envelope, int index, SystemResponse response) {
        return chunk(envelope, index, JSON.createObjectNode(), response.finishReason().wireName());
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

    // ------------------------------------------------------------------------------------------------------- parts

    private static String toolCallChunk(Envelope envelope, int index, ObjectNode call) {
        ObjectNode delta = JSON.createObjectNode();
        delta.putArray("tool_calls").add(call);
        return chunk(envelope, index, delta, null);
    }

    private static String chunk(Envelope envelope, int index, ObjectNode delta, @Nullable String finishReason) {
        ObjectNode root = header(envelope, "chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject().put("index", index);
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

    private static ArrayNode toolCalls(List<ToolCall> calls) {
        ArrayNode array = JSON.createArrayNode();
        for (ToolCall call : calls) {
            array.addObject().put("id", call.id()).put("type", "function").putObject("function")
                    .put("name", call.name()).put("arguments", JSON.writeValueAsString(call.arguments()));
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
