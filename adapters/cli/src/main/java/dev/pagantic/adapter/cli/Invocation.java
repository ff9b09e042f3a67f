package dev.pagantic.adapter.cli;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.tool.Tool;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * What one run of the command works with: its streams, where engines come from, and the cancellation that Ctrl-C
 * triggers. Commands write to these streams, never to {@code System.out} or {@code System.err}, so that a test can
 * run the whole command and read what it printed.
 *
 * @param in           standard input: prompts when none is given as an argument, and the lines of interactive chat
 * @param out          standard output: the response
 * @param err          standard error: progress, the event timeline and errors
 * @param terminal     whether a person is watching a terminal: animates the load indicator and shows the
 *                     interactive prompt; false when the output is captured
 * @param engines      opens the engine the options select
 * @param cancellation cancels the request in flight (Ctrl-C)
 * @param inFlight     held while a request runs and its outcome is printed, so that Ctrl-C can wait for the
 *                     cancelled request to report itself, and need not wait at an idle prompt
 * @param mcpTools     opens the tools of an {@code --mcp-config} file ({@link PaganticCli#main(String[], java.util.List,
 *                     BiFunction)}); {@link #NO_MCP} when the command runs without the MCP adapter
 */
record Invocation(InputStream in, PrintStream out, PrintStream err, boolean terminal, EngineFactory engines,
                  Cancellation cancellation, Lock inFlight,
                  BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> mcpTools) {

    /** What {@code --mcp-config} does where no launcher supplied the MCP client: a configuration error. */
    static final BiFunction<Path, BiConsumer<ToolDefinition, Tool>, Runnable> NO_MCP = (file, add) -> {
        throw PaganticException.of(ErrorCode.CONFIG_INVALID, "--mcp-config needs the MCP client, which the "
                + "distribution's pagantic command brings (this program runs the command line alone)");
    };

    Invocation {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(cancellation, "cancellation");
        Objects.requireNonNull(inFlight, "inFlight");
        Objects.requireNonNull(mcpTools, "mcpTools");
    }

    /** An invocation without the MCP client. */
    Invocation(InputStream in, PrintStream out, PrintStream err, boolean terminal, EngineFactory engines,
               Cancellation cancellation, Lock inFlight) {
        this(in, out, err, terminal, engines, cancellation, inFlight, NO_MCP);
    }
}
