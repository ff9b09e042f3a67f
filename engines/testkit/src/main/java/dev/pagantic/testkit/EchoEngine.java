package dev.pagantic.testkit;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.TokenCounter;
import java.util.List;

/**
 * An engine that answers with the content of the conversation's last user message (empty if there is none): a
 * deterministic stand-in when a test needs some engine but does not care what it says.
 *
 * <p>It generates like {@link ScriptedEngine}'s text steps: one token per whitespace-separated word, {@code maxTokens}
 * and the context window cut the echo at a word boundary with {@link dev.pagantic.core.FinishReason#LENGTH},
 * usage is counted in words, and the echo streams word by word with a cancellation and deadline check before every
 * token. It declares STREAMING, TOKEN_COUNTING, SEED and STOP only: it cannot honour tools, grammars or schemas, so
 * requests that
 * carry them are refused with {@code CONFIG_UNSUPPORTED_CAPABILITY} rather than silently echoed. Thread-safe.
 */
public final class EchoEngine implements Engine {

    private final WordModel model;

    private EchoEngine(ModelInfo info) {
        this.model = new WordModel(info);
    }

    /** An echo engine with the defaults: model {@code "echo"} and a 4096-token window. */
    public static EchoEngine create() {
        return builder().build();
    }

    /** Starts building an echo engine. */
    public static Builder builder() {
        return new Builder();
    }

    /** Echoes the last user message. */
    @Override
    public Result infer(CallContext context, Request request) {
        return model.call(context, request, StreamHandler.NOOP, this::echo);
    }

    /** Echoes the last user message, streamed word by word. */
    @Override
    public Result infer(CallContext context, Request request, StreamHandler handler) {
        return model.call(context, request, handler, this::echo);
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

    /** Later calls fail with {@code INFERENCE_ENGINE_CLOSED}. Idempotent. */
    @Override
    public void close() {
        model.close();
    }

    @Override
    public String toString() {
        return "EchoEngine[model=" + model.info().name() + "]";
    }

    private Result echo(CallContext context, Request request, StreamHandler handler) {
        return model.generate(context, request, new WordModel.Reply("", lastUserContent(request), List.of()), handler);
    }

    private static String lastUserContent(Request request) {
        List<Message> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == Role.USER) {
                return messages.get(i).content();
            }
        }
        return "";
    }

    /** Builds an {@link EchoEngine}; {@link #build()} throws {@code CONFIG_INVALID} on a bad setting. */
    public static final class Builder {
        private String modelName = "echo";
        private int contextWindow = 4096;

        private Builder() {
        }

        /** The model name reported by {@link EchoEngine#modelInfo()}; default {@code "echo"}. */
        public Builder modelName(String name) {
            this.modelName = name;
            return this;
        }

        /** The context window in tokens (words); 0 means unknown and unlimited; default 4096. */
        public Builder contextWindow(int tokens) {
            this.contextWindow = tokens;
            return this;
        }

        /** Validates the settings and builds the engine. */
        public EchoEngine build() {
            Config.requireModelName(modelName);
            Config.require(contextWindow >= 0, "contextWindow must not be negative: " + contextWindow);
            return new EchoEngine(ModelInfo.of(modelName, contextWindow, Capability.STREAMING,
                    Capability.TOKEN_COUNTING, Capability.SEED, Capability.STOP));
        }
    }
}
