package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.invalid;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Preconditions;
import java.util.Locale;

/**
 * Which orchestration pattern serves a {@link SystemRequest} (seed 001's {@code Mode}, "chat | structured | plan |
 * redundant"). The facade routes on it: {@link #CHAT} to the AgentLoop, {@link #STRUCTURED} to the SpecializedLoop,
 * {@link #PLAN} to the Planner and PlanExecutor, {@link #REDUNDANT} to the RedundantLoop, and the multi-model modes {@link #ADVERSARIAL},
 * {@link #VOTE} and {@link #REFINE} to {@code dev.pagantic.orchestrate.multimodel.MultiModel}. The mode also decides which
 * {@link SystemResponse} fields are produced (the seed's mode-to-pattern table).
 *
 * <p>Each mode has a stable lower-case wire name (what adapters read and write). More modes (the multi-model ones)
 * may be added later, so callers should not assume the set is closed when switching over it.
 */
public enum Mode {
    /** {@code chat}: multi-turn conversation with tools (AgentLoop); produces Content, ToolCallsMade, TokenUsage. */
    CHAT("chat", false),
    /**
     * {@code structured}: single-shot schema-conformant output (SpecializedLoop); produces Content, StructuredOutput,
     * ValidationResult, TokenUsage. Needs a schema in the {@link OutputContract}.
     */
    STRUCTURED("structured", true),
    /**
     * {@code plan}: a multi-step plan (Planner + PlanExecutor); produces Content, StructuredOutput (per step),
     * ToolCallsMade, TokenUsage.
     */
    PLAN("plan", false),
    /**
     * {@code redundant}: N structured inferences and a vote (RedundantLoop); produces Content, StructuredOutput,
     * Confidence, ConfidenceSource, TokenUsage. Needs a schema, since each replica is a SpecializedLoop call.
     */
    REDUNDANT("redundant", true),
    /**
     * {@code adversarial}: plan → critique → refine on catalogue engines (multi-model); produces Content (the refined
     * plan), StructuredOutput ({@code initial_plan, critique, refined_plan, ...}), TokenUsage.
     */
    ADVERSARIAL("adversarial", false),
    /**
     * {@code vote}: N voters and a judge on catalogue engines (multi-model); produces Content (the selected response),
     * StructuredOutput ({@code responses, selected, judge, ...}), TokenUsage.
     */
    VOTE("vote", false),
    /**
     * {@code refine}: an answer and self-improvement rounds (multi-model); produces Content (the final refinement),
     * StructuredOutput ({@code refined_response, iterations, model, ...}), TokenUsage.
     */
    REFINE("refine", false);

    private final String wireName;
    private final boolean requiresSchema;

    Mode(String wireName, boolean requiresSchema) {
        this.wireName = wireName;
        this.requiresSchema = requiresSchema;
    }

    /** The stable wire name: {@code chat}, {@code structured}, {@code plan}, {@code redundant}, ... */
    public String wireName() {
        return wireName;
    }

    /**
     * Whether requests in this mode must carry an output schema ({@code CONFIG_SCHEMA_REQUIRED} at INIT otherwise):
     * true for {@link #STRUCTURED} and {@link #REDUNDANT}, whose patterns are configured with a required schema.
     */
    public boolean requiresSchema() {
        return requiresSchema;
    }

    /**
     * The mode with the given wire name, ignoring case and surrounding blanks.
     *
     * @throws dev.pagantic.core.PaganticException {@code CONFIG_INVALID} for an unknown name
     */
    public static Mode fromWireName(String name) {
        requireNonNull(name, "mode");
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        for (Mode mode : values()) {
            if (mode.wireName.equals(wanted)) {
                return mode;
            }
        }
        throw invalid("unknown mode '" + name + "': expected chat, structured, plan, redundant, "
                + "adversarial, vote or refine");
    }

    @Override
    public String toString() {
        return wireName;
    }
}
