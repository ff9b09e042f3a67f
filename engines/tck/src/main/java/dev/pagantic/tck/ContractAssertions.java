package dev.pagantic.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Result;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The checks several cases of {@link EngineContractTest} share, with the messages an engine's author reads. */
final class ContractAssertions {

    private ContractAssertions() {
    }

    static void assertCode(ErrorCode expected, PaganticException failure) {
        assertEquals(expected, failure.code(), () -> "expected " + expected + ", got: " + failure.getMessage());
    }

    static void assertFinishedNormally(Result result) {
        assertTrue(result.finishReason() == FinishReason.STOP || result.finishReason() == FinishReason.LENGTH,
                () -> "a text reply finishes with STOP or LENGTH, got " + result.finishReason());
    }

    static void assertAssistantMessageCarries(Result result) {
        assertFalse(result.messages().isEmpty(), "the result must hold the assistant message the call adds");
        Message last = result.messages().get(result.messages().size() - 1);
        assertEquals(Role.ASSISTANT, last.role(), "the call's last message must be the assistant's");
        assertEquals(result.content(), last.content(), "the assistant message must carry the content");
        assertEquals(result.toolCalls(), last.toolCalls(), "the assistant message must carry the tool calls");
    }

    /** Skips the case, rather than passing it, for an engine that does not declare the capability. */
    static void assumeDeclares(Engine engine, Capability capability) {
        assumeTrue(engine.modelInfo().supports(capability), () -> "the engine does not declare " + capability);
    }

    /** Waits for the latch at most the timeout; running out of time is no error (a non-streaming engine never signals). */
    static void await(CountDownLatch latch, Duration timeout) {
        try {
            latch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the hang guard gave up on the call
        }
    }
}
