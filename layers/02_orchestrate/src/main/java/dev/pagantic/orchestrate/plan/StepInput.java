package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.Candidate;
import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.util.List;

/**
 * The data entering a {@link Step}: a tagged wrapper holding one {@link StepData.Kind} of value, read through the
 * typed accessors of {@link StepData} (which fail with {@code ORCHESTRATION_STEP_MISMATCH} for the wrong kind).
 * Create one with the factories here; a step without input ({@link Step#input()} empty) is auto-chained from the
 * previous step's output ({@link StepOutput#toInput()}).
 */
public sealed interface StepInput extends StepData
        permits StepData.Text, StepData.Messages, StepData.Candidates, StepData.Context, StepData.ToolCalls,
                StepData.ToolResults, StepData.InferenceRequest, StepData.InferenceResult, StepData.Group,
                StepData.Custom {

    /**
     * This input as an output, unchanged: what a pass-through step (a validate step that accepts its input) returns.
     * Every variant is both an input and an output, so the conversion never fails and never copies.
     */
    default StepOutput toOutput() {
        return (StepOutput) this; // every permitted subtype implements StepOutput
    }

    /** Text input, such as a query or a prompt. */
    static StepInput text(String text) {
        return new StepData.Text(text);
    }

    /** Messages input. */
    static StepInput messages(List<Message> messages) {
        return new StepData.Messages(messages);
    }

    /** Candidates input. */
    static StepInput candidates(List<Candidate> candidates) {
        return new StepData.Candidates(candidates);
    }

    /** Retrieved-context input. */
    static StepInput context(ContextIR context) {
        return new StepData.Context(context);
    }

    /** Tool calls to run. */
    static StepInput toolCalls(List<ToolCall> toolCalls) {
        return new StepData.ToolCalls(toolCalls);
    }

    /** Tool results input. */
    static StepInput toolResults(List<ToolResult> toolResults) {
        return new StepData.ToolResults(toolResults);
    }

    /** An inference request to run. */
    static StepInput request(Request request) {
        return new StepData.InferenceRequest(request);
    }

    /** An inference result input. */
    static StepInput result(Result result) {
        return new StepData.InferenceResult(result);
    }

    /** Any other value, for custom step types; read it back with {@link StepData#customValue(Class)}. */
    static StepInput custom(Object value) {
        return new StepData.Custom(value);
    }
}
