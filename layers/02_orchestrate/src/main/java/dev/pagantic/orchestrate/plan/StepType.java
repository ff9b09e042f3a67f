package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What kind of work a {@link Step} performs; it selects the {@link StepHandler} that runs the step. The set is open:
 * besides the five built-in types, any application may define its own with {@link #of(String)} and register a handler
 * for it.
 *
 * <pre>{@code
 * StepType summarize = StepType.of("summarize");
 * }</pre>
 *
 * <p>A name starts with a lower-case ASCII letter, continues with lower-case letters, digits, {@code '_'},
 * {@code '-'} or {@code '.'}, and is at most {@value #MAX_NAME_LENGTH} characters long. The rule keeps names stable
 * as map keys, in events and in the JSON an LLM planner produces ({@code "Infer"} is refused rather than silently
 * becoming a second type beside {@code "infer"}). Two step types are equal when their names are.
 *
 * @param name the type's name, as it appears in plans and events
 */
public record StepType(String name) {

    /** The longest accepted name. */
    public static final int MAX_NAME_LENGTH = 64;

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_.-]*");

    /** Runs model inference. */
    public static final StepType INFER = new StepType("infer");
    /** Runs a tool call. */
    public static final StepType TOOL = new StepType("tool");
    /** Retrieves context. */
    public static final StepType RETRIEVE = new StepType("retrieve");
    /** Reranks candidates. */
    public static final StepType RERANK = new StepType("rerank");
    /** Validates output. */
    public static final StepType VALIDATE = new StepType("validate");

    private static final List<StepType> BUILT_IN = List.of(INFER, TOOL, RETRIEVE, RERANK, VALIDATE);

    /**
     * Checks the name.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the name is null or does not follow the rule above
     */
    public StepType {
        if (name == null || name.length() > MAX_NAME_LENGTH || !NAME.matcher(name).matches()) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    "invalid step type name " + (name == null ? "null" : "'" + name + "'")
                            + ": expected a lower-case letter followed by lower-case letters, digits, '_', '-' or '.',"
                            + " at most " + MAX_NAME_LENGTH + " characters")
                    .detail("step_type", name).build();
        }
    }

    /**
     * The step type with the given name: the built-in constant for a built-in name, a custom type otherwise.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for an invalid name
     */
    public static StepType of(String name) {
        for (StepType type : BUILT_IN) {
            if (type.name.equals(name)) {
                return type;
            }
        }
        return new StepType(name);
    }

    /** The five built-in types, in the specification's order: infer, tool, retrieve, rerank, validate. */
    public static List<StepType> builtIn() {
        return BUILT_IN;
    }

    /** Whether this is one of the five built-in types. */
    public boolean isBuiltIn() {
        return BUILT_IN.contains(this);
    }

    /** The name. */
    @Override
    public String toString() {
        return name;
    }
}
