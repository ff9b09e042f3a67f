package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * The minimum body rate measures the client, not the server: only the time spent waiting for bytes that had not
 * arrived counts, on a fake clock that each test moves.
 */
class BodyReaderTest {

    private static final long RATE = 1024;

    private final FakeClock clock = new FakeClock();

    @Test
    void aBufferedBodyIsReadWholeHoweverLateTheServerComesBackForIt() throws Exception {
        // A busy server: 300 bytes had arrived at once, but the handler thread came back 5 s later for the rest.
        Body body = new Body(clock).arrived("a".repeat(300)).serverStalls(Duration.ofSeconds(5)).arrived("b".repeat(20));

        byte[] read = new BodyReader(RATE, clock::nanos).read(body, 1000);

        assertThat(new String(read, StandardCharsets.US_ASCII)).isEqualTo("a".repeat(300) + "b".repeat(20));
    }

    @Test
    void aBodyThatKeepsTheServerWaitingBelowTheRateIsRefused() {
        Body body = new Body(clock);
        for (int i = 0; i < 40; i++) {
            body.clientWaits(Duration.ofMillis(150)).arrived("x"); // a trickle of 6.7 bytes per second
        }

        assertThatThrownBy(() -> new BodyReader(RATE, clock::nanos).read(body, 1000))
                .isInstanceOf(BodyReader.TooSlowException.class).hasMessageContaining("ms of waiting");
    }

    @Test
    void theFirstSecondOfWaitingIsFree() throws Exception {
        // The body follows its headers 900 ms later, then comes at once: a late start, not a slow client.
        Body body = new Body(clock).clientWaits(Duration.ofMillis(900)).arrived("y".repeat(200));

        assertThat(new BodyReader(RATE, clock::nanos).read(body, 1000)).hasSize(200);
    }

    @Test
    void aZeroRateNeverRefusesAndTheCapStopsTheRead() throws Exception {
        Body body = new Body(clock).clientWaits(Duration.ofMinutes(1)).arrived("z".repeat(50));

        assertThat(new BodyReader(0, clock::nanos).read(body, 20)).hasSize(20);
    }

    /** A monotonic clock that only the test moves. */
    private static final class FakeClock {
        private long nanos;

        long nanos() {
            return nanos;
        }

        void advance(Duration duration) {
            nanos += duration.toNanos();
        }
    }

    /**
     * A request body as a script of events: bytes arriving, the client making the server wait in a blocking read,
     * and the server's thread stalling between two reads (descheduled) while nothing is awaited.
     */
    private static final class Body extends ServletInputStream {
        private final FakeClock clock;
        private final Deque<Object> script = new ArrayDeque<>();
        private byte[] buffered = new byte[0];
        private int position;

        Body(FakeClock clock) {
            this.clock = clock;
        }

        Body arrived(String bytes) {
            script.add(bytes.getBytes(StandardCharsets.US_ASCII));
            return this;
        }

        Body clientWaits(Duration wait) {
            script.add(new Wait(wait));
            return this;
        }

        Body serverStalls(Duration stall) {
            script.add(new Stall(stall));
            return this;
        }

        @Override
        public int available() {
            if (position == buffered.length && script.peek() instanceof Stall stall) {
                script.poll(); // the stall happens before this read; the next bytes are already there
                clock.advance(stall.duration());
                if (script.peek() instanceof byte[] next) {
                    buffer((byte[]) script.poll());
                }
            }
            return buffered.length - position;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            while (position == buffered.length) {
                Object next = script.poll();
                if (next == null) {
                    return -1;
                }
                if (next instanceof Wait wait) {
                    clock.advance(wait.duration());
                } else if (next instanceof Stall stall) {
                    clock.advance(stall.duration());
                } else {
                    buffer((byte[]) next);
                }
            }
            int n = Math.min(length, buffered.length - position);
            System.arraycopy(buffered, position, into, offset, n);
            position += n;
            return n;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }

        private void buffer(byte[] bytes) {
            buffered = bytes;
            position = 0;
        }

        @Override
        public boolean isFinished() {
            return position == buffered.length && script.isEmpty();
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException();
        }
    }

    private record Wait(Duration duration) {
    }

    private record Stall(Duration duration) {
    }
}
