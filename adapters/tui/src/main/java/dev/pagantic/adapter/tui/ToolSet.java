package dev.pagantic.adapter.tui;

import dev.pagantic.core.ToolDefinition;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The tools the terminal registers: the registry handed to the orchestrator, and the definitions kept beside it for
 * {@code /tools}. The definitions are kept here rather than read back from the registry because an adapter only wires
 * band components up; it does not call into them.
 *
 * @param registry    the registry for {@code Orchestrator.Builder.tools}
 * @param definitions the registered tools' definitions, in registration order
 */
record ToolSet(ToolRegistry registry, List<ToolDefinition> definitions) {

    ToolSet {
        Objects.requireNonNull(registry, "registry");
        definitions = List.copyOf(definitions);
    }

    /** No tools. */
    static ToolSet none() {
        return builder().build();
    }

    static Builder builder() {
        return new Builder();
    }

    /** Whether no tool is registered. */
    boolean isEmpty() {
        return definitions.isEmpty();
    }

    /** Collects tools as definitions with their handlers. */
    static final class Builder {
        private final ToolRegistry.Builder registry = ToolRegistry.builder();
        private final List<ToolDefinition> definitions = new ArrayList<>();

        private Builder() {
        }

        /** Registers a tool. */
        Builder add(ToolDefinition definition, Tool.Handler handler) {
            return add(definition, Tool.builder(definition).handler(handler).build());
        }

        /** Registers a tool built elsewhere (an MCP server's), with its definition. */
        Builder add(ToolDefinition definition, Tool tool) {
            registry.add(tool);
            definitions.add(definition);
            return this;
        }

        ToolSet build() {
            return new ToolSet(registry.build(), definitions);
        }
    }
}
