package dev.pagantic.tool;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A function the model may call: its {@link ToolDefinition} (name, description, parameter schema), how to execute it,
 * whether it is available right now, and its safety metadata.
 *
 * <p>Implement it directly, build one from a lambda with {@link #builder(ToolDefinition)}, or annotate methods of a
 * plain object with {@link dev.pagantic.tool.annotation.Tool @Tool} and register the object
 * ({@link ToolRegistry.Builder#addAnnotated(Object)}).
 *
 * <p>Tools are run by a {@link ToolExecutor}, which turns every failure into an error {@link
 * dev.pagantic.core.ToolResult} for the model: {@link #execute} may simply throw. A long-running tool should honour
 * its context ({@link CallContext#throwIfDone()}, {@link CallContext#sleep}, {@link CallContext#onCancel}) and thread
 * interruption: both signal its timeout.
 *
 * <pre>{@code
 * Tool clock = Tool.builder(ToolDefinition.of("now", "The current UTC time", Schema.object().build()))
 *         .safety(ToolSafety.READ_ONLY)
 *         .handler((ctx, args) -> Instant.now().toString())
 *         .build();
 * }</pre>
 */
public interface Tool {

    /** The definition the model sees. */
    ToolDefinition definition();

    /** The tool's name, from its definition. */
    default String name() {
        return definition().name();
    }

    /**
     * Runs the tool. The arguments have been checked against the definition's parameter schema by the executor.
     *
     * @param ctx       the tool's context: a child span caused by the tool call id, with the tool's deadline
     * @param arguments the call's arguments, an immutable JSON object
     * @return the output fed back to the model
     * @throws Exception any failure; the executor reports it as {@code TOOL_EXECUTION_FAILED} (or, for a
     *                   {@link PaganticException} with a tool code, that code)
     */
    String execute(CallContext ctx, Map<String, Object> arguments) throws Exception;

    /** Whether the tool can be called now; available unless overridden. Must be quick and must not throw. */
    default Availability availability() {
        return Availability.AVAILABLE;
    }

    /** Safety metadata; {@link ToolSafety#UNKNOWN} (side effects unknown, not idempotent) unless overridden. */
    default ToolSafety safety() {
        return ToolSafety.UNKNOWN;
    }

    /** This tool's own timeout, overriding the executor's default; empty unless overridden. */
    default Optional<Duration> timeout() {
        return Optional.empty();
    }

    /**
     * Whether the executor runs this tool on the caller's thread rather than on its pool; false unless overridden.
     * Meant for quick tools that never block (an in-memory lookup, arithmetic): it spares the two thread hand-offs
     * per call that isolating a tool costs. The price: such a tool cannot be abandoned, so its timeout is only the
     * deadline in its context, which it must honour itself, and a tool that hangs blocks its caller.
     */
    default boolean inline() {
        return false;
    }

    /** Starts building a tool from a definition and a handler. */
    static Builder builder(ToolDefinition definition) {
        return new Builder(definition);
    }

    /** The body of a tool built with {@link Tool#builder}. */
    @FunctionalInterface
    interface Handler {
        /** Runs the tool; see {@link Tool#execute}. */
        String execute(CallContext ctx, Map<String, Object> arguments) throws Exception;
    }

    /** Builds a {@link Tool} from a handler; validated at {@link #build()}. */
    final class Builder {
        private final ToolDefinition definition;
        private @Nullable Handler handler;
        private ToolSafety safety = ToolSafety.UNKNOWN;
        private Supplier<Availability> availability = () -> Availability.AVAILABLE;
        private @Nullable Duration timeout;
        private boolean inline;

        private Builder(ToolDefinition definition) {
            this.definition = definition;
        }

        /** The tool's body (required). */
        public Builder handler(Handler body) {
            this.handler = body;
            return this;
        }

        /** Safety metadata; {@link ToolSafety#UNKNOWN} by default. */
        public Builder safety(ToolSafety value) {
            this.safety = value;
            return this;
        }

        /** Where the tool's current availability comes from; always available by default. */
        public Builder availability(Supplier<Availability> source) {
            this.availability = source;
            return this;
        }

        /** The tool's own timeout, overriding the executor's default. */
        public Builder timeout(Duration value) {
            this.timeout = value;
            return this;
        }

        /** Runs the tool on the caller's thread; see {@link Tool#inline()}. Off by default. */
        public Builder inline(boolean value) {
            this.inline = value;
            return this;
        }

        /** The tool; fails with {@code CONFIG_INVALID} when the definition or handler is missing. */
        public Tool build() {
            if (definition == null || handler == null || safety == null || availability == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "a tool needs a definition, a handler, safety metadata and an availability source");
            }
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "tool timeout must be positive: " + timeout)
                        .detail("tool", definition.name()).build();
            }
            return new FunctionTool(definition, handler, safety, availability, Optional.ofNullable(timeout), inline);
        }
    }
}
