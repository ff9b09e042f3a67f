package dev.pagantic.core;

/**
 * The seven failure categories of the failure taxonomy. Every {@link ErrorCode} belongs to exactly one category;
 * the category determines the recovery path and which layer emits the error.
 */
public enum FailureCategory {
    /** The engine failed, the model is unavailable, the context window was exceeded, or the response was malformed. */
    INFERENCE("InferenceFailure", "INFERENCE_"),
    /** A tool was not found, failed, timed out or became unavailable. */
    TOOL("ToolFailure", "TOOL_"),
    /** Output violated a grammar or schema, is not JSON, or holds an unrecognised enum value. */
    CONSTRAINT("ConstraintFailure", "CONSTRAINT_"),
    /** A validation rule or a semantic check failed. */
    VALIDATION("ValidationFailure", "VALIDATION_"),
    /** A loop or plan could not reach a terminal condition: iteration limit, step mismatch, no consensus. */
    ORCHESTRATION("OrchestrationFailure", "ORCHESTRATION_"),
    /** Missing or invalid configuration, detected when a component is built or a request is accepted. */
    CONFIGURATION("ConfigurationFailure", "CONFIG_"),
    /** The call was cancelled by its caller or ran past its deadline. */
    CANCELLATION("Cancellation", "CANCELLED_");

    private final String displayName;
    private final String codePrefix;

    FailureCategory(String displayName, String codePrefix) {
        this.displayName = displayName;
        this.codePrefix = codePrefix;
    }

    /** The specification's name of the category, for example {@code InferenceFailure}. */
    public String displayName() {
        return displayName;
    }

    /** The prefix every error code of this category starts with, for example {@code INFERENCE_}. */
    public String codePrefix() {
        return codePrefix;
    }
}
