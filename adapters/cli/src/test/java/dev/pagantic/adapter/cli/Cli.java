package dev.pagantic.adapter.cli;

import dev.pagantic.core.Cancellation;
import dev.pagantic.inference.Engine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/** Runs the command as a user would, with captured streams. */
final class Cli {

    private Cli() {
    }

    /** What a run left behind: the exit code, stdout, stderr, and stdout as it was flushed, chunk by chunk. */
    record Run(int code, String out, String err, List<String> flushedChunks) {
    }

    /** A run with the command's own engine selection and empty standard input. */
    static Run run(String... args) {
        return runWithInput("", args);
    }

    /** A run with the command's own engine selection and the given standard input. */
    static Run runWithInput(String input, String... args) {
        return run(new EngineSelection(), input, new Cancellation(), args);
    }

    /** A run whose engine is the given one, whatever the engine options say. */
    static Run runWithEngine(Engine engine, String input, String... args) {
        return run((options, invocation) -> engine, input, new Cancellation(), args);
    }

    /** A run through {@link PaganticCli#run}, the public entry point. */
    static Run runPublic(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PaganticCli.run(args, new ByteArrayInputStream(new byte[0]), utf8(out), utf8(err));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), List.of());
    }

    static Run run(EngineFactory engines, String input, Cancellation cancellation, String... args) {
        ChunkRecorder out = new ChunkRecorder();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Invocation invocation = new Invocation(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                utf8(out), utf8(err), false, engines, cancellation, new ReentrantLock());
        int code = PaganticCli.execute(args, invocation);
        return new Run(code, out.text(), err.toString(StandardCharsets.UTF_8), out.chunks());
    }

    private static PrintStream utf8(OutputStream stream) {
        return new PrintStream(stream, false, StandardCharsets.UTF_8);
    }

    /** Records what was written between two flushes, to see streaming: a reply printed at once is one chunk. */
    private static final class ChunkRecorder extends OutputStream {
        private final ByteArrayOutputStream all = new ByteArrayOutputStream();
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private final List<String> chunks = new ArrayList<>();

        @Override
        public synchronized void write(int b) {
            all.write(b);
            pending.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            all.write(b, off, len);
            pending.write(b, off, len);
        }

        @Override
        public synchronized void flush() {
            if (pending.size() > 0) {
                chunks.add(pending.toString(StandardCharsets.UTF_8));
                pending.reset();
            }
        }

        synchronized String text() {
            return all.toString(StandardCharsets.UTF_8);
        }

        synchronized List<String> chunks() {
            return List.copyOf(chunks);
        }
    }
}
