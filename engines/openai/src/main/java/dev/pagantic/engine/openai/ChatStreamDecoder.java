package dev.pagantic.engine.openai;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * Assembles a streamed answer from its {@code chat.completion.chunk}s: content and reasoning deltas go to the handler
 * as they arrive; tool call deltas are accumulated by their {@code index} (id and name from the first, argument
 * fragments appended) and delivered, complete, when the stream ends; the usage chunk that
 * {@code stream_options.include_usage} asks for is kept. The result is exactly what was delivered.
 */
final class ChatStreamDecoder {

    private final ChatResponseDecoder decoder;
    private final Delivery delivery;
    private final Request request;
    private final CallContext context;
    private final StringBuilder content = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final Map<Integer, PartialCall> calls = new TreeMap<>();
    private String finishReason = "";
    private boolean done;
    private JsonNode usage = MissingNode.getInstance();
    private JsonNode timings = MissingNode.getInstance();

    ChatStreamDecoder(ChatResponseDecoder decoder, Delivery delivery, Request request, CallContext context) {
        this.decoder = decoder;
        this.delivery = delivery;
        this.request = request;
        this.context = context;
    }

    /** Takes one chunk: delivers its deltas, accumulates its tool call fragments, keeps its usage. */
    void accept(JsonNode chunk) {
        decoder.rejectInBandError(chunk);
        if (chunk.path("usage").isObject()) {
            usage = chunk.path("usage");
        }
        if (chunk.path("timings").isObject()) {
            timings = chunk.path("timings");
        }
        JsonNode choice = decoder.firstChoice(chunk);
        if (choice == null) {
            return; // the usage chunk has no choices
        }
        JsonNode delta = choice.path("delta");
        if (delta.isObject()) {
            String reasoningDelta = ChatResponseDecoder.reasoning(delta);
            if (!reasoningDelta.isEmpty()) {
                reasoning.append(reasoningDelta);
                delivery.reasoning(reasoningDelta);
            }
            String contentDelta = decoder.text(delta.path("content"), "delta content");
            if (!contentDelta.isEmpty()) {
                content.append(contentDelta);
                delivery.content(contentDelta);
            }
            JsonNode toolCalls = delta.path("tool_calls");
            if (toolCalls.isArray()) {
                for (JsonNode fragment : toolCalls) {
                    merge(fragment);
                }
            }
        }
        String finish = choice.path("finish_reason").asString("");
        if (!finish.isEmpty() && !finish.equals("null")) {
            finishReason = finish;
        }
    }

    /** The server sent {@code [DONE]}. */
    void done() {
        done = true;
    }

    /** Whether the server ended the answer (with {@code [DONE]} or a finish reason), rather than the connection. */
    boolean complete() {
        return done || !finishReason.isEmpty();
    }

    /** Completes the tool calls, delivers them, and builds the result. */
    Result finish(Duration elapsed) {
        List<ToolCall> toolCalls = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int position = 0;
        for (PartialCall call : calls.values()) {
            String name = decoder.requireName(call.name.toString(), position);
            Map<String, Object> arguments = call.argumentsObject != null ? decoder.arguments(call.argumentsObject, name)
                    : decoder.arguments(call.arguments.toString(), name);
            toolCalls.add(decoder.toolCall(call.id, name, arguments, ids, context, position++));
        }
        toolCalls.forEach(delivery::toolCall);
        String text = content.toString();
        String thought = reasoning.toString();
        return Result.builder().content(text).reasoning(thought).toolCalls(toolCalls)
                .usage(decoder.usage(usage, timings, request, text, thought, toolCalls, elapsed))
                .finishReason(ChatResponseDecoder.finishReason(finishReason, !toolCalls.isEmpty())).build();
    }

    private void merge(JsonNode fragment) {
        String id = fragment.path("id").asString("");
        JsonNode indexNode = fragment.path("index");
        int index;
        if (indexNode.isNumber() && indexNode.canConvertToInt()) {
            index = indexNode.intValue();
        } else {
            // No index (a few servers): a known id continues its call, anything else starts the next one.
            index = indexOfId(id);
        }
        PartialCall call = calls.computeIfAbsent(index, ignored -> new PartialCall());
        if (call.id.isEmpty() && !id.isEmpty()) {
            call.id = id;
        }
        JsonNode function = fragment.path("function");
        String name = function.path("name").asString("");
        // The name normally comes whole in the first fragment; a server that repeats it must not double it.
        if (!name.isEmpty() && !name.contentEquals(call.name)) {
            call.name.append(name);
        }
        JsonNode arguments = function.path("arguments");
        if (arguments.isString()) {
            call.arguments.append(arguments.stringValue());
        } else if (arguments.isObject()) {
            call.argumentsObject = arguments;
        }
    }

    private int indexOfId(String id) {
        int last = -1;
        for (Map.Entry<Integer, PartialCall> entry : calls.entrySet()) {
            if (!id.isEmpty() && entry.getValue().id.equals(id)) {
                return entry.getKey();
            }
            last = entry.getKey();
        }
        return id.isEmpty() && last >= 0 ? last : last + 1;
    }

    /** A tool call being assembled from fragments. */
    private static final class PartialCall {
        private String id = "";
        private final StringBuilder name = new StringBuilder();
        private final StringBuilder arguments = new StringBuilder();
        private @Nullable JsonNode argumentsObject;
    }
}
