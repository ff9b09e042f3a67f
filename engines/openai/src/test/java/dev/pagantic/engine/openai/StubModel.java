package dev.pagantic.engine.openai;

import static dev.pagantic.engine.openai.StubServer.JSON;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scripted reply that behaves like a small model behind an OpenAI-compatible server: it answers whole or as a
 * stream, as the request's {@code stream} asks; it emits its text one word-token at a time with a pause per token (a
 * whole answer waits for all of them); it honours {@code max_tokens} (cut, finish reason {@code length}); it streams
 * a tool call as a first fragment with id and name followed by argument pieces; and it reports usage.
 */
final class StubModel implements StubServer.Reply {

    private static final Pattern TOKEN = Pattern.compile("\\s*\\S+");

    private final List<String> reasoning;
    private final List<String> content;
    private final String toolName;
    private final String toolArguments;
    private final Duration pause;
    private final int promptTokens;

    private StubModel(List<String> reasoning, List<String> content, String toolName, String toolArguments,
                      Duration pause, int promptTokens) {
        this.reasoning = reasoning;
        this.content = content;
        this.toolName = toolName;
        this.toolArguments = toolArguments;
        this.pause = pause;
        this.promptTokens = promptTokens;
    }

    /** A model that answers the text. */
    static StubModel says(String text) {
        return new StubModel(List.of(), tokens(text), null, null, Duration.ZERO, 17);
    }

    /** This model, thinking the reasoning before its answer. */
    StubModel thinking(String text) {
        return new StubModel(tokens(text), content, toolName, toolArguments, pause, promptTokens);
    }

    /** This model, calling the tool (with id {@code call_1}) after its text. */
    StubModel calling(String name, String argumentsJson) {
        return new StubModel(reasoning, content, name, argumentsJson, pause, promptTokens);
    }

    /** This model, pausing before each token. */
    StubModel pausing(Duration perToken) {
        return new StubModel(reasoning, content, toolName, toolArguments, perToken, promptTokens);
    }

    /** The text split into word tokens, each with its leading space. */
    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        Matcher matcher = TOKEN.matcher(text);
        while (matcher.find()) {
            tokens.add(matcher.group());
        }
        return tokens;
    }

    @Override
    public void write(HttpExchange exchange, StubServer.Recorded request, StubServer server) throws IOException {
        JsonNode body = request.json();
        boolean stream = body.path("stream").asBoolean(false);
        int maxTokens = body.path("max_tokens").asInt(0);
        List<String> answer = content;
        boolean cut = maxTokens > 0 && reasoning.size() + content.size() > maxTokens;
        if (cut) {
            answer = content.subList(0, Math.max(0, maxTokens - reasoning.size()));
        }
        boolean calls = toolName != null && !cut;
        int completionTokens = reasoning.size() + answer.size() + (calls ? 5 : 0);
        String finish = cut ? "length" : calls ? "tool_calls" : "stop";
        if (stream) {
            List<String> chunks = new ArrayList<>();
            reasoning.forEach(token -> chunks.add(Wire.reasoningChunk(token)));
            answer.forEach(token -> chunks.add(Wire.contentChunk(token)));
            if (calls) {
                chunks.add(Wire.toolCallChunk(0, "call_1", toolName, ""));
                int third = Math.max(1, toolArguments.length() / 3);
                for (int start = 0; start < toolArguments.length(); start += third) {
                    chunks.add(Wire.toolCallChunk(0, null, null,
                            toolArguments.substring(start, Math.min(toolArguments.length(), start + third))));
                }
            }
            chunks.add(Wire.finishChunk(finish));
            chunks.add(Wire.usageChunk(promptTokens, completionTokens));
            StubServer.sseData(pause, chunks).write(exchange, request, server);
            return;
        }
        if (!StubServer.sleep(pause.multipliedBy(completionTokens))) {
            return;
        }
        ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-stub").put("object", "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant").put("content", String.join("",
                answer).strip());
        if (!reasoning.isEmpty()) {
            message.put("reasoning_content", String.join("", reasoning).strip());
        }
        if (calls) {
            ArrayNode toolCalls = message.putArray("tool_calls");
            toolCalls.addObject().put("id", "call_1").put("type", "function").putObject("function")
                    .put("name", toolName).put("arguments", toolArguments);
        }
        choice.put("finish_reason", finish);
        root.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        StubServer.json(200, root.toString()).write(exchange, request, server);
    }
}
