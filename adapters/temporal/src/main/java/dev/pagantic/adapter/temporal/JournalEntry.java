package dev.pagantic.adapter.temporal;

import org.jspecify.annotations.Nullable;

/**
 * The recorded outcome of one intercepted invocation (a plan step, an engine call or a tool call), as plain data that
 * Temporal keeps in the workflow's history: either a result ({@code resultType} and {@code resultJson}, written by
 * {@link ResultCodec}) or a failure ({@code errorCode} and {@code errorMessage}). The final response is kept the same
 * way ({@link DurableResult#response()}).
 *
 * @param key          which invocation this answers: its kind, its name, a digest of its input and how many
 *                     invocations with the same kind, name and input came before it in the run
 *                     ({@link ResultCodec#key}); a replay is answered by key, not by position, so that invocations
 *                     that run concurrently (redundant replicas, voters) find their own outcomes whatever order they
 *                     arrive in
 * @param kind         the invocation kind's name ({@code PLAN_STEP}, {@code INFERENCE} or {@code TOOL_CALL}); null
 *                     for a failure
 * @param name         the step, model or tool name the invocation ran; null for a failure
 * @param resultType   the result's class name; null for a failure
 * @param resultJson   the result as JSON; null for a failure
 * @param errorCode    the {@link dev.pagantic.core.ErrorCode} name of a failed invocation; null for a result
 * @param errorMessage the failure's message; null for a result
 */
public record JournalEntry(String key, @Nullable String kind, @Nullable String name, @Nullable String resultType,
                           @Nullable String resultJson, @Nullable String errorCode, @Nullable String errorMessage) {

    static JournalEntry failure(String key, String code, String message) {
        return new JournalEntry(key, null, null, null, null, code, message);
    }

    boolean failed() {
        return errorCode != null;
    }
}
