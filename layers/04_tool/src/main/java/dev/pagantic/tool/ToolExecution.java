package dev.pagantic.tool;

import dev.pagantic.core.Correlation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of one tool call: the {@link ToolResult} to feed back to the model, and the failure as structured data
 * for the loop's retry decisions.
 *
 * @param call        the model's call
 * @param result      what the model sees; {@code isError} when the call failed, with content naming the error code
 * @param errorCode   the failure's code; empty on success
 * @param retryable   whether running the same call again has a reasonable chance of success without harm: the
 *                    code's default, except that {@code TOOL_EXECUTION_FAILED} and {@code TOOL_TIMEOUT} (the tool
 *                    ran, perhaps partly) are retryable exactly when the tool is idempotent; false on success
 * @param duration    from start to end, by the call context's clock
 * @param correlation the tool's span (the same ids as its events)
 */
public record ToolExecution(ToolCall call, ToolResult result, Optional<ErrorCode> errorCode, boolean retryable,
                            Duration duration, Correlation correlation) {

    public ToolExecution {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(errorCode, "errorCode");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(correlation, "correlation");
    }

    /** Whether the tool ran and returned normally. */
    public boolean succeeded() {
        return errorCode.isEmpty();
    }
}
