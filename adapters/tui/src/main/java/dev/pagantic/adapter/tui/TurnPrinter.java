package dev.pagantic.adapter.tui;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.agent.AgentEvent;
import dev.pagantic.orchestrate.agent.AgentEventListener;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ToolCallRecord;
import dev.pagantic.orchestrate.facade.ValidationViolation;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Renders one turn. A chat turn is drawn from its agent events (seed 004) as they happen, each kind set apart from the
 * answer: the model's reasoning as {@code (thinking) ...}, a {@code ⚙ calling} line for each tool call before the tool
 * runs, its result ({@code ↳}, or {@code ✗} for a failure) as soon as it ran, and the answer's text deltas as they
 * stream. A structured turn has no agent events and its text is the raw material of the JSON shown at the end: its
 * tool-call lines come from the stream ({@link StreamHandler#onToolCall}) and its tool results from the response. When
 * the turn ends: the structured output, the error or cancellation, and the token usage with the generation speed.
 *
 * <p>Events and stream callbacks may come from the engine's thread, so writing is synchronized.
 */
final class TurnPrinter implements StreamHandler, AgentEventListener {

    private final PrintWriter out;
    private final boolean structured;
    private boolean atLineStart = true;
    private boolean inReasoning;

    /**
     * A printer for one turn.
     *
     * @param out        where the turn goes
     * @param structured whether the turn asks for structured output: then it is drawn from the stream, not from
     *                   agent events, and its text is not shown (a structured call with tools streams its tool
     *                   phase's text too, and a retry streams every attempt)
     */
    TurnPrinter(PrintWriter out, boolean structured) {
        this.out = Objects.requireNonNull(out, "out");
        this.structured = structured;
    }

    @Override
    public synchronized void onEvent(AgentEvent event) {
        if (event instanceof AgentEvent.Thinking thinking) {
            reasoning(thinking.text());
        } else if (event instanceof AgentEvent.ToolCallEvent call) {
            toolCall(call.toolName(), call.args());
        } else if (event instanceof AgentEvent.ToolResultEvent result) {
            endLine();
            line(result.error() ? "  ✗ " + result.toolName() + " failed: " + result.result()
                    : "  ↳ " + result.toolName() + " → " + result.result());
        } else if (event instanceof AgentEvent.TextDelta delta) {
            content(delta.text());
        }
    }

    /** A structured turn's tool call; a chat turn's come from its events. */
    @Override
    public synchronized void onToolCall(ToolCall call) {
        if (structured) {
            toolCall(call.name(), call.arguments());
        }
    }

    private void content(String delta) {
        if (inReasoning) {
            endLine();
            inReasoning = false;
        }
        write(delta);
    }

    private void reasoning(String delta) {
        if (!inReasoning) {
            endLine();
            write("(thinking) ");
            inReasoning = true;
        }
        write(delta);
    }

    private void toolCall(String name, Map<String, Object> arguments) {
        endLine();
        inReasoning = false;
        line("⚙ calling " + name + " " + arguments);
    }

    /**
     * Ends the turn: a structured turn's tool results and output, the error (a cancellation as
     * {@code ⏹ cancelled}), the usage.
     *
     * @param response the turn's response
     * @param elapsed  the turn's wall-clock time, for the speed when the engine reports no generation time
     */
    synchronized void finish(SystemResponse response, Duration elapsed) {
        endLine();
        if (structured) {
            for (ToolCallRecord call : response.toolCallsMade()) {
                String code = call.errorCode().map(error -> " (" + error + ")").orElse("");
                line(call.isError() ? "  ✗ " + call.name() + " failed" + code + ": " + call.result()
                        : "  ↳ " + call.name() + " → " + call.result());
            }
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
