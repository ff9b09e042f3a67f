package dev.pagantic.engine.llamacpp;

import de.kherud.llama.InferenceParameters;
import de.kherud.llama.LlamaIterator;
import de.kherud.llama.LlamaModel;
import de.kherud.llama.LlamaOutput;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.inference.grammar.GrammarMatch;
import java.time.Duration;
import java.util.List;

/**
 * One inference on a {@link SharedModel}: choose the grammar, render the prompt, check that it fits, generate token by
 * token, and build the result.
 *
 * <p>Cancellation and deadlines are checked after every token, and the generation is cancelled <em>from this
 * thread</em>: java-llama.cpp's {@code cancel()} called from another thread while this one waits for a token hangs
 * the wait forever, and an iterator abandoned without {@code cancel()} blocks the model until its token budget is
 * spent, so every way out of the loop cancels first.
 */
final class Generation {

    /** Tokens of the context a request must leave for its answer. */
    private static final int MIN_ANSWER_TOKENS = 1;

    private final SharedModel model;
    private final int contextWindow;
    private final CallContext ctx;
    private final Request request;
    private final StreamHandler handler;

    Generation(SharedModel model, int contextWindow, CallContext ctx, Request request, StreamHandler handler) {
        this.model = model;
        this.contextWindow = contextWindow;
        this.ctx = ctx;
        this.request = request;
        this.handler = handler;
    }

    Result run() {
        RequestOptions options = RequestOptions.of(request.settings().options());
        List<ToolDefinition> tools = options.toolChoice() == RequestOptions.ToolChoice.NONE ? List.of()
                : request.tools();
        GbnfGrammar grammar = grammar(tools, options);
        ctx.throwIfDone();
        return model.withSlot(ctx, llama -> {
            String prompt = PromptRenderer.render(llama, request.messages(), tools, options.templateSwitches());
            int promptTokens = tokensThatFit(llama, "the prompt", prompt, contextWindow - MIN_ANSWER_TOKENS,
                    contextWindow);
            int budget = contextWindow - promptTokens;
            int limit = request.settings().hasMaxTokens() ? Math.min(request.settings().maxTokens(), budget) : budget;
            InferenceParameters parameters = parameters(prompt, limit, grammar, options);
            // The last point before native code: llama.cpp's grammar set-up cannot be interrupted (the binding has
            // no hook), so a caller that gave up while waiting for the slot is not made to pay for it. What bounds
            // the set-up itself is the grammar cost budget, checked when the grammar was parsed, before the slot.
            ctx.throwIfDone();
            return generate(llama, parameters, promptTokens, limit, grammar, !tools.isEmpty());
        });
    }

    /** The grammar the output is generated under: the request's, its schema's, or the tool-call envelope's. */
    private GbnfGrammar grammar(List<ToolDefinition> tools, RequestOptions options) {
        boolean constrained = request.hasGrammar() || request.schema().isPresent();
        if (constrained && !tools.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a request cannot both offer tools and constrain "
                    + "its output with a grammar or schema (set option tool_choice to none to drop the tools)");
        }
        if (request.hasGrammar()) {
            return request.grammar().get();
        }
        if (request.schema().isPresent()) {
            return GbnfGrammar.fromSchema(request.schema().get());
        }
        return tools.isEmpty() ? null : GbnfGrammar.forToolCalls(tools, !mustCallATool(options),
                options.parallelToolCalls() ? GbnfGrammar.maxToolCalls() : 1);
    }

    /**
     * Whether the answer must be a tool call: with {@code tool_choice=required}, in answer to anything but tool results
     * (after them the model may answer, or a tool loop could never end).
     */
    private boolean mustCallATool(RequestOptions options) {
        List<dev.pagantic.core.Message> messages = request.messages();
        return options.toolChoice() == RequestOptions.ToolChoice.REQUIRED
                && messages.get(messages.size() - 1).role() != dev.pagantic.core.Role.TOOL;
    }

    /**
     * The tokens the text takes, with the beginning-of-sequence token the server adds, or
     * {@code INFERENCE_CONTEXT_EXCEEDED} when they are more than {@code maxTokens}.
     */
    static int tokensThatFit(LlamaModel llama, String what, String text, int maxTokens, int contextWindow) {
        int tokens = llama.encode(text).length + 1;
        if (tokens > maxTokens) {
            throw PaganticException.builder(ErrorCode.INFERENCE_CONTEXT_EXCEEDED, what + " takes " + tokens
                            + " tokens of the " + contextWindow + "-token context window")
                    .detail("prompt_tokens", tokens).detail("context_window", contextWindow).build();
        }
        return tokens;
    }

    private InferenceParameters parameters(String prompt, int limit, GbnfGrammar grammar, RequestOptions options) {
        InferenceParameters parameters = new InferenceParameters(prompt).setNPredict(limit);
        request.settings().temperature().ifPresent(t -> parameters.setTemperature((float) t));
        request.settings().topP().ifPresent(p -> parameters.setTopP((float) p));
        request.settings().seed().ifPresent(seed -> parameters.setSeed(Long.hashCode(seed) & Integer.MAX_VALUE));
        if (!request.settings().stop().isEmpty()) {
            parameters.setStopStrings(request.settings().stop().toArray(String[]::new));
        }
        if (grammar != null) {
            parameters.setGrammar(grammar.text());
        }
        options.applyTo(parameters);
        return parameters;
    }

    private Result generate(LlamaModel llama, InferenceParameters parameters, int promptTokens, int limit,
                            GbnfGrammar grammar, boolean toolMode) {
        Output output = new Output(handler, toolMode);
        long started = System.nanoTime();
        int pieceCount = 0;
        LlamaIterator pieces = null;
        try {
            pieces = llama.generate(parameters).iterator();
            while (pieces.hasNext()) {
                LlamaOutput piece = pieces.next();
                if (!piece.text.isEmpty()) {
                    pieceCount++;
                    output.add(piece.text);
                }
                if (ctx.isDone() || model.closing()) {
                    model.requireOpen();
                    ctx.throwIfDone(); // either throws; the catch below cancels the generation
                }
            }
        } catch (PaganticException | Error stop) {
            cancel(pieces);
            throw stop;
        } catch (RuntimeException failure) {
            cancel(pieces);
            if (failure.getClass().getName().startsWith("de.kherud.")) {
                throw PaganticException.of(ErrorCode.INFERENCE_ENGINE_ERROR, "llama.cpp failed while generating: "
                        + failure.getMessage(), failure);
            }
            throw failure; // the caller's stream handler threw
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        int tokens = outputTokens(llama, pieceCount, output.text(), limit);
        FinishReason finish = tokens >= limit ? FinishReason.LENGTH : FinishReason.STOP;
        TokenUsage usage = new TokenUsage(promptTokens, 0, tokens, promptTokens + tokens, contextWindow, took);
        return result(output, finish, usage, grammar);
    }

    private static void cancel(LlamaIterator pieces) {
        if (pieces != null) {
            pieces.cancel();
        }
    }

    /**
     * The output's tokens. The binding streams text, not tokens: a character of several byte tokens comes as one
     * piece, so counting pieces undercounts and would report a cut-off answer as finished. Below the limit the
     * count is the larger of the pieces and the tokens of the text re-encoded.
     */
    private static int outputTokens(LlamaModel llama, int pieceCount, String text, int limit) {
        if (pieceCount >= limit || text.isEmpty()) {
            return pieceCount;
        }
        return Math.min(limit, Math.max(pieceCount, llama.encode(text).length));
    }

    private Result result(Output output, FinishReason finish, TokenUsage usage, GbnfGrammar grammar) {
        String text = output.text();
        if (grammar != null) {
            requireConforming(grammar, text, finish);
        }
        if (!output.isEnvelope()) {
            return Result.builder().content(text).usage(usage).finishReason(finish).build();
        }
        if (finish == FinishReason.LENGTH) {
            throw PaganticException.builder(ErrorCode.INFERENCE_MALFORMED_RESPONSE,
                    "the tool-call envelope was cut off at the token limit").detail("output", text).build();
        }
        List<ToolCall> calls = ToolEnvelope.parse(text, ctx);
        if (handler != null) {
            calls.forEach(handler::onToolCall);
        }
        return Result.builder().toolCalls(calls).usage(usage).build();
    }

    /**
     * Checks the output against the grammar: a finished answer must be a sentence of it, a cut-off one a prefix of
     * one. llama.cpp generates unconstrained text when it cannot use a grammar, so this is what makes the
     * constraint fail closed.
     */
    private static void requireConforming(GbnfGrammar grammar, String text, FinishReason finish) {
        if (finish == FinishReason.STOP) {
            grammar.requireAccepted(text);
            return;
        }
        GrammarMatch match = grammar.match(text);
        if (!match.accepted() && match.offset() < text.length()) {
            throw PaganticException.builder(ErrorCode.CONSTRAINT_GRAMMAR_REJECTED,
                            "output cut off at the token limit does not follow the grammar: " + match.reason())
                    .detail("offset", match.offset()).detail("reason", match.reason()).build();
        }
    }

    /** Collects the output and streams it: text as it comes, a tool-call envelope only once parsed. */
    private static final class Output {
        private final StreamHandler handler; // null: not streaming
        private final boolean toolMode;
        private final StringBuilder text = new StringBuilder();
        private boolean envelope;

        Output(StreamHandler handler, boolean toolMode) {
            this.handler = handler;
            this.toolMode = toolMode;
        }

        void add(String piece) {
            boolean first = text.length() == 0;
            text.append(piece);
            if (first && toolMode) {
                envelope = ToolEnvelope.isEnvelope(text.toString());
            }
            if (handler != null && !envelope) {
                handler.onContent(piece);
            }
        }

        String text() {
            return text.toString();
        }

        boolean isEnvelope() {
            return envelope;
        }
    }
}
