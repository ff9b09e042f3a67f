package dev.pagantic.adapter.cli;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code pagantic} command: {@link #main} for the shell, {@link #run} for everything else (tests, embedding),
 * which returns the exit code instead of exiting.
 *
 * <pre>
 * pagantic --scripted "Hello there." chat "Say hello"
 * pagantic --model stories260K.gguf --ctx-size 2048 chat "Once upon a time" --max-tokens 32
 * pagantic --model m.gguf extract --schema-inline '{"type":"object","properties":{"name":{"type":"string"}}}' "..."
 * pagantic --model m.gguf vote -n 5 --schema sentiment.json "I love this product!"
 * pagantic --model m.gguf plan --plan plan.json "Write a story about a cat"
 * </pre>
 * See the package documentation for the options, the exit codes and the engines.
 */
public final class PaganticCli {

    /** How long Ctrl-C waits for the cancelled request to report itself before the JVM exits. */
    private static final long CTRL_C_GRACE_SECONDS = 5;

    private PaganticCli() {
    }

    /**
     * Runs the command and exits the JVM with its exit code: a loaded llama.cpp model keeps native threads that would
     * otherwise keep the JVM alive. Ctrl-C cancels the request in flight, which ends with exit code 130.
     */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        Cancellation cancellation = new Cancellation();
        Lock inFlight = new ReentrantLock();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> cancelAndWait(cancellation, inFlight),
                "pagantic-ctrl-c"));
        Invocation invocation = new Invocation(System.in, out, err, System.console() != null, new EngineSelection(),
                cancellation, inFlight);
        int code = execute(args, invocation);
        System.exit(code);
    }

    /** Ctrl-C (or any shutdown): cancels the request in flight and lets it print its cancellation. */
    private static void cancelAndWait(Cancellation cancellation, Lock inFlight) {
        cancellation.cancel("interrupted (Ctrl-C)");
        try {
            if (inFlight.tryLock(CTRL_C_GRACE_SECONDS, TimeUnit.SECONDS)) {
                inFlight.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Runs the command with the given streams and returns its exit code ({@link ExitCodes}); never exits the JVM.
     *
     * @param args the command line, without the program name
     * @param in   standard input
     * @param out  standard output
     * @param err  standard error
     * @return the exit code
     */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        return execute(args, new Invocation(in, out, err, false, new EngineSelection(), new Cancellation(),
                new ReentrantLock()));
    }

    /** Runs the command in the invocation (whose engine factory tests may replace) and returns its exit code. */
    static int execute(String[] args, Invocation invocation) {
        Objects.requireNonNull(args, "args");
        int code = commandLine(invocation).execute(args);
        invocation.out().flush();
        invocation.err().flush();
        return code;
    }

    /** The picocli command tree, writing to the invocation's streams, with the exit codes of {@link ExitCodes}. */
    static CommandLine commandLine(Invocation invocation) {
        CommandLine command = new CommandLine(new PaganticCommand())
                .addSubcommand(new CommandLine(new ChatCommand(invocation)))
                .addSubcommand(new CommandLine(new ExtractCommand(invocation)))
                .addSubcommand(new CommandLine(new VoteCommand(invocation)))
                .addSubcommand(new CommandLine(new PlanCommand(invocation)))
                .addSubcommand(new CommandLine(new ServeCommand()));
        // Set after the subcommands are added, so that they apply to every command of the tree.
        command.setOut(new PrintWriter(invocation.out(), true));
        command.setErr(new PrintWriter(invocation.err(), true));
        command.setParameterExceptionHandler(usageErrors());
        command.setExecutionExceptionHandler(failures(invocation));
        return command;
    }

    /** A usage error: the message and where to get help, exit code 1 (picocli's default would be 2, ours is config). */
    private static IParameterExceptionHandler usageErrors() {
        return (ParameterException failure, String[] args) -> {
            CommandLine command = failure.getCommandLine();
            PrintWriter err = command.getErr();
            // Some of picocli's messages start with "Error: " themselves.
            err.println("error: " + failure.getMessage().replaceFirst("^Error: ", ""));
            UnmatchedArgumentException.printSuggestions(failure, err);
            err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
            err.flush();
            return ExitCodes.USAGE;
        };
    }

    /** A failure outside a response (an engine that cannot be opened, a bad schema file): its line and exit code. */
    private static IExecutionExceptionHandler failures(Invocation invocation) {
        return (Exception failure, CommandLine command, CommandLine.ParseResult parsed) -> {
            if (failure instanceof PaganticException pagantic) {
                invocation.err().println(errorLine(pagantic.code(), pagantic.description()));
                invocation.err().flush();
                return ExitCodes.of(pagantic.category());
            }
            invocation.err().println("error: internal error: " + failure);
            failure.printStackTrace(invocation.err());
            invocation.err().flush();
            return ExitCodes.INTERNAL;
        };
    }

    /** How every failure is printed on stderr: {@code error: CODE (Category): message}. */
    static String errorLine(ErrorCode code, String message) {
        return "error: " + code.name() + " (" + code.category().displayName() + "): " + message;
    }
}
