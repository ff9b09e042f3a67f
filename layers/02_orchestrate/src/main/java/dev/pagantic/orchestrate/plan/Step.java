package dev.pagantic.orchestrate.plan;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import java.util.Optional;

/**
 * One unit of work in an {@link ExecutionPlan}. Its {@link StepType} selects the {@link StepHandler} that runs it; the
 * handler receives the step with its input set and returns it with its output set ({@link #withOutput}). Immutable.
 *
 * <p>A step without input is <em>auto-chained</em>: the executor gives it the previous step's output (or, after a
 * parallel group, the group's outputs as one {@link StepData.Kind#GROUP} input). Set an input to override this.
 *
 * <pre>{@code
 * Step retrieve = Step.of("retrieve", StepType.RETRIEVE, StepInput.text("How do interfaces work?"));
 * Step rerank = Step.of("rerank", StepType.RERANK); // auto-chained from retrieve's output
 * }</pre>
 *
 * @param name   the step's name, unique within its plan; non-blank, without leading or trailing whitespace
 * @param type   which kind of work the step performs
 * @param input  the data the step works on; empty means "the previous step's output"
 * @param output what the step produced; empty until its handler has run
 */
public record Step(String name, StepType type, Optional<StepInput> input, Optional<StepOutput> output) {

    /** Checks the fields; {@code CONFIG_INVALID} for a blank or padded name, or a null field. */
    public Step {
        requireNonNull(name, "step name");
        require(!name.isBlank(), "a step needs a name");
        require(name.strip().equals(name), "a step name must not start or end with whitespace: '" + name + "'");
        requireNonNull(type, "step type");
        requireNonNull(input, "step input");
        requireNonNull(output, "step output");
    }

    /** A step without input (auto-chained) and without output. */
    public static Step of(String name, StepType type) {
        return new Step(name, type, Optional.empty(), Optional.empty());
    }

    /** A step with the given explicit input and no output. */
    public static Step of(String name, StepType type, StepInput input) {
        return new Step(name, type, Optional.of(requireNonNull(input, "step input")), Optional.empty());
    }

    /** This step with the given input (the executor's auto-chaining, or a handler re-shaping its input). */
    public Step withInput(StepInput newInput) {
        return new Step(name, type, Optional.of(requireNonNull(newInput, "step input")), output);
    }

    /** This step with the given output; what a handler returns. */
    public Step withOutput(StepOutput newOutput) {
        return new Step(name, type, input, Optional.of(requireNonNull(newOutput, "step output")));
    }

    /** Whether the step has an explicit (or already chained) input. */
    public boolean hasInput() {
        return input.isPresent();
    }

    /** Whether the step's handler has produced an output. */
    public boolean hasOutput() {
        return output.isPresent();
    }

    /**
     * The input, for a handler that needs one.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} naming the step when it has no input (the first
     *                           step of a plan without an explicit input, for example)
     */
    public StepInput requireInput() {
        return input.orElseThrow(() -> missing("input"));
    }

    /**
     * The output, for code that reads a completed step.
     *
     * @throws PaganticException {@code ORCHESTRATION_STEP_MISMATCH} naming the step when it has no output
     */
    public StepOutput requireOutput() {
        return output.orElseThrow(() -> missing("output"));
    }

    private PaganticException missing(String what) {
        return PaganticException.builder(ErrorCode.ORCHESTRATION_STEP_MISMATCH,
                        "step '" + name + "' (" + type + ") has no " + what)
                .detail("step", name).detail("step_type", type.name()).detail("actual", "none")
                .build();
    }
}
