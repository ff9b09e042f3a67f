package dev.pagantic.adapter.api;

import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Reads a request body whole, up to a size cap, refusing a body that the client sends slower than a minimum rate.
 *
 * <p>The rate is measured over the time the server waited for bytes that had not arrived, never over the time the
 * server took to come back for bytes that were already there. Jetty's own minimum data rate (which this replaces;
 * the server sets Jetty's to 0) is checked before every read against the time since the first byte was read, so a
 * fast client whose small body sits in the server's buffer while a busy handler thread is descheduled between two
 * reads is refused with 408 as if it were slowloris. The first {@link #GRACE} of waiting is free: a body often
 * follows its headers a moment later, and a busy server wakes up late.
 */
final class BodyReader {

    /** Waiting this long for the body in total is never held against the client. */
    static final Duration GRACE = Duration.ofSeconds(1);

    private static final double NANOS_PER_SECOND = 1e9;

    private final long minBytesPerSecond;
    private final LongSupplier nanoTime;

    /**
     * @param minBytesPerSecond the slowest rate allowed; 0 for none
     * @param nanoTime          the monotonic clock, {@link System#nanoTime()} outside tests
     */
    BodyReader(long minBytesPerSecond, LongSupplier nanoTime) {
        this.minBytesPerSecond = minBytesPerSecond;
        this.nanoTime = nanoTime;
    }

    /**
     * The body's bytes, at most {@code cap} of them (a longer body is cut at {@code cap}: the caller compares).
     *
     * @throws TooSlowException when the body arrives slower than the minimum rate
     * @throws IOException      when the connection fails or Jetty's idle timeout or size limit ends the read
     */
    byte[] read(ServletInputStream in, int cap) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        long waited = 0;
        while (body.size() < cap) {
            boolean mustWait = !in.isFinished() && in.available() == 0;
            long before = mustWait ? nanoTime.getAsLong() : 0;
            int n = in.read(buffer, 0, Math.min(buffer.length, cap - body.size()));
            if (n < 0) {
                break;
            }
            body.write(buffer, 0, n);
            if (mustWait) {
                waited += nanoTime.getAsLong() - before;
                requireRate(body.size(), waited);
            }
        }
        return body.toByteArray();
    }

    private void requireRate(long bytes, long waitedNanos) throws TooSlowException {
        long charged = waitedNanos - GRACE.toNanos();
        // in double: the rate times the nanoseconds may overflow a long
        if (minBytesPerSecond > 0 && charged > 0 && bytes < (double) minBytesPerSecond * charged / NANOS_PER_SECOND) {
            throw new TooSlowException(bytes, Duration.ofNanos(waitedNanos));
        }
    }

    /** The body arrived slower than the minimum rate. */
    static final class TooSlowException extends IOException {
        private static final long serialVersionUID = 1L;

        TooSlowException(long bytes, Duration waited) {
            super(bytes + " body bytes in " + waited.toMillis() + " ms of waiting");
        }
    }
}
