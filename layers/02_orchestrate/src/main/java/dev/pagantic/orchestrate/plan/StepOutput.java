package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.Candidate;
import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import java.util.List;

/**
 * The data leaving a {@link Step}: a tagged wrapper holding one {@link StepData.Kind} of value, set by the step's
 * handler with {@link Step#withOutput(StepOutput)} and read through the typed accessors of {@link StepData}. It carries
 * results forward: {@link #toInput()} is the next step's input when that step has none of its own.
 */
public sealed interface StepOutput extends StepData
        permits StepData.Text, StepData.Messages, StepData.Candidates, StepData.Context, StepData.ToolCalls,
                StepData.ToolResults, StepData.InferenceRequest, StepData.InferenceResult, StepData.Group,
                StepData.Custom {

    /**
     * This output as the next step's input (auto-chaining): the same kind and the same value. Every variant is both
     * an input and an output, so the conversion never fails and never copies.
     */
    default StepInput toInput() {
        return (StepInput) this; // every permitted subtype implements StepInput
    }

    /** Text output, such as an answer. */
    static StepOutput text(String text) {
        return new StepData.Text(text);
    }

    /** Messages output, such as retrieved context messages. */
    static StepOutput messages(List<Message> messages) {
        return new StepData.Messages(messages);
    }

    /** Candidates output, such as reranked candidates. */
    static StepOutput candidates(List<Candidate> candidates) {
        return new StepData.Candidates(candidates);
    }

    /** Retrieved-context output. */
    static StepOutput context(ContextIR context) {
        return new StepData.Context(context);
    }

    /** Tool calls output, such as the calls a model requested. */
    static StepOutput toolCalls(List<ToolCall> toolCalls) {
        return new StepData.ToolCalls(toolCalls);
    }

    /** Tool results output. */
    static StepOutput toolResults(List<ToolResult> toolResults) {
        return new StepData.ToolResults(toolResults);
    }

    /** An inference request output, for a step that prepares a request. */
    static StepOutput request(Request request) {
        return new StepData.InferenceRequest(request);
    }

    /** An inference result output. */
    static StepOutput result(Result result) {
        return new StepData.InferenceResult(result);
    }

    /** The outputs of a parallel group, in the group's order. */
    static StepOutput group(List<StepOutput> outputs) {
        return new StepData.Group(outputs);
    }

    /** Any other value, for custom step types; read it back with {@link StepData#customValue(Class)}. */
    static StepOutput custom(Object value) {
        return new StepData.Custom(value);
    }
}
