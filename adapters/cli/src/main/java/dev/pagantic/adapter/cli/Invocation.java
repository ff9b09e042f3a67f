package dev.pagantic.adapter.cli;

import dev.pagantic.core.Cancellation;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Objects;
import java.util.concurrent.locks.Lock;

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
 */
record Invocation(InputStream in, PrintStream out, PrintStream err, boolean terminal, EngineFactory engines,
                  Cancellation cancellation, Lock inFlight) {

    Invocation {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(cancellation, "cancellation");
        Objects.requireNonNull(inFlight, "inFlight");
    }
}
