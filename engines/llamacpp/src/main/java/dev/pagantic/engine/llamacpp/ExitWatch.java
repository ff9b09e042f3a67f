package dev.pagantic.engine.llamacpp;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a program that ran a llama.cpp model end when its {@code main} returns, as a Java program does.
 *
 * <p>java-llama.cpp 4.2.0 attaches its native server thread to the JVM as a non-daemon thread and never detaches it;
 * the thread outlives the model's close (its native side ends, the JVM still counts it), so the JVM waits for it
 * forever once {@code main} returns. Nothing in Java can detach or end it. So after the first model loads, a daemon
 * thread waits for the launcher's {@code main} thread to end and then for every other non-daemon thread to end, except
 * those the binding attached (no Java frames, a {@code Thread-N} name); then it ends the JVM the way the launcher would
 * have: shutdown hooks run, and the status is 1 when {@code main} ended with an exception, 0 otherwise.
 *
 * <p>The watch is process-wide, as the threads it concerns are: its state is the watching thread itself, found by
 * name, so there is no static state. A JVM without a launcher {@code main} thread (embedded, a test runner, a
 * container) is left alone; so is one whose application threads keep running.
 */
final class ExitWatch implements Runnable {

    static final String NAME = "pagantic-llama-exit-watch";
    private static final Logger LOG = LoggerFactory.getLogger(ExitWatch.class);
    private static final Pattern ATTACHED_NAME = Pattern.compile("Thread-\\d+");
    private static final long POLL_MILLIS = 50;

    private final Thread main;
    private volatile boolean mainFailed;

    private ExitWatch(Thread main) {
        this.main = main;
    }

    /** Starts the watch unless it runs already or there is no launcher main thread to watch. */
    static void start() {
        synchronized (ExitWatch.class) {
            Map<Thread, StackTraceElement[]> threads = Thread.getAllStackTraces();
            if (threads.keySet().stream().anyMatch(thread -> thread.getName().equals(NAME))) {
                return;
            }
            launcherMain(threads).ifPresent(main -> {
                ExitWatch watch = new ExitWatch(main);
                Thread.UncaughtExceptionHandler previous = main.getUncaughtExceptionHandler();
                main.setUncaughtExceptionHandler((thread, failure) -> {
                    watch.mainFailed = true;
                    previous.uncaughtException(thread, failure);
                });
                Thread watcher = new Thread(watch, NAME);
                watcher.setDaemon(true);
                watcher.start();
            });
        }
    }

    /** The thread the java launcher ran {@code main} on, while it runs. */
    private static Optional<Thread> launcherMain(Map<Thread, StackTraceElement[]> threads) {
        return threads.keySet().stream().filter(thread -> thread.getName().equals("main") && thread.isAlive()
                && thread.getThreadGroup() != null && thread.getThreadGroup().getName().equals("main")).findFirst();
    }

    @Override
    public void run() {
        try {
            main.join();
            while (!onlyBindingThreadsLeft()) {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return;
        }
        LOG.debug("main has ended and only java-llama.cpp's native threads are left: ending the JVM");
        Runtime.getRuntime().exit(mainFailed ? 1 : 0);
    }

    /** Whether every live non-daemon thread is one the binding attached (or the launcher's DestroyJavaVM). */
    private static boolean onlyBindingThreadsLeft() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(entry -> entry.getKey().isAlive() && !entry.getKey().isDaemon())
                .allMatch(entry -> entry.getKey().getName().equals("DestroyJavaVM")
                        || entry.getValue().length == 0 && ATTACHED_NAME.matcher(entry.getKey().getName()).matches());
    }
}
