package dev.pagantic.engine.openai;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.pagantic.core.PaganticException;
import java.time.Duration;
import org.junit.jupiter.api.function.Executable;

/** Engines on a stub server, and a way to catch their failures under a hang guard. */
final class TestEngines {

    /** A hang guard, never a speed limit: a correct call ends far sooner. */
    static final Duration HANG_GUARD = Duration.ofSeconds(20);

    private TestEngines() {
    }

    /** A builder for an engine on the stub server. */
    static OpenAiCompatibleEngine.Builder on(StubServer server) {
        return OpenAiCompatibleEngine.builder().baseUrl(server.baseUrl()).modelName("stub-model");
    }

    /** The failure of the call, which must throw a {@link PaganticException} (and not hang). */
    static PaganticException failure(Executable call) {
        return assertTimeoutPreemptively(HANG_GUARD, () -> assertThrows(PaganticException.class, call));
    }
}
