package dev.pagantic.adapter.cli;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import java.util.Objects;

/**
 * The exit status of the {@code pagantic} command, one per failure category, so that a script can tell a bad
 * configuration from a model failure or a schema violation without reading the message.
 *
 * <table>
 *   <caption>exit codes</caption>
 *   <tr><th>code</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>success</td></tr>
 *   <tr><td>1</td><td>usage error: an unknown option, a missing argument (reported by picocli)</td></tr>
 *   <tr><td>2</td><td>{@code ConfigurationFailure}: no engine option, a bad schema, plan or grammar file</td></tr>
 *   <tr><td>3</td><td>{@code InferenceFailure}: the model cannot be loaded, the engine failed</td></tr>
 *   <tr><td>4</td><td>{@code ToolFailure}</td></tr>
 *   <tr><td>5</td><td>{@code ConstraintFailure} or {@code ValidationFailure}: the output does not conform</td></tr>
 *   <tr><td>6</td><td>{@code OrchestrationFailure}: no consensus, an iteration limit</td></tr>
 *   <tr><td>70</td><td>an unexpected internal error (a bug; the message says what)</td></tr>
 *   <tr><td>130</td><td>{@code Cancellation}: Ctrl-C or the {@code --timeout} deadline</td></tr>
 * </table>
 */
public final class ExitCodes {

    /** The request succeeded. */
    public static final int SUCCESS = 0;
    /** The command line was wrong: an unknown option, a missing argument or value. */
    public static final int USAGE = 1;
    /** {@link FailureCategory#CONFIGURATION}. */
    public static final int CONFIGURATION = 2;
    /** {@link FailureCategory#INFERENCE}. */
    public static final int INFERENCE = 3;
    /** {@link FailureCategory#TOOL}. */
    public static final int TOOL = 4;
    /** {@link FailureCategory#CONSTRAINT} and {@link FailureCategory#VALIDATION}. */
    public static final int CONSTRAINT = 5;
    /** {@link FailureCategory#ORCHESTRATION}. */
    public static final int ORCHESTRATION = 6;
    /** An exception that is not a pagantic failure: a bug, reported as such (EX_SOFTWARE of sysexits.h). */
    public static final int INTERNAL = 70;
    /** {@link FailureCategory#CANCELLATION}: 128 + SIGINT, what a shell reports for a program stopped by Ctrl-C. */
    public static final int CANCELLED = 130;

    /** The help footer of every command: the table above, as text. */
    static final String FOOTER = """

            Exit codes:
              0    success
              1    usage error (unknown option, missing argument)
              2    ConfigurationFailure (no engine option, bad schema, plan or grammar)
              3    InferenceFailure (model unavailable, engine error)
              4    ToolFailure
              5    ConstraintFailure or ValidationFailure (output does not conform)
              6    OrchestrationFailure (no consensus, iteration limit)
              70   unexpected internal error
              130  Cancellation (Ctrl-C, --timeout)
            Errors are printed on stderr as: error: CODE (Category): message""";

    private ExitCodes() {
    }

    /** The exit code of a failure category. */
    public static int of(FailureCategory category) {
        return switch (Objects.requireNonNull(category, "category")) {
            case CONFIGURATION -> CONFIGURATION;
            case INFERENCE -> INFERENCE;
            case TOOL -> TOOL;
            case CONSTRAINT, VALIDATION -> CONSTRAINT;
            case ORCHESTRATION -> ORCHESTRATION;
            case CANCELLATION -> CANCELLED;
        };
    }

    /** The exit code of an error code: its category's. */
    public static int of(ErrorCode code) {
        return of(Objects.requireNonNull(code, "code").category());
    }
}
