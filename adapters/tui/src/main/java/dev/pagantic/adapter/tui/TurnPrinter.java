package dev.pagantic.adapter.tui;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ToolCallRecord;
import dev.pagantic.orchestrate.facade.ValidationViolation;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Renders one turn: the model's text as it streams (content as it is, reasoning marked; not in structured mode), a
 * line for each tool call the moment the model makes it, and, when the turn ends, each tool's result, the structured
 * output, the error or cancellation, and the token usage with the generation speed.
 *
 * <p>The tool-call line comes from the stream ({@link StreamHandler#onToolCall}), which carries the arguments and
 * arrives before the tool runs; the results come from the response's {@link SystemResponse#toolCallsMade()}, as the
 * facade hands nothing else back. Callbacks may come from the engine's thread, so writing is synchronized.
 */
final class TurnPrinter implements StreamHandler {

    private final PrintWriter out;
    private final boolean structured;
    private boolean atLineStart = true;
    private boolean inReasoning;

    /**
     * A printer for one turn.
     *
     * @param out        where the turn goes
     * @param structured whether the turn asks for structured output: then the text is not streamed, since it is the
     *                   raw material of the JSON shown at the end (a structured call with tools streams its tool
     *                   phase's text too, and a retry streams every attempt)
     */
    TurnPrinter(PrintWriter out, boolean structured) {
        this.out = Objects.requireNonNull(out, "out");
        this.structured = structured;
    }

    @Override
    public synchronized void onContent(String delta) {
        if (structured) {
            return;
        }
        if (inReasoning) {
            endLine();
            inReasoning = false;
        }
        write(delta);
    }

    @Override
    public synchronized void onReasoning(String delta) {
        if (structured) {
            return;
        }
        if (!inReasoning) {
            endLine();
            write("(thinking) ");
            inReasoning = true;
        }
        write(delta);
    }

    @Override
    public synchronized void onToolCall(ToolCall call) {
        endLine();
        inReasoning = false;
        line("⚙ calling " + call.name() + " " + call.arguments());
    }

    /**
     * Ends the turn: tool results, structured output, the error (a cancellation as {@code ⏹ cancelled}), the
     * usage.
     *
     * @param response the turn's response
     * @param elapsed  the turn's wall-clock time, for the speed when the engine reports no generation time
     */
    synchronized void finish(SystemResponse response, Duration elapsed) {
        endLine();
        for (ToolCallRecord call : response.toolCallsMade()) {
            line(call.isError()
                    ? "  ✗ " + call.name() + " failed" + call.errorCode().map(code -> " (" + code + ")").orElse("")
                    + ": " + call.result()
                    : "  ↳ " + call.name() + " → " + call.result());
        }
        if (structured) {
            if (response.structuredOutput().isPresent()) {
                line("structured output:");
                line(JsonText.pretty(response.structuredOutput().get()));
            } else if (!response.content().isEmpty()) {
                line("output (not parsed): " + response.content());
            }
            response.validationResult().ifPresent(validation -> {
                for (ValidationViolation violation : validation.violations()) {
                    line("  ! " + violation.path() + ": " + violation.message());
                }
            });
        }
        response.error().ifPresent(this::error);
        if (response.finishReason() == FinishReason.LENGTH) {
            line("(cut off at the token limit)");
        }
        TokenUsage usage = response.tokenUsage();
        if (response.isSuccess() || usage.totalTokens() > 0) {
            line(usageLine(usage, elapsed));
        }
        out.flush();
    }

    /** An error line; a cancellation by the user is not an error but the end they asked for. */
    private void error(SystemError error) {
        if (error.code() == ErrorCode.CANCELLED_SIGNAL) {
            line("⏹ cancelled");
        } else {
            line("✗ " + error.code() + ": " + error.message());
        }
    }

    /**
     * The usage line. The speed is the engine's (generated tokens over generation time); an engine that records no
     * generation time gets generated tokens over the turn's wall-clock time, which includes prompt evaluation and
     * tools, so it is marked as such.
     */
    static String usageLine(TokenUsage usage, Duration elapsed) {
        int generated = usage.reasoningTokens() + usage.outputTokens();
        String speed;
        if (!usage.generationTime().isZero()) {
            speed = String.format(Locale.ROOT, "%.1f tokens/s", usage.tokensPerSecond());
        } else if (!elapsed.isZero() && !elapsed.isNegative()) {
            speed = String.format(Locale.ROOT, "%.1f tokens/s (wall clock)",
                    generated * 1_000_000_000.0 / elapsed.toNanos());
        } else {
            speed = "speed unknown";
        }
        String reasoning = usage.reasoningTokens() > 0 ? " + " + usage.reasoningTokens() + " reasoning" : "";
        return String.format(Locale.ROOT, "[%d prompt + %d output%s = %d tokens, %s, %.2f s]", usage.promptTokens(),
                usage.outputTokens(), reasoning, usage.totalTokens(), speed, elapsed.toNanos() / 1e9);
    }

    private void write(String text) {
        if (text.isEmpty()) {
            return;
        }
        out.print(text);
        out.flush();
        atLineStart = text.endsWith("\n");
    }

    private void line(String text) {
        out.println(text);
        out.flush();
        atLineStart = true;
    }

    private void endLine() {
        if (!atLineStart) {
            line("");
        }
    }
}
