package dev.pagantic.core;

/**
 * Stable, machine-readable error codes. Callers switch on these (or on {@link #category()}) rather than on messages.
 *
 * <p>The first block is the specification's table; the codes after it extend it following the same
 * {@code CATEGORY_SPECIFIC} pattern. {@code docs/errors.md} lists every code with its category and retryability.
 * Retryability here is the default: where the emitter knows better (an idempotent tool, a 429 with Retry-After), the
 * {@link PaganticException} it throws says so.
 */
public enum ErrorCode {
    /** The engine returned an unrecoverable error (HTTP 5xx, connection refused, a native failure). */
    INFERENCE_ENGINE_ERROR(FailureCategory.INFERENCE, true),
    /** The requested model is not loaded or does not exist on the engine. */
    INFERENCE_MODEL_UNAVAILABLE(FailureCategory.INFERENCE, false),
    /** The input does not fit the model's context window; the request must shrink. */
    INFERENCE_CONTEXT_EXCEEDED(FailureCategory.INFERENCE, false),
    /** The engine's response could not be parsed into the expected format. */
    INFERENCE_MALFORMED_RESPONSE(FailureCategory.INFERENCE, true),

    /** The model asked for a tool that is not registered (or not allowed for this request). */
    TOOL_NOT_FOUND(FailureCategory.TOOL, false),
    /** The tool ran and failed. Not retried by default: the tool may not be idempotent. */
    TOOL_EXECUTION_FAILED(FailureCategory.TOOL, false),
    /** The tool ran past its deadline and was cancelled. Not retried by default: it may have had effects. */
    TOOL_TIMEOUT(FailureCategory.TOOL, false),
    /** The tool reported itself unavailable before running; a later attempt may find it back. */
    TOOL_UNAVAILABLE(FailureCategory.TOOL, true),

    /** Output violated the GBNF grammar. */
    CONSTRAINT_GRAMMAR_REJECTED(FailureCategory.CONSTRAINT, true),
    /** Output failed JSON Schema validation. */
    CONSTRAINT_SCHEMA_INVALID(FailureCategory.CONSTRAINT, true),
    /** Output is not valid JSON (and could not be repaired, where repair was allowed). */
    CONSTRAINT_JSON_INVALID(FailureCategory.CONSTRAINT, true),
    /** Output holds an enum value outside the allowed set, even after normalisation. */
    CONSTRAINT_ENUM_UNRECOGNIZED(FailureCategory.CONSTRAINT, true),

    /** One or more validation rules failed. */
    VALIDATION_RULE_FAILED(FailureCategory.VALIDATION, true),
    /** Semantic validation found hallucination, contradiction or nonsense. */
    VALIDATION_SEMANTIC_FAILED(FailureCategory.VALIDATION, true),

    /** A plan step received input of a type it does not accept. */
    ORCHESTRATION_STEP_MISMATCH(FailureCategory.ORCHESTRATION, false),
    /** A loop exceeded its maximum iteration count. */
    ORCHESTRATION_ITERATION_LIMIT(FailureCategory.ORCHESTRATION, false),
    /** Voting could not reach consensus across replicas. */
    ORCHESTRATION_NO_CONSENSUS(FailureCategory.ORCHESTRATION, false),

    /** No inference engine was configured. */
    CONFIG_NO_ENGINE(FailureCategory.CONFIGURATION, false),
    /** The mode requires a schema and none was given. */
    CONFIG_SCHEMA_REQUIRED(FailureCategory.CONFIGURATION, false),
    /** A grammar file that the configuration names does not exist. */
    CONFIG_GRAMMAR_NOT_FOUND(FailureCategory.CONFIGURATION, false),

    /** Explicit or implied timeout: the deadline passed. */
    CANCELLED_TIMEOUT(FailureCategory.CANCELLATION, false),
    /** Explicit cancellation by the caller. */
    CANCELLED_SIGNAL(FailureCategory.CANCELLATION, false),

    // ---- Codes beyond the specification's table, same pattern. ----

    /** The engine has been closed and can serve no more calls. */
    INFERENCE_ENGINE_CLOSED(FailureCategory.INFERENCE, false),
    /** The engine, or a pool in front of it, is at capacity; retry after a back-off. */
    INFERENCE_SATURATED(FailureCategory.INFERENCE, true),
    /** The model called a tool with arguments that do not match its parameter schema; the tool did not run. */
    TOOL_INVALID_ARGUMENTS(FailureCategory.TOOL, true),
    /** A stateful component (such as an agent loop) was used by two callers at once; the second is refused. */
    ORCHESTRATION_CONCURRENT_USE(FailureCategory.ORCHESTRATION, false),
    /** A configuration value or request field is invalid (a builder's {@code build()} or a request's validation). */
    CONFIG_INVALID(FailureCategory.CONFIGURATION, false),
    /** A GBNF grammar is malformed; it is refused before it reaches the decoder. */
    CONFIG_GRAMMAR_INVALID(FailureCategory.CONFIGURATION, false),
    /** The request needs a capability (grammar, schema, tools, embeddings...) that the engine does not declare. */
    CONFIG_UNSUPPORTED_CAPABILITY(FailureCategory.CONFIGURATION, false);

    private final FailureCategory category;
    private final boolean retryable;

    ErrorCode(FailureCategory category, boolean retryable) {
        this.category = category;
        this.retryable = retryable;
    }

    /** The category this code belongs to. */
    public FailureCategory category() {
        return category;
    }

    /** Whether re-submitting the same request has, by default, a reasonable chance of success. */
    public boolean retryable() {
        return retryable;
    }
}
