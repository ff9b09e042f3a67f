package dev.pagantic.adapter.cli;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.tool.Tool;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
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
     * Runs the command and exits the JVM with its exit code ({@link ExitCodes}), the one way a Java program reports
     * its status to the shell. Ctrl-C cancels the request in flight, which ends with exit code 130.
     */
    public static void main(String[] args) {
        main(args, List.of());
    }

    /**
     * Runs the command with further subcommands and exits the JVM with its exit code: how a launcher that may depend
     * on several adapters (the distribution's {@code pagantic}) adds {@code serve}, {@code tui} and {@code mcp}.
     *
     * @param args        the command line, without the program name
     * @param subcommands picocli command objects (or {@link CommandLine}s), added after the built-in ones
     */
    public static void main(String[] args, List<?> subcommands) {
        main(args, subcommands, Invocation.NO_MCP);
    }

    /**
     * Runs the command with further subcommands and an MCP client for {@code chat --mcp-config}, and exits the JVM
     * with its exit code. Adapters do not depend on each other, so the launcher that has the MCP adapter supplies
     * how a config file's tools are opened.
     *
     * @param args        the command line, without the program name
     * @param subcommands picocli command objects (or {@link CommandLine}s), added after the built-in ones
     * @param mcpTools    opens the servers of an {@code mcpServers} file, hands each of their tools (with its
     *                    definition) to the consumer and returns what disconnects them, which the command runs
     *                    when it ends; it throws a {@link PaganticException} naming the file or the server that
     *                    failed
     */
    public static void main(String[] args, List<?> subcommands,
                            BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> mcpTools) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        Cancellation cancellation = new Cancellation();
        Lock inFlight = new ReentrantLock();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> cancelAndWait(cancellation, inFlight),
                "pagantic-ctrl-c"));
        Invocation invocation = new Invocation(System.in, out, err, System.console() != null, new EngineSelection(),
                cancellation, inFlight, mcpTools);
        int code = execute(args, invocation, subcommands);
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
        return run(args, in, out, err, Invocation.NO_MCP);
    }

    /**
     * Runs the command with the given streams and MCP client ({@link #main(String[], List, BiFunction)}) and returns
     * its exit code; never exits the JVM.
     */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err,
                          BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> mcpTools) {
        return execute(args, new Invocation(in, out, err, false, new EngineSelection(), new Cancellation(),
                new ReentrantLock(), mcpTools));
    }

    /** Runs the command in the invocation (whose engine factory tests may replace) and returns its exit code. */
    static int execute(String[] args, Invocation invocation) {
        return execute(args, invocation, List.of());
    }

    private static int execute(String[] args, Invocation invocation, List<?> subcommands) {
        Objects.requireNonNull(args, "args");
        boolean json = Arrays.asList(args).contains("--json");
        int code = commandLine(invocation, json, subcommands).execute(args);
        invocation.out().flush();
        invocation.err().flush();
        return code;
    }

    /** The picocli command tree, writing to the invocation's streams, with the exit codes of {@link ExitCodes}. */
    static CommandLine commandLine(Invocation invocation) {
        return commandLine(invocation, false, List.of());
    }

    /**
     * The command tree with the launcher's subcommands.
     *
     * @param json whether {@code --json} was given anywhere: failures before a response then print an error object
     *             on stdout too, so that a script reading stdout always gets JSON
     */
    private static CommandLine commandLine(Invocation invocation, boolean json, List<?> subcommands) {
        CommandLine command = new CommandLine(new PaganticCommand())
                .addSubcommand(new CommandLine(new ChatCommand(invocation)))
                .addSubcommand(new CommandLine(new ExtractCommand(invocation)))
                .addSubcommand(new CommandLine(new VoteCommand(invocation)))
                .addSubcommand(new CommandLine(new PlanCommand(invocation)));
        for (MultiModelCommand.Kind kind : MultiModelCommand.Kind.values()) {
            command.addSubcommand(new CommandLine(MultiModelCommand.spec(new MultiModelCommand(invocation, kind))));
        }
        subcommands.forEach(command::addSubcommand);
        // Set after the subcommands are added, so that they apply to every command of the tree.
        command.setOut(new PrintWriter(invocation.out(), true));
        command.setErr(new PrintWriter(invocation.err(), true));
        command.setParameterExceptionHandler(usageErrors(invocation, json));
        command.setExecutionExceptionHandler(failures(invocation, json));
        return command;
    }

    /** A usage error: the message and where to get help, exit code 1 (picocli's default would be 2, ours is config). */
    private static IParameterExceptionHandler usageErrors(Invocation invocation, boolean json) {
        return (ParameterException failure, String[] args) -> {
            CommandLine command = failure.getCommandLine();
            PrintWriter err = command.getErr();
            // Some of picocli's messages start with "Error: " themselves.
            String message = failure.getMessage().replaceFirst("^Error: ", "");
            err.println("error: " + message);
            UnmatchedArgumentException.printSuggestions(failure, err);
            err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
            err.flush();
            if (json) {
                invocation.out().println(Json.usageError(message, ExitCodes.USAGE));
            }
            return ExitCodes.USAGE;
        };
    }

    /** A failure outside a response (an engine that cannot be opened, a bad schema file): its line and exit code. */
    private static IExecutionExceptionHandler failures(Invocation invocation, boolean json) {
        return (Exception failure, CommandLine command, CommandLine.ParseResult parsed) -> {
            if (failure instanceof PaganticException pagantic) {
                invocation.err().println(errorLine(pagantic.code(), pagantic.description()));
                invocation.err().flush();
                int code = ExitCodes.of(pagantic.category());
                if (json) {
                    invocation.out().println(Json.error(pagantic, code));
                }
                return code;
            }
            invocation.err().println("error: internal error: " + failure);
            failure.printStackTrace(invocation.err());
            invocation.err().flush();
            if (json) {
                invocation.out().println(Json.internalError("internal error: " + failure, ExitCodes.INTERNAL));
            }
            return ExitCodes.INTERNAL;
        };
    }

    /** How every failure is printed on stderr: {@code error: CODE (Category): message}. */
    static String errorLine(ErrorCode code, String message) {
        return "error: " + code.name() + " (" + code.category().displayName() + "): " + message;
    }
}
