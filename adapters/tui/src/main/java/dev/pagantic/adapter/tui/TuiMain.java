package dev.pagantic.adapter.tui;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.tool.Tool;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The terminal chat program ({@code pagantic tui} in the distribution): a chat over a GGUF model run in process, a model
 * of an OpenAI-compatible server, or a script when there is no model ({@link TuiOptions#USAGE} lists the options).
 *
 * <pre>
 * java -cp ... dev.pagantic.adapter.tui.TuiMain --model models/model.gguf --ctx-size 4096 --system "Be brief."
 * java -cp ... dev.pagantic.adapter.tui.TuiMain --scripted-tool get_weather:{"city":"Paris"} --scripted "It is sunny."
 * </pre>
 */
public final class TuiMain {

    /** Exit status of a bad command line. */
    static final int USAGE_ERROR = 2;
    /** Exit status when the engine could not be set up or the terminal failed. */
    static final int FAILURE = 1;

    private TuiMain() {
    }

    /** Runs the chat on the system terminal and exits with its status ({@link #run} returns it instead). */
    public static void main(String[] args) {
        // Library warnings still reach the user; their info-level chatter would interleave with the chat.
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        int status;
        try {
            status = run(args, System.out, System.err);
        } catch (RuntimeException | Error unexpected) {
            unexpected.printStackTrace(System.err);
            status = FAILURE;
        }
        System.exit(status);
    }

    /**
     * Parses the command line, wires the engine and runs the chat on the system terminal.
     *
     * @param args the command line
     * @param out  where {@code --help} goes
     * @param err  where a bad command line is reported
     * @return the exit status: 0 after the chat, {@value #USAGE_ERROR} for a bad command line, {@value #FAILURE} when
     *         the engine or terminal could not be set up
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, TuiWiring.NO_MCP);
    }

    /**
     * Runs the chat with an MCP client for {@code --mcp-config}. Adapters do not depend on each other, so the launcher
     * that has the MCP adapter (the distribution's {@code pagantic tui}) supplies how a config file's tools are
     * opened.
     *
     * @param mcpTools opens the servers of an {@code mcpServers} file, hands each of their tools (with its definition)
     *                 to the consumer and returns what disconnects them, which the chat runs when it ends; it throws
     *                 a {@link PaganticException} naming the file or the server that failed
     * @return as {@link #run(String[], PrintStream, PrintStream)}
     */
    public static int run(String[] args, PrintStream out, PrintStream err,
                          BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> mcpTools) {
        TuiOptions options;
        try {
            options = TuiOptions.parse(args);
        } catch (PaganticException invalid) {
            err.println("pagantic tui: " + invalid.getMessage());
            err.print(TuiOptions.USAGE);
            return USAGE_ERROR;
        }
        if (options.help()) {
            out.print(TuiOptions.USAGE);
            return 0;
        }
        try (Terminal terminal = TerminalBuilder.builder().name("pagantic").system(true).build()) {
            return chat(options, terminal, mcpTools);
        } catch (IOException terminalFailed) {
            err.println("pagantic tui: the terminal failed: " + terminalFailed.getMessage());
            return FAILURE;
        }
    }

    /** The hints of every turn: the options' deadline. */
    static ExecutionHints hints(TuiOptions options) {
        ExecutionHints.Builder hints = ExecutionHints.builder();
        if (!options.timeout().isZero()) {
            hints.timeout(options.timeout());
        }
        return hints.build();
    }

    /** Wires the engine the options describe and runs the chat on the terminal. */
    static int chat(TuiOptions options, Terminal terminal) {
        return chat(options, terminal, TuiWiring.NO_MCP);
    }

    private static int chat(TuiOptions options, Terminal terminal,
                            BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> mcpTools) {
        TuiWiring wiring;
        try {
            wiring = TuiWiring.create(options, terminal.writer(), mcpTools);
        } catch (PaganticException setupFailed) {
            terminal.writer().println("pagantic tui: " + setupFailed.getMessage());
            terminal.writer().flush();
            return FAILURE;
        }
        try (wiring) {
            return ChatLoop.builder()
                    .terminal(terminal)
                    .orchestrator(wiring.orchestrator())
                    .tools(wiring.tools().definitions())
                    .hints(hints(options))
                    .build()
                    .run();
        }
    }
}
