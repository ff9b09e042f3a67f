package dev.pagantic.inference;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What an engine serves.
 *
 * @param name          the model's name (a file name, a served model id)
 * @param contextWindow the context window in tokens; 0 when unknown
 * @param capabilities  what the engine supports beyond plain completion
 */
public record ModelInfo(String name, int contextWindow, Set<Capability> capabilities) {

    public ModelInfo {
        Objects.requireNonNull(name, "name");
        if (contextWindow < 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "contextWindow must not be negative: " + contextWindow);
        }
        capabilities = Set.copyOf(capabilities);
    }

    /** Model info with the given capabilities. */
    public static ModelInfo of(String name, int contextWindow, Capability... capabilities) {
        Set<Capability> set = EnumSet.noneOf(Capability.class);
        set.addAll(List.of(capabilities));
        return new ModelInfo(name, contextWindow, set);
    }

    /** Whether the engine declares the capability. */
    public boolean supports(Capability capability) {
        return capabilities.contains(capability);
    }

    /**
     * Refuses a request that needs a capability this engine does not declare, with
     * {@code CONFIG_UNSUPPORTED_CAPABILITY}: a grammar, a schema, tools, a seed or stop strings must never be silently
     * ignored.
     */
    public void requireSupported(Request request) {
        requireFor(request.hasGrammar(), Capability.GRAMMAR, "a grammar");
        requireFor(request.schema().isPresent(), Capability.SCHEMA, "a schema");
        requireFor(!request.tools().isEmpty(), Capability.TOOLS, "tools");
        requireFor(request.settings().seed().isPresent(), Capability.SEED, "a sampling seed");
        requireFor(!request.settings().stop().isEmpty(), Capability.STOP, "stop strings");
    }

    private void requireFor(boolean needed, Capability capability, String what) {
        if (needed && !supports(capability)) {
            throw PaganticException.builder(ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY,
                            "engine for model '" + name + "' does not support " + what)
                    .detail("model", name).detail("capability", capability.name()).build();
        }
    }
}
