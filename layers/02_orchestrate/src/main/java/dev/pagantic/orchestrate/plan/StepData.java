package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.requireElements;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.util.List;
import java.util.Locale;

/**
 * The data that crosses a plan's step boundaries: the common supertype of {@link StepInput} and {@link StepOutput},
 * the tagged wrappers of the specification's intermediate representation. Each variant (a record nested here) holds one
 * {@link Kind} of value, and every variant is both an input and an output, so that a step's output becomes the next
 * step's input unchanged ({@link StepOutput#toInput()}, the auto-chaining of the specification).
 *
 * <h2>Typed access</h2>
 * A handler reads its input through the typed accessor of the kind it accepts: {@link #text()}, {@link #messages()},
 * {@link #candidates()}, {@link #context()}, {@link #toolCalls()}, {@link #toolResults()}, {@link #request()},
 * {@link #result()}, {@link #group()} or {@link #customValue(Class)}. The accessor of any other kind fails with
 * {@link ErrorCode#ORCHESTRATION_STEP_MISMATCH}, naming the expected and the actual kind in the message and in the
 * details {@code expected} and {@code actual}: that is how a step that receives the wrong type of input fails.
 * <pre>{@code
 * StepHandler summarize = (ctx, step) -> {
 *     String text = step.requireInput().text(); // ORCHESTRATION_STEP_MISMATCH unless the input is text
 *     return step.withOutput(StepOutput.text(text.strip()));
 * };
 * }</pre>
 *
 * <p>All variants are immutable: lists are copied, and null values or elements are refused with
 * {@code CONFIG_INVALID}.
 */
public sealed interface StepData permits StepInput, StepOutput {

    /** The kinds of value a step's input or output can hold. */
    enum Kind {
        /** Plain text: a query, a prompt, an answer. */
        TEXT,
        /** A list of conversation messages (what a retrieve step produces). */
        MESSAGES,
        /** Scored candidates ({@link Candidate}), for reranking or voting. */
        CANDIDATES,
        /** Retrieved context with provenance ({@link ContextIR}). */
        CONTEXT,
        /** Tool calls to run. */
        TOOL_CALLS,
        /** The results of tool calls. */
        TOOL_RESULTS,
        /** An inference {@link Request}. */
        REQUEST,
        /** An inference {@link Result}. */
        RESULT,
        /** The outputs of a parallel group of steps, in the group's order. */
        GROUP,
        /** Any other value, for custom step types. */
        CUSTOM;

        /** The lower-case name used in messages and error details, such as {@code "tool_calls"}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Which kind of value this holds. */
    Kind kind();

    /** The held value, untyped: the text, the list, the request... */
    Object value();

    /** Whether this holds a value of the given kind. */
    default boolean is(Kind kind) {
        return kind() == kind;
    }

    /**
     * The text.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#TEXT}
     */
    default String text() {
        throw mismatch(Kind.TEXT, this);
    }

    /**
     * The messages, an immutable list.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#MESSAGES}
     */
    default List<Message> messages() {
        throw mismatch(Kind.MESSAGES, this);
    }

    /**
     * The candidates, an immutable list.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#CANDIDATES}
     */
    default List<Candidate> candidates() {
        throw mismatch(Kind.CANDIDATES, this);
    }

    /**
     * The retrieved context.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#CONTEXT}
     */
    default ContextIR context() {
        throw mismatch(Kind.CONTEXT, this);
    }

    /**
     * The tool calls, an immutable list.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#TOOL_CALLS}
     */
    default List<ToolCall> toolCalls() {
        throw mismatch(Kind.TOOL_CALLS, this);
    }

    /**
     * The tool results, an immutable list.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#TOOL_RESULTS}
     */
    default List<ToolResult> toolResults() {
        throw mismatch(Kind.TOOL_RESULTS, this);
    }

    /**
     * The inference request.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#REQUEST}
     */
    default Request request() {
        throw mismatch(Kind.REQUEST, this);
    }

    /**
     * The inference result.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#RESULT}
     */
    default Result result() {
        throw mismatch(Kind.RESULT, this);
    }

    /**
     * The outputs of a parallel group, in the group's order, an immutable list.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#GROUP}
     */
    default List<StepOutput> group() {
        throw mismatch(Kind.GROUP, this);
    }

    /**
     * The custom value, as the given type.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} unless this holds {@link Kind#CUSTOM} with a value
     *                           of the given type (the details then name the expected and actual classes)
     */
    default <T> T customValue(Class<T> type) {
        throw mismatch(Kind.CUSTOM, this);
    }

    /** The {@code ORCHESTRATION_STEP_MISMATCH} failure for an access of the wrong kind. */
    private static PaganticException mismatch(Kind expected, StepData actual) {
        return PaganticException.builder(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                        "expected " + expected.wireName() + " step data, got " + actual.kind().wireName())
                .detail("expected", expected.wireName())
                .detail("actual", actual.kind().wireName())
                .build();
    }

    /**
     * Text.
     *
     * @param text the text; may be empty
     */
    record Text(String text) implements StepInput, StepOutput {
        /** Checks the field; {@code CONFIG_INVALID} for null. */
        public Text {
            requireNonNull(text, "text");
        }

        @Override
        public Kind kind() {
            return Kind.TEXT;
        }

        @Override
        public Object value() {
            return text;
        }
    }

    /**
     * Messages.
     *
     * @param messages the messages, in order; an immutable copy; may be empty
     */
    record Messages(List<Message> messages) implements StepInput, StepOutput {
        /** Copies the list; {@code CONFIG_INVALID} for a null list or null elements. */
        public Messages {
            messages = requireElements(messages, "messages");
        }

        @Override
        public Kind kind() {
            return Kind.MESSAGES;
        }

        @Override
        public Object value() {
            return messages;
        }
    }

    /**
     * Candidates.
     *
     * @param candidates the candidates, in order; an immutable copy; may be empty
     */
    record Candidates(List<Candidate> candidates) implements StepInput, StepOutput {
        /** Copies the list; {@code CONFIG_INVALID} for a null list or null elements. */
        public Candidates {
            candidates = requireElements(candidates, "candidates");
        }

        @Override
        public Kind kind() {
            return Kind.CANDIDATES;
        }

        @Override
        public Object value() {
            return candidates;
        }
    }

    /**
     * Retrieved context.
     *
     * @param context the context
     */
    record Context(ContextIR context) implements StepInput, StepOutput {
        /** Checks the field; {@code CONFIG_INVALID} for null. */
        public Context {
            requireNonNull(context, "context");
        }

        @Override
        public Kind kind() {
            return Kind.CONTEXT;
        }

        @Override
        public Object value() {
            return context;
        }
    }

    /**
     * Tool calls.
     *
     * @param toolCalls the calls, in order; an immutable copy; may be empty
     */
    record ToolCalls(List<ToolCall> toolCalls) implements StepInput, StepOutput {
        /** Copies the list; {@code CONFIG_INVALID} for a null list or null elements. */
        public ToolCalls {
            toolCalls = requireElements(toolCalls, "toolCalls");
        }

        @Override
        public Kind kind() {
            return Kind.TOOL_CALLS;
        }

        @Override
        public Object value() {
            return toolCalls;
        }
    }

    /**
     * Tool results.
     *
     * @param toolResults the results, in order; an immutable copy; may be empty
     */
    record ToolResults(List<ToolResult> toolResults) implements StepInput, StepOutput {
        /** Copies the list; {@code CONFIG_INVALID} for a null list or null elements. */
        public ToolResults {
            toolResults = requireElements(toolResults, "toolResults");
        }

        @Override
        public Kind kind() {
            return Kind.TOOL_RESULTS;
        }

        @Override
        public Object value() {
            return toolResults;
        }
    }

    /**
     * An inference request.
     *
     * @param request the request
     */
    record InferenceRequest(Request request) implements StepInput, StepOutput {
        /** Checks the field; {@code CONFIG_INVALID} for null. */
        public InferenceRequest {
            requireNonNull(request, "request");
        }

        @Override
        public Kind kind() {
            return Kind.REQUEST;
        }

        @Override
        public Object value() {
            return request;
        }
    }

    /**
     * An inference result.
     *
     * @param result the result
     */
    record InferenceResult(Result result) implements StepInput, StepOutput {
        /** Checks the field; {@code CONFIG_INVALID} for null. */
        public InferenceResult {
            requireNonNull(result, "result");
        }

        @Override
        public Kind kind() {
            return Kind.RESULT;
        }

        @Override
        public Object value() {
            return result;
        }
    }

    /**
     * The outputs of a parallel group of steps, collected in the group's order. The executor feeds it, as one input,
     * to the step after the group when that step has no explicit input.
     *
     * @param group the outputs, in the group's order; an immutable copy
     */
    record Group(List<StepOutput> group) implements StepInput, StepOutput {
        /** Copies the list; {@code CONFIG_INVALID} for a null list or null elements. */
        public Group {
            group = requireElements(group, "group");
        }

        @Override
        public Kind kind() {
            return Kind.GROUP;
        }

        @Override
        public Object value() {
            return group;
        }
    }

    /**
     * Any other value, for custom step types (a {@link dev.pagantic.orchestrate.ports.RerankInput}, a domain object).
     * Prefer a typed variant where
     * one fits: a string held here is not {@link Kind#TEXT} and {@link #text()} refuses it.
     *
     * @param value the value
     */
    record Custom(Object value) implements StepInput, StepOutput {
        /** Checks the field; {@code CONFIG_INVALID} for null. */
        public Custom {
            requireNonNull(value, "value");
        }

        @Override
        public Kind kind() {
            return Kind.CUSTOM;
        }

        @Override
        public <T> T customValue(Class<T> type) {
            if (!type.isInstance(value)) {
                throw PaganticException.builder(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                                "expected custom step data of type " + type.getName() + ", got "
                                        + value.getClass().getName())
                        .detail("expected", type.getName())
                        .detail("actual", value.getClass().getName())
                        .build();
            }
            return type.cast(value);
        }
    }
}
