package dev.pagantic.adapter.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.tool.SideEffect;
import dev.pagantic.tool.ToolSafety;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import org.junit.jupiter.api.Test;

class McpAnnotationsTest {

    private static ToolAnnotations hints(Boolean readOnly, Boolean destructive, Boolean idempotent, Boolean open) {
        return ToolAnnotations.builder().readOnlyHint(readOnly).destructiveHint(destructive)
                .idempotentHint(idempotent).openWorldHint(open).build();
    }

    @Test
    void aToolThatDeclaresNothingHasUnknownSideEffects() {
        assertThat(McpAnnotations.safetyOf(null)).isEqualTo(ToolSafety.UNKNOWN);
        assertThat(McpAnnotations.safetyOf(ToolAnnotations.builder().title("Only a title").build()))
                .isEqualTo(ToolSafety.UNKNOWN);
    }

    @Test
    void hintsMapToSideEffectClassesWithTheSpecsDefaultsForMissingHints() {
        assertThat(McpAnnotations.safetyOf(hints(true, null, null, null))).isEqualTo(ToolSafety.READ_ONLY);
        assertThat(McpAnnotations.safetyOf(hints(false, true, false, false)))
                .isEqualTo(ToolSafety.of(SideEffect.WRITE, false));
        assertThat(McpAnnotations.safetyOf(hints(false, false, true, null)))
                .as("the world is open unless said otherwise").isEqualTo(ToolSafety.of(SideEffect.EXTERNAL, true));
        assertThat(McpAnnotations.safetyOf(hints(null, true, null, null)))
                .isEqualTo(ToolSafety.of(SideEffect.EXTERNAL, false));
    }

    @Test
    void everyDeclaredSafetySurvivesTheRoundTripExceptThatPureReadsAsReadOnly() {
        for (SideEffect effect : SideEffect.values()) {
            for (boolean idempotent : new boolean[] {true, false}) {
                ToolSafety safety = ToolSafety.of(effect, idempotent);
                ToolSafety back = McpAnnotations.safetyOf(McpAnnotations.annotationsOf(safety, null));
                switch (effect) {
                    case UNKNOWN -> assertThat(back).isEqualTo(ToolSafety.UNKNOWN);
                    case NONE, READ -> assertThat(back).isEqualTo(ToolSafety.READ_ONLY);
                    default -> assertThat(back).isEqualTo(safety);
                }
            }
        }
    }
}
