package dev.pagantic.engine.openai;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.TokenCounter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads chat completions answers: the whole {@code chat.completion} object, and the pieces that the stream decoder
 * shares with it (tool call arguments, finish reasons, usage).
 *
 * <p>Lenient where servers differ harmlessly (content as text parts, reasoning as {@code reasoning_content} or
 * {@code reasoning}, tool calls without ids, arguments as an object rather than a string, no usage), strict where
 * the answer would be wrong: missing choices, or tool arguments that are not a JSON object, are
 * {@code INFERENCE_MALFORMED_RESPONSE}.
 */
final class ChatResponseDecoder {

    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final JsonMapper json;
    private final HttpFailures failures;
    private final int contextWindow;
    private final TokenCounter estimate = TokenCounter.estimate();

    ChatResponseDecoder(JsonMapper json, HttpFailures failures, int contextWindow) {
        this.json = json;
        this.failures = failures;
        this.contextWindow = contextWindow;
    }

    /** The body as a JSON object, or {@code INFERENCE_MALFORMED_RESPONSE}. */
    JsonNode parseObject(String text, String what) {
        JsonNode root;
        try {
            root = json.readTree(text);
        } catch (JacksonException notJson) {
            throw failures.malformed(what + " is not JSON: " + notJson.getOriginalMessage(), notJson);
        }
        if (root == null || !root.isObject()) {
            throw failures.malformed(what + " is not a JSON object: " + abbreviate(text), null);
        }
        return root;
    }

    /** A whole (non-streamed) answer. */
    Result decode(JsonNode root, Request request, CallContext context, Duration elapsed) {
        rejectInBandError(root);
        JsonNode choice = firstChoice(root);
        if (choice == null) {
            throw failures.malformed("the answer has no choices", null);
        }
        JsonNode message = choice.path("message");
        if (!message.isObject()) {
            throw failures.malformed("the first choice has no message", null);
        }
        String content = text(message.path("content"), "message content");
        String reasoning = reasoning(message);
        List<ToolCall> toolCalls = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        JsonNode calls = message.path("tool_calls");
        if (!calls.isMissingNode() && !calls.isNull()) {
            if (!calls.isArray()) {
                throw failures.malformed("tool_calls is not an array", null);
            }
            int index = 0;
            for (JsonNode call : calls) {
                JsonNode function = call.path("function");
                String name = requireName(function.path("name").asString(""), index);
                toolCalls.add(toolCall(call.path("id").asString(""), name, arguments(function.path("arguments"), name),
                        ids, context, index++));
            }
        }
        FinishReason finish = finishReason(choice.path("finish_reason").asString(""), !toolCalls.isEmpty());
        TokenUsage usage = usage(root.path("usage"), root.path("timings"), request, content, reasoning, toolCalls,
                elapsed);
        return Result.builder().content(content).reasoning(reasoning).toolCalls(toolCalls).usage(usage)
                .finishReason(finish).build();
    }

    /** Fails with the server's error when an answer (or a stream chunk) carries one instead of choices. */
    void rejectInBandError(JsonNode root) {
        JsonNode error = root.path("error");
        if (!error.isMissingNode() && !error.isNull()) {
            throw failures.inBand(error);
        }
    }

    /** The first choice, or null when there is none. */
    @Nullable JsonNode firstChoice(JsonNode root) {
        JsonNode choices = root.path("choices");
        if (choices.isMissingNode() || choices.isNull()) {
            return null;
        }
        if (!choices.isArray()) {
            throw failures.malformed("choices is not an array", null);
        }
        if (choices.isEmpty()) {
            return null;
        }
        JsonNode first = choices.get(0);
        if (!first.isObject()) {
            throw failures.malformed("a choice is not an object", null);
        }
        return first;
    }

    /** Text content: a string, null (none), or OpenAI's array of text parts. */
    String text(JsonNode content, String what) {
        if (content.isMissingNode() || content.isNull()) {
            return "";
        }
        if (content.isString()) {
            return content.stringValue();
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                if (part.path("text").isString()) {
                    text.append(part.path("text").stringValue());
                }
            }
            return text.toString();
        }
        throw failures.malformed(what + " is neither text nor text parts", null);
    }

    /**
     * The reasoning text of a message or delta: {@code reasoning_content} (llama-server, vLLM, DeepSeek) or
     * {@code reasoning} (OpenRouter, newer vLLM).
     */
    static String reasoning(JsonNode messageOrDelta) {
        JsonNode reasoning = messageOrDelta.path("reasoning_content");
        if (!reasoning.isString()) {
            reasoning = messageOrDelta.path("reasoning");
        }
        return reasoning.isString() ? reasoning.stringValue() : "";
    }

    /**
     * A tool call from its wire parts. A missing id gets a fresh one and a repeated id a suffix, so that ids are unique
     * within the answer (tool results refer back to them).
     */
    ToolCall toolCall(String id, String name, Map<String, Object> arguments, Set<String> usedIds, CallContext context,
                      int index) {
        String unique = id.isBlank() ? "call_" + context.newId() : id;
        if (!usedIds.add(unique)) {
            unique = unique + "_" + index;
            usedIds.add(unique);
        }
        return ToolCall.of(unique, name, arguments);
    }

    /** The name of a tool call, which must not be blank. */
    String requireName(String name, int index) {
        if (name.isBlank()) {
            throw failures.malformed("tool call " + index + " has no function name", null);
        }
        return name;
    }

    /** Arguments as OpenAI sends them (a JSON object inside a string), or as an object; blank means none. */
    Map<String, Object> arguments(JsonNode arguments, String tool) {
        if (arguments.isMissingNode() || arguments.isNull()) {
            return Map.of();
        }
        if (arguments.isObject()) {
            return json.convertValue(arguments, OBJECT);
        }
        if (!arguments.isString()) {
            throw failures.malformed("the arguments of the call of '" + tool + "' are neither a string nor an object",
                    null);
        }
        return arguments(arguments.stringValue(), tool);
    }

    /** Arguments from their JSON text; blank means none. */
    Map<String, Object> arguments(String text, String tool) {
        if (text.isBlank()) {
            return Map.of();
        }
        JsonNode parsed;
        try {
            parsed = json.readTree(text);
        } catch (JacksonException notJson) {
            throw failures.malformed("the arguments of the call of '" + tool + "' are not JSON: "
                    + abbreviate(text), notJson);
        }
        if (parsed == null || !parsed.isObject()) {
            throw failures.malformed("the arguments of the call of '" + tool + "' are not a JSON object: "
                    + abbreviate(text), null);
        }
        return json.convertValue(parsed, OBJECT);
    }

    /** The finish reason: tool calls win over "stop" (some servers say "stop" after calling tools), "length" wins. */
    static FinishReason finishReason(String raw, boolean hasToolCalls) {
        if (raw.equals("length")) {
            return FinishReason.LENGTH;
        }
        return hasToolCalls || raw.equals("tool_calls") || raw.equals("function_call") ? FinishReason.TOOL_CALLS
                : FinishReason.STOP;
    }

    /**
     * The usage of a call: the server's counts where it reports them, the estimate otherwise (some servers omit usage);
     * reasoning tokens from {@code completion_tokens_details}; generation time from llama-server's
     * {@code timings.predicted_ms} when present, else the measured duration of the exchange. The context total is
     * capped at {@code Integer.MAX_VALUE}.
     */
    TokenUsage usage(JsonNode usage, JsonNode timings, Request request, String content, String reasoning,
                     List<ToolCall> toolCalls, Duration elapsed) {
        OptionalInt prompt = count(usage.path("prompt_tokens"));
        OptionalInt completion = count(usage.path("completion_tokens"));
        int promptTokens = prompt.isPresent() ? prompt.getAsInt() : estimate.count(request.messages());
        int completionTokens;
        if (completion.isPresent()) {
            completionTokens = completion.getAsInt();
        } else {
            int calls = 0;
            for (ToolCall call : toolCalls) {
                calls += estimate.count(call.name()) + estimate.count(call.arguments().toString());
            }
            completionTokens = estimate.count(content) + estimate.count(reasoning) + calls;
        }
        int reasoningTokens = Math.min(completionTokens,
                count(usage.path("completion_tokens_details").path("reasoning_tokens")).orElse(0));
        Duration generation = elapsed;
        JsonNode predicted = timings.path("predicted_ms");
        // numberValue(), not doubleValue(): Jackson 3's doubleValue() throws for an integer beyond the double range.
        double predictedMs = predicted.isNumber() ? predicted.numberValue().doubleValue() : 0;
        if (predictedMs > 0 && Double.isFinite(predictedMs)) {
            generation = Duration.ofNanos(Math.round(predictedMs * 1_000_000));
        }
        // Saturated rather than overflowing: a server reporting counts near Integer.MAX_VALUE is wrong, but the answer
        // itself is fine (an overflow made TokenUsage throw CONFIG_INVALID; WireFormatFuzzTest's seed usage-overflow).
        int contextTokens = (int) Math.min(Integer.MAX_VALUE, (long) promptTokens + completionTokens);
        return new TokenUsage(promptTokens, reasoningTokens, completionTokens - reasoningTokens,
                contextTokens, contextWindow, generation);
    }

    private static OptionalInt count(JsonNode node) {
        if (node.isNumber() && node.canConvertToInt() && node.intValue() >= 0) {
            return OptionalInt.of(node.intValue());
        }
        return OptionalInt.empty();
    }

    static String abbreviate(String text) {
        String single = text.replaceAll("\\s+", " ").strip();
        return single.length() <= 200 ? single : single.substring(0, 200) + "...";
    }
}
