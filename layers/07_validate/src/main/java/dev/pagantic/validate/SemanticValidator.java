package dev.pagantic.validate;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;

/**
 * Judges whether an output makes sense for its input: hallucination, contradiction, nonsense, off-topic answers.
 * Unlike a {@link Rule}, a semantic check may be expensive and non-deterministic (it may ask a model); orchestrate
 * runs it in the VALIDATE state after the rules. {@link LlmJudgeValidator} is the provided implementation.
 */
@FunctionalInterface
public interface SemanticValidator {

    /**
     * Judges the output.
     *
     * @param context the call's context (deadline, cancellation)
     * @param input   what the model was asked (the user's message, or a summary of the task); may be empty
     * @param output  what the model answered
     * @return the verdict; a judge that could not reach one throws instead
     */
    SemanticVerdict evaluate(CallContext context, String input, String output);

    /**
     * Judges the output and throws {@code VALIDATION_SEMANTIC_FAILED} (retryable) with the verdict's reason when it
     * is not valid. Details: {@code reason}.
     */
    default void validate(CallContext context, String input, String output) {
        SemanticVerdict verdict = evaluate(context, input, output);
        if (!verdict.valid()) {
            String reason = verdict.reason().isBlank() ? "no reason given" : verdict.reason();
            throw PaganticException.builder(ErrorCode.VALIDATION_SEMANTIC_FAILED,
                            "semantic validation failed: " + reason)
                    .detail("reason", reason)
                    .build();
        }
    }
}
