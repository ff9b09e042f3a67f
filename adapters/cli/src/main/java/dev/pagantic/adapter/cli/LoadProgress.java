package dev.pagantic.adapter.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The model-load indicator on stderr: {@code loading model X...} when reading starts, then {@code loaded X in N ms}
 * (or {@code loading X failed after N ms}). java-llama.cpp reports no progress while it reads a model, so on a
 * terminal the indicator is a spinner rather than a bar; when stderr is captured it prints the two lines only.
 */
final class LoadProgress {

    private static final String SPINNER = "|/-\\";
    private static final long FRAME_MILLIS = 120;

    private final PrintStream err;
    private final String name;
    private final boolean animate;
    private long startedAt;
    private boolean started;
    private @Nullable Thread spinner;

    LoadProgress(PrintStream err, Path model, boolean animate) {
        this.err = Objects.requireNonNull(err, "err");
        Path file = Objects.requireNonNull(model, "model").getFileName();
        this.name = file == null ? model.toString() : file.toString();
        this.animate = animate;
    }

    /** Reading the model has started (idempotent: only the first call counts). */
    synchronized void started() {
        if (started) {
            return;
        }
        started = true;
        startedAt = System.nanoTime();
        if (!animate) {
            err.println("loading model " + name + "...");
            err.flush();
            return;
        }
        spinner = new Thread(this::spin, "pagantic-load-indicator");
        spinner.setDaemon(true);
        spinner.start();
    }

    /** The load ended; prints the outcome if it had started. */
    void finished(boolean loaded) {
        Thread running;
        synchronized (this) {
            if (!started) {
                return;
            }
            running = spinner;
            spinner = null;
        }
        if (running != null) {
            running.interrupt();
            try {
                running.join(TimeUnit.SECONDS.toMillis(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            err.print("\rloading model " + name + "... " + (loaded ? "done" : "failed") + System.lineSeparator());
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt);
        err.println(loaded ? "loaded " + name + " in " + millis + " ms"
                : "loading " + name + " failed after " + millis + " ms");
        err.flush();
    }

    private void spin() {
        for (int frame = 0; !Thread.currentThread().isInterrupted(); frame++) {
            err.print("\rloading model " + name + "... " + SPINNER.charAt(frame % SPINNER.length()));
            err.flush();
            try {
                Thread.sleep(FRAME_MILLIS);
            } catch (InterruptedException stop) {
                return;
            }
        }
    }
}
