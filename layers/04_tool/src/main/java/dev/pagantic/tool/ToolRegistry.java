package dev.pagantic.tool;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tools an application offers, by name, in registration order.
 *
 * <p>A registry is immutable once built, and therefore safe to share between threads and requests. Per-request
 * scoping is a view: {@link #allowOnly(Collection)} returns a registry that holds only the whitelisted tools and
 * remembers the others as hidden, so that a call to one of them is reported as not allowed rather than unknown.
 *
 * <pre>{@code
 * ToolRegistry tools = ToolRegistry.builder()
 *         .add(searchTool)
 *         .addAnnotated(new WeatherTools(client))   // every @Tool method of the object
 *         .build();
 * ToolRegistry forThisRequest = tools.allowOnly(List.of("search"));
 * }</pre>
 */
public final class ToolRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ToolRegistry.class);

    private final Map<String, Tool> tools; // registration order
    private final Set<String> hidden; // registered in the parent but not whitelisted here

    private ToolRegistry(Map<String, Tool> tools, Set<String> hidden) {
        this.tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
        this.hidden = Collections.unmodifiableSet(new LinkedHashSet<>(hidden));
    }

    /** Starts building a registry. */
    public static Builder builder() {
        return new Builder();
    }

    /** A registry of the given tools, in the given order; duplicate names are refused with {@code CONFIG_INVALID}. */
    public static ToolRegistry of(Tool... tools) {
        return builder().addAll(List.of(tools)).build();
    }

    /** The registry without tools. */
    public static ToolRegistry empty() {
        return builder().build();
    }

    /** The tool with the given name, if registered (and, in a whitelisted view, allowed). */
    public Optional<Tool> lookup(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** Whether a tool of that name is registered (and allowed). */
    public boolean contains(String name) {
        return tools.containsKey(name);
    }

    /**
     * Whether the name belongs to a tool that is registered but not allowed in this whitelisted view. Always false
     * for a registry that is not a view.
     */
    public boolean isHidden(String name) {
        return hidden.contains(name);
    }

    /** All tools, available or not, in registration order. */
    public List<Tool> tools() {
        return List.copyOf(tools.values());
    }

    /** All tool names, in registration order. */
    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    /** The number of tools. */
    public int size() {
        return tools.size();
    }

    /** Whether there are no tools. */
    public boolean isEmpty() {
        return tools.isEmpty();
    }

    /**
     * The definitions of the tools that are available now, in registration order: what a request offers the model.
     * A tool whose availability check throws is treated as unavailable.
     */
    public List<ToolDefinition> definitions() {
        List<ToolDefinition> definitions = new ArrayList<>(tools.size());
        for (Tool tool : tools.values()) {
            if (availabilityOf(tool).available()) {
                definitions.add(tool.definition());
            }
        }
        return List.copyOf(definitions);
    }

    /** The names of the tools that are available now, in registration order. */
    public List<String> availableNames() {
        List<String> names = new ArrayList<>(tools.size());
        for (Tool tool : tools.values()) {
            if (availabilityOf(tool).available()) {
                names.add(tool.name());
            }
        }
        return List.copyOf(names);
    }

    /**
     * A view holding only the named tools, in this registry's order, for per-request scoping. Calls to the other
     * tools are reported by the executor as {@code TOOL_NOT_FOUND} (not allowed for this request).
     *
     * @throws PaganticException {@code CONFIG_INVALID} when a name is not a tool of this registry: a typo in a
     *                           whitelist must not silently remove a tool
     */
    public ToolRegistry allowOnly(Collection<String> names) {
        Objects.requireNonNull(names, "names");
        Set<String> allowed = new LinkedHashSet<>();
        for (String name : names) {
            if (!tools.containsKey(name)) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                                "tool whitelist names '" + name + "', which is not a tool of this registry "
                                        + (hidden.contains(name) ? "(it was excluded by an earlier whitelist)"
                                        : "(registered: " + String.join(", ", tools.keySet()) + ")"))
                        .detail("tool", name).build();
            }
            allowed.add(name);
        }
        Map<String, Tool> kept = new LinkedHashMap<>();
        Set<String> excluded = new LinkedHashSet<>(hidden);
        tools.forEach((name, tool) -> {
            if (allowed.contains(name)) {
                kept.put(name, tool);
            } else {
                excluded.add(name);
            }
        });
        return new ToolRegistry(kept, excluded);
    }

    /** A view holding only the named tools; see {@link #allowOnly(Collection)}. */
    public ToolRegistry allowOnly(String... names) {
        return allowOnly(List.of(names));
    }

    /** The tool's availability; a check that throws or returns null makes the tool unavailable. */
    static Availability availabilityOf(Tool tool) {
        try {
            Availability availability = tool.availability();
            return availability != null ? availability
                    : Availability.unavailable("the availability check returned nothing");
        } catch (RuntimeException e) {
            LOG.warn("availability check of tool '{}' failed; treating it as unavailable", tool.name(), e);
            return Availability.unavailable("the availability check failed: " + e);
        }
    }

    @Override
    public String toString() {
        return "ToolRegistry" + tools.keySet();
    }

    /** Builds an immutable {@link ToolRegistry}; duplicate names are refused at {@link #build()}. */
    public static final class Builder {
        private final List<Tool> tools = new ArrayList<>();

        private Builder() {
        }

        /** Adds a tool. */
        public Builder add(Tool tool) {
            tools.add(Objects.requireNonNull(tool, "tool"));
            return this;
        }

        /** Adds the tools in the given order. */
        public Builder addAll(Collection<? extends Tool> more) {
            more.forEach(this::add);
            return this;
        }

        /**
         * Adds a tool for every {@link dev.pagantic.tool.annotation.Tool @Tool} method of the object, in tool name
         * order, converting arguments with pagantic's default JSON mapper. See {@link AnnotatedTools}.
         *
         * @throws PaganticException {@code CONFIG_INVALID} when the object has no such method or a parameter type is
         *                           not supported
         */
        public Builder addAnnotated(Object target) {
            return addAll(AnnotatedTools.from(target));
        }

        /** Adds the annotated tools of the object, converting arguments and results with the given mapper. */
        public Builder addAnnotated(Object target, JsonMapper mapper) {
            return addAll(AnnotatedTools.from(target, mapper));
        }

        /** The registry; fails with {@code CONFIG_INVALID} when two tools share a name. */
        public ToolRegistry build() {
            Map<String, Tool> byName = new LinkedHashMap<>();
            for (Tool tool : tools) {
                String name = tool.definition().name();
                if (byName.putIfAbsent(name, tool) != null) {
                    throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                            "two tools are named '" + name + "'; tool names must be unique").detail("tool", name)
                            .build();
                }
            }
            return new ToolRegistry(byName, Set.of());
        }
    }
}
