package dev.pagantic.distribution;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Unmatched;

/**
 * A subcommand that hands its arguments over whole to another adapter's program, whose own parser (and
 * {@code --help}) takes them: {@code pagantic tui ...} and {@code pagantic serve ...}.
 */
final class ProgramCommand implements Callable<Integer> {

    /** The program's own command line. */
    @Unmatched
    List<String> args = new ArrayList<>();

    private final ToIntFunction<List<String>> program;

    private ProgramCommand(ToIntFunction<List<String>> program) {
        this.program = program;
    }

    /**
     * The subcommand.
     *
     * @param name        its name
     * @param description its lines in {@code pagantic --help}
     * @param program     runs the program on the arguments and returns its exit code
     */
    static CommandLine of(String name, List<String> description, ToIntFunction<List<String>> program) {
        CommandSpec spec = CommandSpec.forAnnotatedObject(new ProgramCommand(program));
        spec.name(name);
        spec.usageMessage().description(description.toArray(String[]::new));
        return new CommandLine(spec);
    }

    @Override
    public Integer call() {
        return program.applyAsInt(List.copyOf(args));
    }
}
