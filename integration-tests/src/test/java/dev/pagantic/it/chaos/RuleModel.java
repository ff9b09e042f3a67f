package dev.pagantic.it.chaos;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A deterministic "model" that follows directives written into the user messages, so that a test knows what every
 * request should produce and can detect any cross-talk between requests:
 * <ul>
 *   <li>{@code tag=<t>} names the request (its session and turn); structured answers and tool arguments carry it;</li>
 *   <li>{@code call=<a>,<b>} asks for calls of those tools (each with {@code {"key": "<t>"}}) when the request offers
 *       them, or always when it offers none (a plan's infer step, whose tool step runs the calls);</li>
 *   <li>a request with a schema is answered {@code {"answer": "<t>", "tools": <tool messages seen>}};</li>
 *   <li>a request whose last message is a tool result is answered {@code done <results joined by " | ">};</li>
 *   <li>anything else is answered {@code echo <last user message>}.</li>
 * </ul>
 * It streams word by word with a cancellation and deadline check before each delta. Thread-safe, stateless but for
 * the tool call id counter.
 */
final class RuleModel implements Engine {

    private static final Pattern TAG = Pattern.compile("tag=(\\S+)");
    private static final Pattern CALL = Pattern.compile("call=(\\S+)");
    // SEED: the rules give the same answer whatever the seed, and redundant replicas are told apart by their seeds
    private static final ModelInfo INFO = ModelInfo.of("rule-model", 0, Capability.TOOLS, Capability.STREAMING,
            Capability.SCHEMA, Capability.SEED);

    private final AtomicLong callIds = new AtomicLong();

    @Override
    public Result infer(CallContext context, Request request) {
        return infer(context, request, StreamHandler.NOOP);
    }

    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        context.throwIfDone();
        INFO.requireSupported(request);
        List<Message> messages = request.messages();
        Message last = messages.get(messages.size() - 1);
        String lastUser = lastUser(messages);
        String tag = tag(messages);
        Result.Builder result = Result.builder();
        if (request.schema().isPresent()) {
            long tools = messages.stream().filter(m -> m.role() == Role.TOOL).count();
            result.content("{\"answer\": \"" + tag + "\", \"tools\": " + tools + "}");
        } else if (last.role() == Role.TOOL) {
            List<Message> results = new ArrayList<>();
            for (int i = messages.size() - 1; i >= 0 && messages.get(i).role() == Role.TOOL; i--) {
                results.add(0, messages.get(i));
            }
            result.content("done " + results.stream().map(Message::content).collect(Collectors.joining(" | ")));
        } else {
            List<ToolCall> calls = calls(lastUser, tag, request.tools());
            if (calls.isEmpty()) {
                result.content("echo " + lastUser);
            } else {
                result.toolCalls(calls);
            }
        }
        Result answer = result.usage(new TokenUsage(messages.size(), 0, 1, messages.size() + 1, 0,
                java.time.Duration.ZERO)).build();
        for (String word : answer.content().split("(?<= )")) {
            context.throwIfDone();
            if (!word.isEmpty()) {
                handler.onContent(word);
            }
        }
        for (ToolCall call : answer.toolCalls()) {
            context.throwIfDone();
            handler.onToolCall(call);
        }
        return answer;
    }

    @Override
    public ModelInfo modelInfo() {
        return INFO;
    }

    private List<ToolCall> calls(String text, String tag, List<ToolDefinition> offered) {
        Matcher matcher = CALL.matcher(text);
        if (!matcher.find() || text.equals(dev.pagantic.orchestrate.structured.SpecializedLoop.PHASE_TWO_PROMPT)) {
            return List.of();
        }
        List<ToolCall> calls = new ArrayList<>();
        for (String name : matcher.group(1).split(",")) {
            if (offered.isEmpty() || offered.stream().anyMatch(t -> t.name().equals(name))) {
                calls.add(ToolCall.of("call-" + callIds.incrementAndGet(), name, Map.of("key", tag)));
            }
        }
        return calls;
    }

    private static String lastUser(List<Message> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == Role.USER) {
                return messages.get(i).content();
            }
        }
        throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "rule model: no user message");
    }

    /** The tag of the last user message that has one. */
    private static String tag(List<Message> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == Role.USER) {
                Matcher matcher = TAG.matcher(messages.get(i).content());
                if (matcher.find()) {
                    return matcher.group(1);
                }
            }
        }
        return "untagged";
    }
}
