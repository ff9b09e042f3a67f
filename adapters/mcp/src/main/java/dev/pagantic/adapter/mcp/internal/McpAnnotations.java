package dev.pagantic.adapter.mcp.internal;

import dev.pagantic.tool.SideEffect;
import dev.pagantic.tool.ToolSafety;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import org.jspecify.annotations.Nullable;

/**
 * The one mapping between MCP tool annotations and pagantic's {@link ToolSafety}, in both directions, so that a tool
 * exported by pagantic's server and imported by its client keeps its class.
 *
 * <p>MCP's hints have defaults for a server that declares annotations but leaves a hint out: {@code readOnlyHint}
 * false, {@code destructiveHint} true, {@code idempotentHint} false, {@code openWorldHint} true. A tool without any
 * annotations declared nothing, which pagantic calls {@link ToolSafety#UNKNOWN}.
 */
public final class McpAnnotations {

    private McpAnnotations() {
    }

    /**
     * The safety a server's annotations declare.
     * <ul>
     *   <li>none at all: {@link ToolSafety#UNKNOWN};</li>
     *   <li>{@code readOnlyHint: true}: {@link SideEffect#READ}, idempotent (reading twice reads the same);</li>
     *   <li>otherwise {@code openWorldHint: false}: {@link SideEffect#WRITE} (it changes the server's own state),
     *       else {@link SideEffect#EXTERNAL} (it acts on the world, the spec's default);</li>
     *   <li>idempotent when {@code idempotentHint} is true.</li>
     * </ul>
     */
    public static ToolSafety safetyOf(@Nullable ToolAnnotations annotations) {
        if (annotations == null || annotations.readOnlyHint() == null && annotations.openWorldHint() == null
                && annotations.idempotentHint() == null && annotations.destructiveHint() == null) {
            return ToolSafety.UNKNOWN;
        }
        if (Boolean.TRUE.equals(annotations.readOnlyHint())) {
            return ToolSafety.READ_ONLY;
        }
        SideEffect effect = Boolean.FALSE.equals(annotations.openWorldHint()) ? SideEffect.WRITE : SideEffect.EXTERNAL;
        return ToolSafety.of(effect, Boolean.TRUE.equals(annotations.idempotentHint()));
    }

    /**
     * The annotations that declare a safety, or null for {@link SideEffect#UNKNOWN} (nothing is known, so nothing is
     * claimed). {@link SideEffect#NONE} and {@link SideEffect#READ} are read-only; a writing tool is destructive
     * unless idempotent (repeating it is harmless, so it destroys nothing a first call did not); the world is open for
     * {@link SideEffect#EXTERNAL}, closed for {@link SideEffect#NONE} and {@link SideEffect#WRITE}, and not claimed
     * for {@link SideEffect#READ}, which may read the web.
     */
    public static @Nullable ToolAnnotations annotationsOf(ToolSafety safety, @Nullable String title) {
        SideEffect effect = safety.sideEffect();
        if (effect == SideEffect.UNKNOWN) {
            return null;
        }
        boolean readOnly = effect == SideEffect.NONE || effect == SideEffect.READ;
        return ToolAnnotations.builder()
                .title(title)
                .readOnlyHint(readOnly)
                .destructiveHint(!readOnly && !safety.idempotent())
                .idempotentHint(readOnly || safety.idempotent())
                .openWorldHint(effect == SideEffect.READ ? null : effect == SideEffect.EXTERNAL) // reading: maybe the web
                .build();
    }
}
