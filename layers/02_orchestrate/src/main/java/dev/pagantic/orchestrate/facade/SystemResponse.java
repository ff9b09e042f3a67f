package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireElements;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.types.OutputType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The one way out of pagantic (seed 001's {@code SystemResponse}), returned by the facade after execution completes
 * or fails; adapters map it back to what their caller expects. Which fields a successful response fills depends on
 * the {@link Mode} (the seed's mode-to-pattern table): chat gives content, tool calls made and usage; structured adds
 * structured output and a validation result; plan gives per-step structured output and tool calls; redundant gives
 * structured output with a voting confidence.
 *
 * <ul>
 *   <li>{@code requestId}, {@code sessionId}: echoed from the request (the request id as assigned at INIT).</li>
 *   <li>{@code content}: the model's text; always there on success except when the model only called caller tools.
 *       In structured mode, the raw text before parsing. On failure it may hold partial output.</li>
 *   <li>{@code structuredOutput}: the parsed output when the contract has a schema, as an immutable JSON value tree of
 *       JDK types (see {@link JsonTrees}); empty without a schema.</li>
 *   <li>{@code toolCallsMade}: every tool invocation that ran, in order ({@link ToolCallRecord}).</li>
 *   <li>{@code toolCallsRequested}: beyond the seed, the calls of caller-executed tools the model asked for, which the
 *       caller must execute and answer in its next request; not empty exactly when the finish reason is
 *       {@link FinishReason#TOOL_CALLS}.</li>
 *   <li>{@code confidence}, {@code confidenceSource}: an optional score in [0, 1] and the mechanism that produced it;
 *       always both or neither.</li>
 *   <li>{@code validationResult}: the constraint and rule validation summary; empty when nothing was validated.</li>
 *   <li>{@code tokenUsage}: usage summed over every inference of the request.</li>
 *   <li>{@code error}: the failure; present exactly when the finish reason is {@link FinishReason#ERROR}.</li>
 *   <li>{@code finishReason}: beyond the seed, why the request ended ({@link FinishReason}).</li>
 * </ul>
 * Construction checks these invariants and fails with {@code CONFIG_INVALID}.
 *
 * @param requestId          the request id
 * @param sessionId          the session id; empty for a single-shot request
 * @param content            the text response
 * @param structuredOutput   the parsed output as a JSON value tree
 * @param toolCallsMade      the tool invocations that ran
 * @param toolCallsRequested the caller-executed tool calls to hand back
 * @param confidence         the confidence score in [0, 1]
 * @param confidenceSource   the mechanism behind the confidence
 * @param validationResult   the validation summary
 * @param tokenUsage         the aggregated token usage
 * @param error              the failure
 * @param finishReason       why the request ended
 */
public record SystemResponse(String requestId, String sessionId, String content, Optional<Object> structuredOutput,
                             List<ToolCallRecord> toolCallsMade, List<ToolCall> toolCallsRequested,
                             OptionalDouble confidence, Optional<ConfidenceSource> confidenceSource,
                             Optional<ValidationResult> validationResult, TokenUsage tokenUsage,
                             Optional<SystemError> error, FinishReason finishReason) {

    public SystemResponse {
        requireNonNull(requestId, "requestId");
        requireNonNull(sessionId, "sessionId");
        requireNonNull(content, "content");
        structuredOutput = requireNonNull(structuredOutput, "structuredOutput").flatMap(JsonTrees::canonical);
        toolCallsMade = requireElements(toolCallsMade, "toolCallsMade");
        toolCallsRequested = requireElements(toolCallsRequested, "toolCallsRequested");
        requireNonNull(confidence, "confidence");
        confidence.ifPresent(c -> require(c >= 0.0 && c <= 1.0, "confidence must be in [0, 1]: ", c));
        requireNonNull(confidenceSource, "confidenceSource");
        require(confidence.isPresent() == confidenceSource.isPresent(),
                "a confidence and its source go together");
        requireNonNull(validationResult, "validationResult");
        requireNonNull(tokenUsage, "tokenUsage");
        requireNonNull(error, "error");
        requireNonNull(finishReason, "finishReason");
        require(error.isPresent() == (finishReason == FinishReason.ERROR),
                "an error and the finish reason 'error' go together (finish reason: " + finishReason + ")");
        require(toolCallsRequested.isEmpty() != (finishReason == FinishReason.TOOL_CALLS),
                "requested tool calls and the finish reason 'tool_calls' go together (finish reason: "
                        + finishReason + ")");
    }

    /** A builder; the finish reason follows from the error and requested calls unless set. */
    public static Builder builder() {
        return new Builder();
    }

    /** A failed response echoing the request's ids, with no output and no usage. */
    public static SystemResponse failure(SystemRequest request, SystemError error) {
        return builder().correlation(request).error(error).build();
    }

    /** A builder starting from this response. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.requestId = requestId;
        builder.sessionId = sessionId;
        builder.content = content;
        builder.structuredOutput = structuredOutput;
        builder.toolCallsMade.addAll(toolCallsMade);
        builder.toolCallsRequested.addAll(toolCallsRequested);
        builder.confidence = confidence;
        builder.confidenceSource = confidenceSource;
        builder.validationResult = validationResult;
        builder.tokenUsage = tokenUsage;
        builder.error = error;
        builder.finishReason = Optional.of(finishReason);
        return builder;
    }

    /**
     * The structured output converted to a Java type; empty when there is none (a failed request, an answer cut off
     * at the token limit, a mode without a schema). Ask for the type's schema in the request's contract:
     *
     * <pre>{@code
     * OutputType<Invoice> invoice = OutputType.of(Invoice.class);
     * SystemRequest request = SystemRequest.builder().user(text).mode(Mode.STRUCTURED)
     *         .output(OutputContract.of(invoice.schema())).build();
     * Invoice result = orchestrator.execute(request).structuredOutput(invoice).orElseThrow();
     * }</pre>
     *
     * @throws dev.pagantic.core.PaganticException {@code CONSTRAINT_SCHEMA_INVALID} with the JSON pointer when the
     *                                             output does not convert to the type
     */
    public <T> Optional<T> structuredOutput(OutputType<T> type) {
        requireNonNull(type, "type");
        return structuredOutput.map(type::convert);
    }

    /** Whether the request succeeded (no error; handing caller tool calls back is a success). */
    public boolean isSuccess() {
        return error.isEmpty();
    }

    /** Whether the caller must execute tool calls and send their results in its next request. */
    public boolean hasToolCallsRequested() {
        return !toolCallsRequested.isEmpty();
    }

    /** Collects a response; {@link #build()} checks its invariants. */
    public static final class Builder {
        private String requestId = "";
        private String sessionId = "";
        private String content = "";
        private Optional<Object> structuredOutput = Optional.empty();
        private final List<ToolCallRecord> toolCallsMade = new ArrayList<>();
        private final List<ToolCall> toolCallsRequested = new ArrayList<>();
        private OptionalDouble confidence = OptionalDouble.empty();
        private Optional<ConfidenceSource> confidenceSource = Optional.empty();
        private Optional<ValidationResult> validationResult = Optional.empty();
        private TokenUsage tokenUsage = TokenUsage.ZERO;
        private Optional<SystemError> error = Optional.empty();
        private Optional<FinishReason> finishReason = Optional.empty();

        private Builder() {
        }

        /** The request id to echo. */
        public Builder requestId(String value) {
            this.requestId = requireNonNull(value, "requestId");
            return this;
        }

        /** The session id to echo. */
        public Builder sessionId(String value) {
            this.sessionId = requireNonNull(value, "sessionId");
            return this;
        }

        /** Echoes the request's request id and session id. */
        public Builder correlation(SystemRequest request) {
            requireNonNull(request, "request");
            return requestId(request.requestId()).sessionId(request.sessionId());
        }

        /** The text response. */
        public Builder content(String value) {
            this.content = requireNonNull(value, "content");
            return this;
        }

        /**
         * The parsed output: a JSON-like value, stored as its canonical immutable tree ({@link JsonTrees}); for a
         * Jackson node, pass {@code JsonTrees.fromJsonNode(node)}'s value.
         *
         * @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} when the value is not JSON
         */
        public Builder structuredOutput(Object value) {
            this.structuredOutput = JsonTrees.canonical(requireNonNull(value, "structuredOutput"));
            return this;
        }

        /** Removes the parsed output. */
        public Builder noStructuredOutput() {
            this.structuredOutput = Optional.empty();
            return this;
        }

        /** Appends a tool invocation that ran. */
        public Builder toolCallMade(ToolCallRecord value) {
            toolCallsMade.add(requireNonNull(value, "tool call"));
            return this;
        }

        /** Appends tool invocations that ran. */
        public Builder toolCallsMade(List<ToolCallRecord> values) {
            requireNonNull(values, "toolCallsMade").forEach(this::toolCallMade);
            return this;
        }

        /** Appends a caller-executed tool call to hand back. */
        public Builder toolCallRequested(ToolCall value) {
            toolCallsRequested.add(requireNonNull(value, "tool call"));
            return this;
        }

        /** Appends caller-executed tool calls to hand back. */
        public Builder toolCallsRequested(List<ToolCall> values) {
            requireNonNull(values, "toolCallsRequested").forEach(this::toolCallRequested);
            return this;
        }

        /** The confidence score in [0, 1] and the mechanism that produced it. */
        public Builder confidence(double value, ConfidenceSource source) {
            this.confidence = OptionalDouble.of(value);
            this.confidenceSource = Optional.of(requireNonNull(source, "confidenceSource"));
            return this;
        }

        /** The validation summary. */
        public Builder validationResult(ValidationResult value) {
            this.validationResult = Optional.of(requireNonNull(value, "validationResult"));
            return this;
        }

        /** The aggregated token usage; {@link TokenUsage#ZERO} by default. */
        public Builder tokenUsage(TokenUsage value) {
            this.tokenUsage = requireNonNull(value, "tokenUsage");
            return this;
        }

        /** The failure. */
        public Builder error(SystemError value) {
            this.error = Optional.of(requireNonNull(value, "error"));
            return this;
        }

        /**
         * Why the request ended. When not set: {@link FinishReason#ERROR} with an error, {@link FinishReason#TOOL_CALLS}
         * with requested tool calls, {@link FinishReason#STOP} otherwise.
         */
        public Builder finishReason(FinishReason value) {
            this.finishReason = Optional.of(requireNonNull(value, "finishReason"));
            return this;
        }

        /**
         * The response.
         *
         * @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} when an invariant does not hold
         */
        public SystemResponse build() {
            FinishReason reason = finishReason.orElseGet(() -> error.isPresent() ? FinishReason.ERROR
                    : !toolCallsRequested.isEmpty() ? FinishReason.TOOL_CALLS : FinishReason.STOP);
            return new SystemResponse(requestId, sessionId, content, structuredOutput, toolCallsMade,
                    toolCallsRequested, confidence, confidenceSource, validationResult, tokenUsage, error, reason);
        }
    }
}
