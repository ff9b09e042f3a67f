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
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.inference.grammar.GrammarMatch;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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
        Plan plan = plan();
        ctx.throwIfDone();
        return model.withSlot(ctx, llama -> {
            String prompt = plan.prompt(llama);
            int promptTokens = tokensThatFit(llama, "the prompt", prompt, contextWindow - MIN_ANSWER_TOKENS,
                    contextWindow);
            int budget = contextWindow - promptTokens;
            int limit = request.settings().hasMaxTokens() ? Math.min(request.settings().maxTokens(), budget) : budget;
            InferenceParameters parameters = parameters(prompt, limit, plan.grammar(), plan.options());
            // The last point before native code: llama.cpp's grammar set-up cannot be interrupted (the binding has
            // no hook), so a caller that gave up while waiting for the slot is not made to pay for it. What bounds
            // the set-up itself is the grammar cost budget, checked when the grammar was parsed, before the slot.
            ctx.throwIfDone();
            return generate(llama, parameters, promptTokens, limit, plan.grammar(), plan.tooling());
        });
    }

    /** The prompt the request renders to, without generating (for tests). */
    String prompt() {
        Plan plan = plan();
        return model.withoutSlot(plan::prompt);
    }

    /** The tool-call format the request is answered in, when it offers tools (for tests). */
    Optional<ToolFormat> toolFormat() {
        return Optional.ofNullable(plan().tooling()).map(Tooling::format);
    }

    /** The request as it reaches native code, its conversation in a shape the chat template accepts. */
    private Plan plan() {
        RequestOptions options = RequestOptions.of(request.settings().options());
        List<ToolDefinition> tools = options.toolChoice().mode() == RequestOptions.ToolChoice.Mode.NONE ? List.of()
                : request.tools();
        String template = model.templates().source(!tools.isEmpty());
        return plan(options, tools, ToolFormats.detect(template)).shapedFor(template);
    }

    private Plan plan(RequestOptions options, List<ToolDefinition> tools, ToolFormat format) {
        List<Message> messages = format.history(request.messages());
        if (tools.isEmpty()) {
            return new Plan(options, null, constraint(), messages, tools);
        }
        Tooling tooling = tooling(format, tools, options);
        GbnfGrammar grammar = options.toolGrammar() ? tooling.grammar() : null;
        if (format.templateDescribesTools()) {
            return new Plan(options, tooling, grammar, messages, tools);
        }
        return new Plan(options, tooling, grammar, format.describeTools(request.messages(), tools, tooling.spec()),
                List.of());
    }

    /**
     * What a request becomes before it reaches native code.
     *
     * @param tooling       the tool-call format and what is asked of it; null without tools
     * @param grammar       the grammar of the answer; null for none
     * @param messages      the messages for the chat template
     * @param templateTools the tools for the chat template (none when the format describes them itself)
     */
    private record Plan(RequestOptions options, Tooling tooling, GbnfGrammar grammar, List<Message> messages,
                        List<ToolDefinition> templateTools) {

        String prompt(LlamaModel llama) {
            return PromptRenderer.render(llama, messages, templateTools, options.templateSwitches());
        }

        /** This plan with its messages in the shape the template accepts ({@link ChatShape}). */
        Plan shapedFor(String template) {
            return new Plan(options, tooling, grammar, ChatShape.accepted(template, messages), templateTools);
        }
    }

    /** The grammar of the request's own constraint: its grammar, its schema's, or none. */
    private GbnfGrammar constraint() {
        return request.grammar().or(() -> request.schema().map(GbnfGrammar::fromSchema)).orElse(null);
    }

    /**
     * The tool-call format of the model's template and what the request asks of it. A request cannot both offer tools
     * and constrain its output otherwise.
     */
    private Tooling tooling(ToolFormat format, List<ToolDefinition> tools, RequestOptions options) {
        if (request.hasGrammar() || request.schema().isPresent()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a request cannot both offer tools and constrain "
                    + "its output with a grammar or schema (set option tool_choice to none to drop the tools)");
        }
        String named = options.toolChoice().named();
        List<ToolDefinition> callable = tools;
        if (!named.isEmpty()) {
            callable = tools.stream().filter(tool -> tool.name().equals(named)).toList();
            if (callable.isEmpty()) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option tool_choice names the tool '"
                        + named + "', which the request does not offer").detail("tool", named).build();
            }
        }
        boolean forced = mustCallATool(options);
        ToolSpec spec = new ToolSpec(forced ? callable : tools, forced,
                options.parallelToolCalls() ? ToolSpec.MAX_PARALLEL_CALLS : 1);
        return new Tooling(format, spec, format.grammar(spec));
    }

    /** A tool-calling request's format, what it asks of the answer, and the answer's grammar. */
    private record Tooling(ToolFormat format, ToolSpec spec, GbnfGrammar grammar) {
    }

    /**
     * Whether the answer must be a tool call: with {@code tool_choice} {@code required} or a named tool, in answer to
     * anything but tool results (after them the model may answer, or a tool loop could never end).
     */
    private boolean mustCallATool(RequestOptions options) {
        List<Message> messages = request.messages();
        return options.toolChoice().mode() == RequestOptions.ToolChoice.Mode.REQUIRED
                && messages.get(messages.size() - 1).role() != Role.TOOL;
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
                            GbnfGrammar grammar, Tooling tooling) {
        Output output = new Output(handler, tooling == null ? null : tooling.format());
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
        if (finish == FinishReason.STOP && endedInsideTheGrammar(grammar, output.text())) {
            finish = FinishReason.LENGTH;
            tokens = limit;
        }
        TokenUsage usage = new TokenUsage(promptTokens, 0, tokens, promptTokens + tokens, contextWindow, took);
        return result(output, finish, usage, grammar, tooling);
    }

    /**
     * Whether the output stopped inside its grammar, with more to write. llama.cpp's grammar sampler allows an end of
     * generation only where the grammar is complete, so without a stop string such an output ran out of tokens: the
     * count above misses it when the model wrote a text in more tokens than the text re-encodes to (pieces of several
     * tokens, unmerged tokens).
     */
    private boolean endedInsideTheGrammar(GbnfGrammar grammar, String text) {
        if (grammar == null || text.isEmpty() || !request.settings().stop().isEmpty()) {
            return false;
        }
        GrammarMatch match = grammar.match(text);
        return !match.accepted() && match.offset() == text.length();
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

    private Result result(Output output, FinishReason finish, TokenUsage usage, GbnfGrammar grammar,
                          Tooling tooling) {
        String text = output.text();
        if (grammar != null) {
            requireConforming(grammar, text, finish);
        }
        if (tooling == null) {
            return Result.builder().content(text).usage(usage).finishReason(finish).build();
        }
        ToolReply reply;
        try {
            reply = tooling.format().parse(text, tooling.spec(), ctx);
        } catch (PaganticException malformed) {
            if (finish != FinishReason.LENGTH) {
                throw malformed;
            }
            reply = tooling.format().cutOff(text, malformed);
        }
        output.finish(reply);
        Result.Builder result = Result.builder().content(reply.content()).reasoning(reply.reasoning())
                .toolCalls(reply.calls()).usage(usage);
        return reply.calls().isEmpty() ? result.finishReason(finish).build() : result.build();
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

    /**
     * Collects the output and streams it: a plain request's text as it comes; a tool-calling request's text and
     * reasoning as its format reads them from what has been written so far (never the markup of a call), and its
     * calls once they are parsed.
     */
    private static final class Output {
        private final StreamHandler handler;
        private final ToolFormat format; // null: no tools
        private final StringBuilder text = new StringBuilder();
        private String contentSent = "";
        private String reasoningSent = "";

        Output(StreamHandler handler, ToolFormat format) {
            this.handler = handler;
            this.format = format;
        }

        void add(String piece) {
            text.append(piece);
            if (format == null) {
                handler.onContent(piece);
            } else {
                send(format.partial(text.toString()));
            }
        }

        /** Streams what the final reading adds to what was streamed, then the calls. */
        void finish(ToolReply reply) {
            send(reply);
            reply.calls().forEach(handler::onToolCall);
        }

        /** Sends what extends the text and reasoning sent so far; anything else is left to the final result. */
        private void send(ToolReply sofar) {
            if (sofar.reasoning().length() > reasoningSent.length() && sofar.reasoning().startsWith(reasoningSent)) {
                handler.onReasoning(sofar.reasoning().substring(reasoningSent.length()));
                reasoningSent = sofar.reasoning();
            }
            if (sofar.content().length() > contentSent.length() && sofar.content().startsWith(contentSent)) {
                handler.onContent(sofar.content().substring(contentSent.length()));
                contentSent = sofar.content();
            }
        }

        String text() {
            return text.toString();
        }
    }
}
