package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.internal.InferenceCall;
import dev.pagantic.orchestrate.loop.LoopSettings;
import dev.pagantic.orchestrate.ports.CandidateReranker;
import dev.pagantic.orchestrate.ports.ContextProvider;
import dev.pagantic.orchestrate.ports.RerankInput;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The built-in {@link StepHandler}s, one per built-in {@link StepType}.
 *
 * <table>
 *   <caption>Inputs and outputs</caption>
 *   <tr><th>Handler</th><th>Input</th><th>Output</th></tr>
 *   <tr><td>{@link #infer(LoopSettings)}</td><td>REQUEST as is (its settings over the handler's); TEXT, and RESULT (a
 *   previous answer, so that infer steps
 *       chain), as one user message; MESSAGES; CONTEXT (its
 *       chunks as a system context message, then its query as a user message when not blank); CANDIDATES (as a
 *       system context message)</td><td>RESULT</td></tr>
 *   <tr><td>{@link #retrieve(ContextProvider)}</td><td>TEXT (the query)</td><td>MESSAGES (the context)</td></tr>
 *   <tr><td>{@link #rerank(CandidateReranker)}</td><td>CUSTOM {@link RerankInput}; CONTEXT (its query and chunks);
 *       CANDIDATES (empty query); MESSAGES (each non-blank message a candidate with source {@code message:i} and
 *       score 0, empty query; this is what auto-chaining from a retrieve step gives)</td><td>CANDIDATES</td></tr>
 *   <tr><td>{@link #validate(Function)}, {@link #validateWith(Consumer)}</td><td>TEXT; RESULT (its content)</td>
 *       <td>TEXT, the input passed through when valid</td></tr>
 *   <tr><td>{@link #tool(ToolRegistry, ToolExecutor)}</td><td>TOOL_CALLS; RESULT (its tool calls)</td>
 *       <td>TOOL_RESULTS, in call order</td></tr>
 * </table>
 * Any other input fails the step with {@code ORCHESTRATION_STEP_MISMATCH}, naming the step, the expected and the
 * actual kinds; a step without input fails the same way.
 *
 * <h2>Nil guards</h2>
 * Every factory accepts a null dependency and returns a handler that fails when it runs, with a message naming the
 * handler and the missing dependency, as the seed has it: {@code infer(null)} fails with {@code CONFIG_NO_ENGINE}
 * "infer handler: nil engine"; the others with {@code CONFIG_INVALID} ("retrieve handler: nil context provider",
 * "rerank handler: nil reranker", "validate handler: nil check", "tool handler: nil registry", "tool handler: nil
 * tool executor"). The plan fails at that step, with the completed steps kept, rather than at construction.
 */
public final class StepHandlers {

    private StepHandlers() {
    }

    /**
     * A handler that runs one inference on the engine, with the engine's defaults and no interceptor or events; see
     * {@link #infer(LoopSettings)}.
     *
     * @param engine the engine; null gives a handler that fails with {@code CONFIG_NO_ENGINE}
     */
    public static StepHandler infer(@Nullable Engine engine) {
        if (engine == null) {
            return failing(ErrorCode.CONFIG_NO_ENGINE, "infer handler: nil engine");
        }
        return infer(LoopSettings.of(engine));
    }

    /**
     * A handler that runs one inference on the settings' engine, through orchestrate's one inference path: the
     * settings' interceptor as an {@code INFERENCE} invocation, {@code inference_start} and {@code inference_end}
     * events
     * in the step's name, and the settings' inference settings (a request input's own settings laid over them). This is
     * how the orchestrator's plan mode applies a request's execution hints to every inference step.
     */
    public static StepHandler infer(LoopSettings settings) {
        requireNonNull(settings, "settings");
        InferenceCall call = InferenceCall.of(settings.engine(), settings.interceptor(), settings.eventLog());
        return (ctx, step) -> {
            Request request = toRequest(step);
            Request layered = request.toBuilder().settings(settings.inference().overrideWith(request.settings()))
                    .build();
            Result result = call.infer(ctx, layered, StreamHandler.NOOP, step.name());
            return step.withOutput(StepOutput.result(result));
        };
    }

    /**
     * A handler that retrieves context for a text query.
     *
     * @param provider the context provider; null gives a handler that fails with {@code CONFIG_INVALID}
     */
    public static StepHandler retrieve(ContextProvider provider) {
        if (provider == null) {
            return failing(ErrorCode.CONFIG_INVALID, "retrieve handler: nil context provider");
        }
        return (ctx, step) -> {
            StepInput input = input(step, "retrieve", "text");
            if (!input.is(StepData.Kind.TEXT)) {
                throw unexpected(step, "retrieve", "text", input);
            }
            List<Message> context = provider.build(ctx, input.text());
            return step.withOutput(StepOutput.messages(context == null ? List.of() : context));
        };
    }

    /**
     * A handler that reranks candidates for a query.
     *
     * @param reranker the reranker; null gives a handler that fails with {@code CONFIG_INVALID}
     */
    public static StepHandler rerank(CandidateReranker reranker) {
        if (reranker == null) {
            return failing(ErrorCode.CONFIG_INVALID, "rerank handler: nil reranker");
        }
        return (ctx, step) -> {
            List<Candidate> ranked = reranker.rerank(ctx, toRerankInput(step));
            return step.withOutput(StepOutput.candidates(ranked == null ? List.of() : ranked));
        };
    }

    /**
     * A handler that checks text and passes it through when valid.
     *
     * @param check returns the reason the text is invalid, or empty when it is valid; null gives a handler that fails
     *              with {@code CONFIG_INVALID}
     * @return a handler failing with {@code VALIDATION_RULE_FAILED} (retryable) carrying the reason when the check
     *         rejects the text
     */
    public static StepHandler validate(Function<String, Optional<String>> check) {
        if (check == null) {
            return failing(ErrorCode.CONFIG_INVALID, "validate handler: nil check");
        }
        return (ctx, step) -> {
            String text = validateText(step);
            Optional<String> reason = check.apply(text);
            if (reason != null && reason.isPresent()) {
                throw rejected(step, reason.get(), null);
            }
            return step.withOutput(StepOutput.text(text));
        };
    }

    /**
     * A handler that checks text with a check that throws when the text is invalid, and passes it through otherwise.
     * A {@link PaganticException} from the check fails the step unchanged; any other runtime exception becomes a
     * retryable {@code VALIDATION_RULE_FAILED} with the exception's message as the reason.
     *
     * @param check throws when the text is invalid; null gives a handler that fails with {@code CONFIG_INVALID}
     */
    public static StepHandler validateWith(Consumer<String> check) {
        if (check == null) {
            return failing(ErrorCode.CONFIG_INVALID, "validate handler: nil check");
        }
        return (ctx, step) -> {
            String text = validateText(step);
            try {
                check.accept(text);
            } catch (PaganticException failure) {
                throw failure;
            } catch (RuntimeException invalid) {
                throw rejected(step, String.valueOf(invalid.getMessage()), invalid);
            }
            return step.withOutput(StepOutput.text(text));
        };
    }

    /**
     * A handler that executes tool calls through the tool executor (not part of the seed, which had no tool handler).
     * A call that fails fails the step with the tool's error code and retryable flag; the first failure in call order
     * is reported.
     *
     * @param registry the tools; null gives a handler that fails with {@code CONFIG_INVALID}
     * @param executor the tool executor; null gives a handler that fails with {@code CONFIG_INVALID}
     */
    public static StepHandler tool(ToolRegistry registry, ToolExecutor executor) {
        if (registry == null) {
            return failing(ErrorCode.CONFIG_INVALID, "tool handler: nil registry");
        }
        if (executor == null) {
            return failing(ErrorCode.CONFIG_INVALID, "tool handler: nil tool executor");
        }
        return (ctx, step) -> {
            StepInput input = input(step, "tool", "tool_calls or result");
            List<ToolCall> calls;
            if (input.is(StepData.Kind.TOOL_CALLS)) {
                calls = input.toolCalls();
            } else if (input.is(StepData.Kind.RESULT)) {
                calls = input.result().toolCalls();
            } else {
                throw unexpected(step, "tool", "tool_calls or result", input);
            }
            List<ToolExecution> executions = executor.executeAll(ctx, registry, calls);
            List<ToolResult> results = new ArrayList<>();
            for (ToolExecution execution : executions) {
                if (execution.errorCode().isPresent()) {
                    throw PaganticException.builder(execution.errorCode().get(),
                                    "tool handler: tool '" + execution.call().name() + "' failed in step '"
                                            + step.name() + "': " + execution.result().content())
                            .retryable(execution.retryable())
                            .detail("step", step.name())
                            .detail("tool", execution.call().name())
                            .detail("tool_call_id", execution.call().id())
                            .build();
                }
                results.add(execution.result());
            }
            return step.withOutput(StepOutput.toolResults(results));
        };
    }

    private static StepHandler failing(ErrorCode code, String message) {
        return (ctx, step) -> {
            throw PaganticException.builder(code, message)
                    .detail("step", step.name())
                    .detail("step_type", step.type().name())
                    .build();
        };
    }

    private static Request toRequest(Step step) {
        StepInput input = input(step, "infer", "request, text, result, messages, context or candidates");
        switch (input.kind()) {
            case REQUEST:
                return input.request();
            case TEXT:
                return Request.of(input.text());
            case RESULT:
                return Request.of(input.result().content());
            case MESSAGES:
                return requestOf(step, input, input.messages());
            case CONTEXT: {
                ContextIR context = input.context();
                List<Message> messages = new ArrayList<>(context.toMessages());
                if (!context.query().isBlank()) {
                    messages.add(Message.user(context.query()));
                }
                return requestOf(step, input, messages);
            }
            case CANDIDATES:
                return requestOf(step, input, new ContextIR("", input.candidates()).toMessages());
            default:
                throw unexpected(step, "infer", "request, text, result, messages, context or candidates", input);
        }
    }

    private static Request requestOf(Step step, StepInput input, List<Message> messages) {
        if (messages.isEmpty()) {
            throw PaganticException.builder(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                            "infer handler: step '" + step.name() + "' got empty " + input.kind().wireName()
                                    + " input, nothing to send to the engine")
                    .detail("step", step.name())
                    .detail("actual", input.kind().wireName())
                    .build();
        }
        return Request.builder().messages(messages).build();
    }

    private static RerankInput toRerankInput(Step step) {
        String expected = "custom rerank input, context, candidates or messages";
        StepInput input = input(step, "rerank", expected);
        switch (input.kind()) {
            case CUSTOM:
                return input.customValue(RerankInput.class);
            case CONTEXT:
                return input.context().toRerankInput();
            case CANDIDATES:
                return RerankInput.of("", input.candidates());
            case MESSAGES: {
                List<Candidate> candidates = new ArrayList<>();
                List<Message> messages = input.messages();
                for (int i = 0; i < messages.size(); i++) {
                    String content = messages.get(i).content();
                    if (content != null && !content.isBlank()) {
                        candidates.add(Candidate.of(content, "message:" + i));
                    }
                }
                return RerankInput.of("", candidates);
            }
            default:
                throw unexpected(step, "rerank", expected, input);
        }
    }

    private static String validateText(Step step) {
        StepInput input = input(step, "validate", "text or result");
        if (input.is(StepData.Kind.TEXT)) {
            return input.text();
        }
        if (input.is(StepData.Kind.RESULT)) {
            return input.result().content();
        }
        throw unexpected(step, "validate", "text or result", input);
    }

    private static PaganticException rejected(Step step, String reason, Throwable cause) {
        PaganticException.Builder builder = PaganticException.builder(ErrorCode.VALIDATION_RULE_FAILED,
                        "validate handler: step '" + step.name() + "' output rejected: " + reason)
                .detail("step", step.name())
                .detail("reason", reason);
        if (cause != null) {
            builder.cause(cause);
        }
        return builder.build();
    }

    private static StepInput input(Step step, String handler, String expected) {
        return step.input().orElseThrow(() -> PaganticException.builder(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                        handler + " handler: step '" + step.name() + "' has no input (expected " + expected + ")")
                .detail("step", step.name())
                .detail("expected", expected)
                .detail("actual", "none")
                .build());
    }

    private static PaganticException unexpected(Step step, String handler, String expected, StepInput actual) {
        return PaganticException.builder(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                        handler + " handler: step '" + step.name() + "' expected " + expected + " input, got "
                                + actual.kind().wireName())
                .detail("step", step.name())
                .detail("expected", expected)
                .detail("actual", actual.kind().wireName())
                .build();
    }
}
