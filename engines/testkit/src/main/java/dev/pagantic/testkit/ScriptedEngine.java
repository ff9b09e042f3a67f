package dev.pagantic.testkit;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.TokenCounter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * An engine that replays a script: each call takes the next step (a reply, a tool call, a failure) and records the
 * request, so a test decides exactly what "the model" says and then inspects what the code under test asked.
 *
 * <pre>{@code
 * ScriptedEngine engine = ScriptedEngine.builder()
 *         .replyCallingTool("get_weather", Map.of("city", "Paris"))   // call 1: a tool call with id call_1
 *         .reply("It is sunny in Paris.")                              // call 2: the final answer
 *         .build();
 * // ... run the code under test ...
 * assertThat(engine.requests()).hasSize(2);
 * assertThat(engine.lastRequest().orElseThrow().messages()).anyMatch(m -> m.role() == Role.TOOL);
 * }</pre>
 *
 * <h2>Behaviour</h2>
 * <ul>
 *   <li><b>Refusals first.</b> A call on a closed engine ({@code INFERENCE_ENGINE_CLOSED}), with a cancelled or expired
 *       context ({@code CANCELLED_*}), asking for an undeclared capability ({@code CONFIG_UNSUPPORTED_CAPABILITY}) or
 *       with a prompt larger than the context window ({@code INFERENCE_CONTEXT_EXCEEDED}) is refused before it
 *       reaches the script: it consumes no step and is not recorded, so N scripted steps always serve the first N
 *       admitted calls.</li>
 *   <li><b>Text steps are generated.</b> {@link Builder#reply(String)} and its siblings go through the testkit's fake
 *       decoder: one token per whitespace-separated word, {@code maxTokens} and the context window cut the reply at a
 *       word boundary with {@link dev.pagantic.core.FinishReason#LENGTH} (dropping its tool calls, which come
 *       after the text), usage is counted in words, and the reply streams word by word with a cancellation and
 *       deadline check before every token.</li>
 *   <li><b>Result steps are replayed verbatim.</b> {@link Builder#reply(Result)} and {@link Builder#replyWith} return
 *       the result exactly as given (usage, finish reason and messages included) after streaming it word by word; use
 *       them when a test needs full control.</li>
 *   <li><b>Exhaustion is loud.</b> A call with no step left fails with a non-retryable {@code INFERENCE_ENGINE_ERROR}
 *       that names the call and quotes its last message; it is still recorded, so the test can inspect it.</li>
 *   <li><b>Thread-safe.</b> Concurrent calls take distinct steps in arrival order; generation runs outside the
 *       lock.</li>
 * </ul>
 * An empty script is allowed: every call then fails, which proves that the code under test did not call the engine.
 */
public final class ScriptedEngine implements Engine {

    private static final int QUOTE_LIMIT = 200;

    private final WordModel model;
    private final int scriptLength;
    private final Object lock = new Object();
    private final Deque<Step> script;
    private final List<Request> requests = new ArrayList<>();

    private ScriptedEngine(ModelInfo info, List<Step> steps) {
        this.model = new WordModel(info);
        this.scriptLength = steps.size();
        this.script = new ArrayDeque<>(steps);
    }

    /** Starts a script; the defaults are model {@code "scripted"}, a 4096-token window, tools and streaming. */
    public static Builder builder() {
        return new Builder();
    }

    /** An engine that answers the given texts, one per call, in order, with the default settings. */
    public static ScriptedEngine replying(String... contents) {
        Builder builder = builder();
        for (String content : contents) {
            builder.reply(content);
        }
        return builder.build();
    }

    /** Takes the next step; see the class comment for refusals, truncation and exhaustion. */
    @Override
    public Result infer(CallContext context, Request request) {
        return model.call(context, request, StreamHandler.NOOP, this::takeTurn);
    }

    /** Takes the next step, streaming it word by word (or once, at the end, if STREAMING is not declared). */
    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        return model.call(context, request, handler, this::takeTurn);
    }

    @Override
    public ModelInfo modelInfo() {
        return model.info();
    }

    /** Counts one token per whitespace-separated word of text; a message list costs the words of its contents. */
    @Override
    public TokenCounter tokenCounter() {
        return WordText.COUNTER;
    }

    /** Every request that reached the script, in arrival order (including one that found it exhausted); a snapshot. */
    public List<Request> requests() {
        synchronized (lock) {
            return List.copyOf(requests);
        }
    }

    /** The most recent request that reached the script; empty before the first. */
    public Optional<Request> lastRequest() {
        synchronized (lock) {
            return requests.isEmpty() ? Optional.empty() : Optional.of(requests.get(requests.size() - 1));
        }
    }

    /** How many calls reached the script: {@code requests().size()}. */
    public int callCount() {
        synchronized (lock) {
            return requests.size();
        }
    }

    /** How many scripted steps are left. */
    public int remaining() {
        synchronized (lock) {
            return script.size();
        }
    }

    /** Later calls fail with {@code INFERENCE_ENGINE_CLOSED}; a call already running finishes. Idempotent. */
    @Override
    public void close() {
        model.close();
    }

    /** The model, and how much of the script has been used, for assertion messages. */
    @Override
    public String toString() {
        synchronized (lock) {
            return "ScriptedEngine[model=" + model.info().name() + ", calls=" + requests.size() + ", remaining="
                    + script.size() + "]";
        }
    }

    private Result takeTurn(CallContext context, Request request, StreamHandler handler) {
        Step step;
        int call;
        synchronized (lock) {
            requests.add(request);
            call = requests.size();
            step = script.poll();
        }
        if (step == null) {
            throw exhausted(call, request);
        }
        return step.perform(model, context, request, handler);
    }

    private PaganticException exhausted(int call, Request request) {
        Message last = request.messages().get(request.messages().size() - 1);
        return PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR,
                        "script exhausted after " + scriptLength + " call(s): call " + call
                                + " has no scripted step; its last message was " + describe(last))
                .retryable(false)
                .detail("model", model.info().name())
                .detail("scripted_steps", scriptLength)
                .detail("call", call)
                .build();
    }

    private static String describe(Message message) {
        StringBuilder text = new StringBuilder(message.role().wireName());
        if (!message.name().isEmpty()) {
            text.append(" (").append(message.name()).append(')');
        }
        String content = message.content();
        if (content.length() > QUOTE_LIMIT) {
            content = content.substring(0, QUOTE_LIMIT) + "...";
        }
        text.append(": \"").append(content).append('"');
        for (ToolCall call : message.toolCalls()) {
            text.append(", calls ").append(call.name()).append(' ').append(call.arguments());
        }
        return text.toString();
    }

    /** One scripted turn. */
    private interface Step {
        Result perform(WordModel model, CallContext context, Request request, StreamHandler handler);

        /** Whether the step returns tool calls, which only an engine declaring TOOLS may do; checked at build. */
        default boolean needsTools() {
            return false;
        }
    }

    private record Generated(WordModel.Reply reply) implements Step {
        @Override
        public Result perform(WordModel model, CallContext context, Request request, StreamHandler handler) {
            return model.generate(context, request, reply, handler);
        }

        @Override
        public boolean needsTools() {
            return !reply.toolCalls().isEmpty();
        }
    }

    private record Fixed(Result result) implements Step {
        @Override
        public Result perform(WordModel model, CallContext context, Request request, StreamHandler handler) {
            return model.replay(context, result, handler);
        }

        @Override
        public boolean needsTools() {
            return result.hasToolCalls();
        }
    }

    private record Computed(Function<Request, Result> responder) implements Step {
        @Override
        public Result perform(WordModel model, CallContext context, Request request, StreamHandler handler) {
            return model.replay(context, respond(model, request), handler);
        }

        private Result respond(WordModel model, Request request) {
            Result result;
            try {
                result = responder.apply(request);
            } catch (PaganticException failure) {
                throw failure;
            } catch (RuntimeException bug) {
                // The engine contract forbids raw exceptions; errors (a failed assertion) still pass through.
                throw responderFailure(model, "scripted responder failed: " + bug, bug);
            }
            if (result == null) {
                throw responderFailure(model, "scripted responder returned null", null);
            }
            return result;
        }

        private static PaganticException responderFailure(WordModel model, String message, Throwable cause) {
            return PaganticException.builder(ErrorCode.INFERENCE_ENGINE_ERROR, message).retryable(false)
                    .detail("model", model.info().name()).cause(cause).build();
        }
    }

    private record Failure(PaganticException failure) implements Step {
        @Override
        public Result perform(WordModel model, CallContext context, Request request, StreamHandler handler) {
            throw failure;
        }
    }

    /**
     * Builds a {@link ScriptedEngine}: model settings, then the script, one step per call in order. {@link #build()}
     * validates everything and throws {@code CONFIG_INVALID} on a bad setting.
     */
    public static final class Builder {
        private String modelName = "scripted";
        private int contextWindow = 4096;
        private Set<Capability> capabilities =
                EnumSet.of(Capability.TOOLS, Capability.STREAMING, Capability.TOKEN_COUNTING, Capability.SEED,
                        Capability.STOP);
        private final List<Step> steps = new ArrayList<>();
        private final List<String> problems = new ArrayList<>();
        private int toolCallIds;

        private Builder() {
        }

        /** The model name reported by {@link ScriptedEngine#modelInfo()}; default {@code "scripted"}. */
        public Builder modelName(String name) {
            this.modelName = name;
            return this;
        }

        /** The context window in tokens (words); 0 means unknown and unlimited; default 4096. */
        public Builder contextWindow(int tokens) {
            this.contextWindow = tokens;
            return this;
        }

        /**
         * Replaces the declared capabilities (default TOOLS, STREAMING, TOKEN_COUNTING, SEED, STOP). Without STREAMING
         * the engine delivers each reply once, when it is complete; declaring GRAMMAR or SCHEMA makes the engine accept
         * such
         * requests, and the script is then responsible for replies that honour them.
         */
        public Builder capabilities(Capability... declared) {
            return capabilities(Arrays.asList(declared));
        }

        /** Replaces the declared capabilities; see {@link #capabilities(Capability...)}. */
        public Builder capabilities(Collection<Capability> declared) {
            Set<Capability> set = EnumSet.noneOf(Capability.class);
            for (Capability capability : declared) {
                set.add(Objects.requireNonNull(capability, "capability"));
            }
            this.capabilities = set;
            return this;
        }

        /** Next step: answer with this text. */
        public Builder reply(String content) {
            return generated("", content, List.of());
        }

        /** Next step: a reasoning ("thinking") section, then this answer; both count against {@code maxTokens}. */
        public Builder replyWithReasoning(String reasoning, String content) {
            return generated(reasoning, content, List.of());
        }

        /** Next step: request these tool calls (at least one; each with its own id), with no text. */
        public Builder replyWithToolCalls(ToolCall... calls) {
            return replyWithToolCalls("", calls);
        }

        /** Next step: this text, then these tool calls (at least one). */
        public Builder replyWithToolCalls(String content, ToolCall... calls) {
            List<ToolCall> list = List.of(calls);
            if (list.isEmpty()) {
                problems.add("step " + (steps.size() + 1) + ": replyWithToolCalls needs at least one tool call");
            }
            return generated("", content, list);
        }

        /**
         * Next step: one call of the named tool, with a deterministic id: {@code call_1}, {@code call_2}, ... counted
         * over this builder's calls of this method.
         */
        public Builder replyCallingTool(String toolName, Map<String, ?> arguments) {
            toolCallIds++;
            return replyWithToolCalls(ToolCall.of("call_" + toolCallIds, toolName, arguments));
        }

        /** Next step: return this result verbatim (streamed word by word; no truncation or accounting). */
        public Builder reply(Result result) {
            steps.add(new Fixed(Objects.requireNonNull(result, "result")));
            return this;
        }

        /**
         * Next step: compute the result from the request and return it verbatim. A {@link PaganticException} or an
         * {@link Error} (a failed assertion) thrown by the responder propagates; another runtime exception, or a null
         * result, becomes a non-retryable {@code INFERENCE_ENGINE_ERROR}, as an engine must never leak a raw one.
         */
        public Builder replyWith(Function<Request, Result> responder) {
            steps.add(new Computed(Objects.requireNonNull(responder, "responder")));
            return this;
        }

        /** Next step: fail the call with this exception (an engine only ever fails with a PaganticException). */
        public Builder fail(PaganticException failure) {
            steps.add(new Failure(Objects.requireNonNull(failure, "failure")));
            return this;
        }

        /** Next step: fail the call with the code, its default retryability and this message. */
        public Builder fail(ErrorCode code, String message) {
            return fail(PaganticException.of(code, message));
        }

        /** Validates the settings and the script and builds the engine. */
        public ScriptedEngine build() {
            Config.requireModelName(modelName);
            Config.require(contextWindow >= 0, "contextWindow must not be negative: " + contextWindow);
            Config.require(problems.isEmpty(), String.join("; ", problems));
            for (int i = 0; i < steps.size(); i++) {
                Config.require(!steps.get(i).needsTools() || capabilities.contains(Capability.TOOLS),
                        "step " + (i + 1) + " returns tool calls, which needs Capability.TOOLS to be declared");
            }
            return new ScriptedEngine(new ModelInfo(modelName, contextWindow, capabilities), steps);
        }

        private Builder generated(String reasoning, String content, List<ToolCall> calls) {
            steps.add(new Generated(new WordModel.Reply(Objects.requireNonNull(reasoning, "reasoning"),
                    Objects.requireNonNull(content, "content"), calls)));
            return this;
        }
    }
}
