package dev.pagantic.tool;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ToolDefinition;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/** A tool built by {@link Tool.Builder}. */
final class FunctionTool implements Tool {

    private final ToolDefinition definition;
    private final Handler handler;
    private final ToolSafety safety;
    private final Supplier<Availability> availability;
    private final Optional<Duration> timeout;
    private final boolean inline;

    FunctionTool(ToolDefinition definition, Handler handler, ToolSafety safety, Supplier<Availability> availability,
                 Optional<Duration> timeout, boolean inline) {
        this.definition = definition;
        this.handler = handler;
        this.safety = safety;
        this.availability = availability;
        this.timeout = timeout;
        this.inline = inline;
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public String execute(CallContext ctx, Map<String, Object> arguments) throws Exception {
        return Objects.requireNonNull(handler.execute(ctx, arguments), "a tool must not return null");
    }

    @Override
    public Availability availability() {
        return availability.get();
    }

    @Override
    public ToolSafety safety() {
        return safety;
    }

    @Override
    public Optional<Duration> timeout() {
        return timeout;
    }

    @Override
    public boolean inline() {
        return inline;
    }

    @Override
    public String toString() {
        return "Tool[" + definition.name() + "]";
    }
}
