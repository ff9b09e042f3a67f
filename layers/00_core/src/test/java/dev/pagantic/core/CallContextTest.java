package dev.pagantic.core;

import static dev.pagantic.core.Failures.assertConfigInvalid;
import static dev.pagantic.core.Failures.assertFailsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class CallContextTest {

    private static final Instant START = Instant.parse("2025-01-01T00:00:00Z");
    /** Generous upper bound for "promptly": only catches a hang, never a slow machine. */
    private static final Duration HANG = Duration.ofSeconds(10);

    /** A thread running a task that is expected to throw, recording what it threw. */
    private static final class Worker {
        private final AtomicReference<Throwable> thrown = new AtomicReference<>();
        private final Thread thread;

        Worker(Runnable task) {
            thread = new Thread(() -> {
                try {
                    task.run();
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "call-context-test-worker");
            thread.setDaemon(true);
            thread.start();
        }

        /** Waits until the worker blocks (in a timed or untimed wait), so that the test acts on a sleeping worker. */
        void awaitBlocked() throws InterruptedException {
            long giveUp = System.nanoTime() + HANG.toNanos();
            while (thread.getState() != Thread.State.TIMED_WAITING && thread.getState() != Thread.State.WAITING) {
                assertThat(thread.isAlive()).as("worker ended before blocking; threw %s", thrown.get()).isTrue();
                assertThat(System.nanoTime()).as("worker never blocked").isLessThan(giveUp);
                Thread.sleep(1);
            }
        }

        /** Waits for the worker to end and returns what it threw (null when it returned normally). */
        Throwable awaitEnd() throws InterruptedException {
            thread.join(HANG.toMillis());
            assertThat(thread.isAlive()).as("worker still running after %s", HANG).isFalse();
            return thrown.get();
        }
    }

    private static CallContext withClock(MutableClock clock) {
        return CallContext.builder().clock(clock).idGenerator(IdGenerator.sequential("id-")).build();
    }

    @Nested
    class CorrelationIds {

        @Test
        void backgroundContextGeneratesDistinctNonEmptyIds() {
            CallContext ctx = CallContext.background();

            assertThat(List.of(ctx.requestId(), ctx.traceId(), ctx.spanId())).allSatisfy(id -> assertThat(id)
                    .isNotBlank()).doesNotHaveDuplicates();
            assertThat(ctx.sessionId()).isEmpty();
            assertThat(ctx.correlation().parentSpanId()).isEmpty();
            assertThat(ctx.correlation().causedBy()).isEmpty();
            assertThat(ctx.deadline()).isEmpty();
            assertThat(ctx.remaining()).isEmpty();
            assertThat(ctx.isDone()).isFalse();
        }

        @Test
        void separateBackgroundContextsHaveSeparateRequests() {
            Set<String> requestIds = new HashSet<>();
            for (int i = 0; i < 100; i++) {
                requestIds.add(CallContext.background().requestId());
            }

            assertThat(requestIds).hasSize(100);
        }

        @Test
        void givenIdsAreKept() {
            CallContext ctx = CallContext.builder()
                    .requestId("req-7").sessionId("chat-42").traceId("trace-1").parentSpanId("caller-span")
                    .idGenerator(IdGenerator.sequential("id-"))
                    .build();

            assertThat(ctx.correlation())
                    .isEqualTo(new Correlation("req-7", "chat-42", "trace-1", "id-1", "caller-span", ""));
        }

        @Test
        void sequentialIdGeneratorMakesIdsDeterministic() {
            CallContext first = CallContext.builder().idGenerator(IdGenerator.sequential("id-")).build();
            CallContext second = CallContext.builder().idGenerator(IdGenerator.sequential("id-")).build();

            assertThat(first.correlation()).isEqualTo(new Correlation("id-1", "", "id-2", "id-3", "", ""));
            assertThat(second.correlation()).isEqualTo(first.correlation());
            assertThat(first.newId()).isEqualTo("id-4");
            assertThat(first.childSpan("call_1").spanId()).isEqualTo("id-5");
        }

        @Test
        void sequentialGeneratorCountsUpFromOne() {
            IdGenerator ids = IdGenerator.sequential("call_");

            assertThat(List.of(ids.nextId(), ids.nextId(), ids.nextId())).containsExactly("call_1", "call_2", "call_3");
        }

        @Test
        void randomGeneratorYieldsDistinctIds() {
            IdGenerator ids = IdGenerator.random();
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 1_000; i++) {
                seen.add(ids.nextId());
            }

            assertThat(seen).hasSize(1_000).allSatisfy(id -> assertThat(id).isNotBlank());
        }

        @Test
        void childSpanHangsUnderTheParentSpanAndRecordsTheCause() {
            CallContext parent = CallContext.builder().sessionId("chat-42")
                    .idGenerator(IdGenerator.sequential("id-")).build();

            CallContext child = parent.childSpan("call_1");

            assertThat(child.correlation().parentSpanId()).isEqualTo(parent.spanId());
            assertThat(child.spanId()).isNotEmpty().isNotEqualTo(parent.spanId());
            assertThat(child.requestId()).isEqualTo(parent.requestId());
            assertThat(child.sessionId()).isEqualTo("chat-42");
            assertThat(child.traceId()).isEqualTo(parent.traceId());
            assertThat(child.correlation().causedBy()).isEqualTo("call_1");
            assertThat(parent.correlation().causedBy()).isEmpty();
        }

        @Test
        void childSpanWithoutCauseKeepsTheParentsCause() {
            CallContext step = CallContext.background().childSpan("step:fetch");

            CallContext grandchild = step.childSpan();

            assertThat(grandchild.correlation().causedBy()).isEqualTo("step:fetch");
            assertThat(grandchild.correlation().parentSpanId()).isEqualTo(step.spanId());
            assertThat(grandchild.spanId()).isNotEqualTo(step.spanId());
        }

        @Test
        void childSpanSharesTheParentsDeadlineAndCancellation() {
            Cancellation cancellation = new Cancellation();
            MutableClock clock = new MutableClock(START);
            CallContext parent = CallContext.builder().clock(clock).timeout(Duration.ofSeconds(5))
                    .cancellation(cancellation).build();

            CallContext child = parent.childSpan("call_1");
            cancellation.cancel();

            assertThat(child.deadline()).isEqualTo(parent.deadline());
            assertThat(child.isCancelled()).isTrue();
        }

        @Test
        void withSessionIdChangesOnlyTheSession() {
            CallContext ctx = CallContext.background().childSpan("call_1");

            CallContext joined = ctx.withSessionId("chat-42");

            assertThat(joined.sessionId()).isEqualTo("chat-42");
            assertThat(joined.correlation()).isEqualTo(new Correlation(ctx.requestId(), "chat-42", ctx.traceId(),
                    ctx.spanId(), ctx.correlation().parentSpanId(), "call_1"));
            assertThat(ctx.sessionId()).isEmpty();
        }

        @Test
        void nullIdsAreRefused() {
            assertThatThrownBy(() -> CallContext.builder().requestId(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> CallContext.background().childSpan(null))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> CallContext.background().withSessionId(null))
                    .isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    class Cancelling {

        @Test
        void cancelledContextFailsWithCancelledSignalCarryingTheReason() {
            Cancellation cancellation = new Cancellation();
            CallContext ctx = CallContext.builder().requestId("req-1").cancellation(cancellation).build();
            assertThatCode(ctx::throwIfDone).doesNotThrowAnyException();

            cancellation.cancel("user pressed Ctrl-C");

            assertThat(ctx.isCancelled()).isTrue();
            assertThat(ctx.isDone()).isTrue();
            PaganticException failure = assertFailsWith(ErrorCode.CANCELLED_SIGNAL, ctx::throwIfDone);
            assertThat(failure.description()).contains("user pressed Ctrl-C");
            assertThat(failure.details()).containsEntry("request_id", "req-1");
            assertThat(failure.retryable()).isFalse();
        }

        @Test
        void workerBlockedInSleepIsWokenPromptlyWhenAnotherThreadCancels() throws InterruptedException {
            Cancellation cancellation = new Cancellation();
            CallContext ctx = CallContext.builder().cancellation(cancellation).build();
            Worker worker = new Worker(() -> ctx.sleep(Duration.ofMinutes(10)));
            worker.awaitBlocked();

            long before = System.nanoTime();
            cancellation.cancel("shutting down");
            Throwable thrown = worker.awaitEnd();

            assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(HANG);
            assertThat(thrown).isInstanceOfSatisfying(PaganticException.class, failure -> {
                assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL);
                assertThat(failure.description()).contains("shutting down");
            });
        }

        @Test
        void sleepOfAnEffectivelyUnboundedDurationIsStillWokenByCancellation() throws InterruptedException {
            Cancellation cancellation = new Cancellation();
            CallContext ctx = CallContext.builder().cancellation(cancellation).build();
            Worker worker = new Worker(() -> ctx.sleep(Duration.ofSeconds(Long.MAX_VALUE)));
            worker.awaitBlocked();

            cancellation.cancel();

            assertThat(worker.awaitEnd()).isInstanceOfSatisfying(PaganticException.class,
                    failure -> assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
        }

        @Test
        void workerInSleepOfAChildContextIsWokenByTheParentsCancellation() throws InterruptedException {
            Cancellation parentCancellation = new Cancellation();
            CallContext child = CallContext.builder().cancellation(parentCancellation).build()
                    .withCancellation(new Cancellation()).childSpan("call_1");
            Worker worker = new Worker(() -> child.sleep(Duration.ofMinutes(10)));
            worker.awaitBlocked();

            parentCancellation.cancel();

            assertThat(worker.awaitEnd()).isInstanceOfSatisfying(PaganticException.class,
                    failure -> assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
        }

        @Test
        void interruptingASleepingWorkerFailsWithCancelledSignalAndKeepsTheInterruptFlag()
                throws InterruptedException {
            AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
            CallContext ctx = CallContext.background();
            Worker worker = new Worker(() -> {
                try {
                    ctx.sleep(Duration.ofMinutes(10));
                } finally {
                    interruptedAfter.set(Thread.currentThread().isInterrupted());
                }
            });
            worker.awaitBlocked();

            worker.thread.interrupt();

            assertThat(worker.awaitEnd()).isInstanceOfSatisfying(PaganticException.class,
                    failure -> assertThat(failure.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
            assertThat(interruptedAfter.get()).isTrue();
        }

        @Test
        void onCancelListenerRunsOnceOnTheCancellingThread() {
            Cancellation cancellation = new Cancellation();
            CallContext ctx = CallContext.builder().cancellation(cancellation).build();
            AtomicInteger runs = new AtomicInteger();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            ctx.onCancel(() -> {
                runs.incrementAndGet();
                ranOn.set(Thread.currentThread());
            });

            cancellation.cancel();
            cancellation.cancel();

            assertThat(runs).hasValue(1);
            assertThat(ranOn.get()).isSameAs(Thread.currentThread());
        }

        @Test
        void onCancelListenerRunsOnceWhenSeveralCancellationsOfTheChainFire() {
            Cancellation parent = new Cancellation();
            Cancellation own = new Cancellation();
            CallContext ctx = CallContext.builder().cancellation(parent).build().withCancellation(own);
            AtomicInteger runs = new AtomicInteger();
            ctx.onCancel(runs::incrementAndGet);

            own.cancel();
            parent.cancel();

            assertThat(runs).hasValue(1);
        }

        @Test
        void closingTheRegistrationRemovesTheListener() {
            Cancellation parent = new Cancellation();
            Cancellation own = new Cancellation();
            CallContext ctx = CallContext.builder().cancellation(parent).build().withCancellation(own);
            AtomicInteger runs = new AtomicInteger();
            Registration registration = ctx.onCancel(runs::incrementAndGet);

            registration.close();
            own.cancel();
            parent.cancel();

            assertThat(runs).hasValue(0);
        }

        @Test
        void listenerRegisteredAfterCancellationRunsImmediately() {
            Cancellation cancellation = new Cancellation();
            CallContext ctx = CallContext.builder().cancellation(cancellation).build();
            cancellation.cancel();
            AtomicInteger runs = new AtomicInteger();

            ctx.onCancel(runs::incrementAndGet);

            assertThat(runs).hasValue(1);
        }

        @Test
        void contextWithoutCancellationNeverRunsItsListeners() {
            CallContext ctx = CallContext.background();
            AtomicInteger runs = new AtomicInteger();

            Registration registration = ctx.onCancel(runs::incrementAndGet);
            registration.close();

            assertThat(runs).hasValue(0);
            assertThat(ctx.isCancelled()).isFalse();
        }

        @Test
        void parentCancellationCancelsTheChild() {
            Cancellation parentCancellation = new Cancellation();
            CallContext parent = CallContext.builder().cancellation(parentCancellation).build();
            CallContext child = parent.withCancellation(new Cancellation());

            parentCancellation.cancel("parent stopped");

            assertThat(child.isCancelled()).isTrue();
            assertThat(assertFailsWith(ErrorCode.CANCELLED_SIGNAL, child::throwIfDone).description())
                    .contains("parent stopped");
        }

        @Test
        void cancellingTheChildLeavesTheParentUntouched() {
            Cancellation parentCancellation = new Cancellation();
            CallContext parent = CallContext.builder().cancellation(parentCancellation).build();
            Cancellation childCancellation = new Cancellation();
            CallContext child = parent.withCancellation(childCancellation);
            AtomicInteger parentListener = new AtomicInteger();
            parent.onCancel(parentListener::incrementAndGet);

            childCancellation.cancel("only the child");

            assertThat(child.isCancelled()).isTrue();
            assertThat(parent.isCancelled()).isFalse();
            assertThat(parentCancellation.isCancelled()).isFalse();
            assertThat(parentListener).hasValue(0);
            assertThatCode(parent::throwIfDone).doesNotThrowAnyException();
        }

        @Test
        void anyOfSeveralBuilderCancellationsCancelsTheContext() {
            Cancellation first = new Cancellation();
            Cancellation second = new Cancellation();
            CallContext ctx = CallContext.builder().cancellation(first).cancellation(second).build();

            second.cancel();

            assertThat(ctx.isCancelled()).isTrue();
        }
    }

    @Nested
    class Deadlines {

        @Test
        void contextIsNotExpiredBeforeItsDeadlineAndTimesOutAfter() {
            MutableClock clock = new MutableClock(START);
            CallContext ctx = CallContext.builder().clock(clock).requestId("req-1")
                    .timeout(Duration.ofSeconds(30)).build();

            clock.advance(Duration.ofSeconds(29));
            assertThat(ctx.isExpired()).isFalse();
            assertThatCode(ctx::throwIfDone).doesNotThrowAnyException();

            clock.advance(Duration.ofSeconds(2));
            assertThat(ctx.isExpired()).isTrue();
            assertThat(ctx.isDone()).isTrue();
            assertThat(ctx.isCancelled()).isFalse();
            PaganticException failure = assertFailsWith(ErrorCode.CANCELLED_TIMEOUT, ctx::throwIfDone);
            assertThat(failure.details()).containsEntry("request_id", "req-1")
                    .containsEntry("deadline", START.plusSeconds(30).toString());
        }

        @Test
        void contextIsExpiredExactlyAtItsDeadline() {
            MutableClock clock = new MutableClock(START);
            CallContext ctx = CallContext.builder().clock(clock).deadline(START.plusMillis(100)).build();

            clock.advance(Duration.ofMillis(100));

            assertThat(ctx.isExpired()).isTrue();
        }

        @Test
        void remainingDecreasesToZeroAndStaysThere() {
            MutableClock clock = new MutableClock(START);
            CallContext ctx = CallContext.builder().clock(clock).timeout(Duration.ofSeconds(10)).build();

            assertThat(ctx.remaining()).contains(Duration.ofSeconds(10));
            clock.advance(Duration.ofSeconds(4));
            assertThat(ctx.remaining()).contains(Duration.ofSeconds(6));
            clock.advance(Duration.ofSeconds(6));
            assertThat(ctx.remaining()).contains(Duration.ZERO);
            clock.advance(Duration.ofHours(1));
            assertThat(ctx.remaining()).contains(Duration.ZERO);
        }

        @Test
        void timeoutIsRelativeToTheClockWhenBuilt() {
            MutableClock clock = new MutableClock(START);

            CallContext ctx = CallContext.builder().clock(clock).timeout(Duration.ofSeconds(3)).build();

            assertThat(ctx.deadline()).contains(START.plusSeconds(3));
            assertThat(ctx.now()).isEqualTo(START);
            assertThat(ctx.clock()).isSameAs(clock);
        }

        @Test
        void zeroTimeoutIsExpiredAtOnce() {
            CallContext ctx = withClock(new MutableClock(START)).withTimeout(Duration.ZERO);

            assertFailsWith(ErrorCode.CANCELLED_TIMEOUT, ctx::throwIfDone);
        }

        @Test
        void withTimeoutTakesTheEarlierDeadline() {
            MutableClock clock = new MutableClock(START);
            CallContext parent = CallContext.builder().clock(clock).timeout(Duration.ofSeconds(10)).build();
            clock.advance(Duration.ofSeconds(2));

            CallContext looser = parent.withTimeout(Duration.ofSeconds(20));
            CallContext tighter = parent.withTimeout(Duration.ofSeconds(5));

            assertThat(looser.deadline()).contains(START.plusSeconds(10));
            assertThat(tighter.deadline()).contains(START.plusSeconds(7));
            assertThat(parent.deadline()).contains(START.plusSeconds(10));
        }

        @Test
        void withTimeoutOnAContextWithoutDeadlineSetsOne() {
            MutableClock clock = new MutableClock(START);
            CallContext parent = withClock(clock);

            CallContext child = parent.withTimeout(Duration.ofSeconds(1));

            assertThat(child.deadline()).contains(START.plusSeconds(1));
            assertThat(parent.deadline()).isEmpty();
            assertThat(child.correlation()).isEqualTo(parent.correlation());
        }

        @Test
        void withDeadlineTakesTheEarlierDeadline() {
            MutableClock clock = new MutableClock(START);
            CallContext parent = CallContext.builder().clock(clock).deadline(START.plusSeconds(10)).build();

            assertThat(parent.withDeadline(START.plusSeconds(60)).deadline()).contains(START.plusSeconds(10));
            assertThat(parent.withDeadline(START.plusSeconds(1)).deadline()).contains(START.plusSeconds(1));
        }

        @Test
        void builderTimeoutAndDeadlineResolveToTheEarlier() {
            MutableClock clock = new MutableClock(START);

            CallContext timeoutFirst = CallContext.builder().clock(clock)
                    .deadline(START.plusSeconds(60)).timeout(Duration.ofSeconds(5)).build();
            CallContext deadlineFirst = CallContext.builder().clock(clock)
                    .timeout(Duration.ofSeconds(60)).deadline(START.plusSeconds(5)).build();

            assertThat(timeoutFirst.deadline()).contains(START.plusSeconds(5));
            assertThat(deadlineFirst.deadline()).contains(START.plusSeconds(5));
        }

        @Test
        void negativeTimeoutIsRefused() {
            assertConfigInvalid(() -> CallContext.builder().timeout(Duration.ofMillis(-1)));
            assertConfigInvalid(() -> CallContext.background().withTimeout(Duration.ofSeconds(-1)));
        }

        @Test
        void aHugeTimeoutSaturatesInsteadOfOverflowing() {
            Duration forever = Duration.ofSeconds(Long.MAX_VALUE);

            assertThat(CallContext.builder().timeout(forever).build().deadline()).contains(Instant.MAX);
            assertThat(CallContext.background().withTimeout(forever).isExpired()).isFalse();
        }

        @Test
        void cancellationWinsOverExpiry() {
            MutableClock clock = new MutableClock(START);
            Cancellation cancellation = new Cancellation();
            CallContext ctx = CallContext.builder().clock(clock).timeout(Duration.ofSeconds(1))
                    .cancellation(cancellation).build();

            clock.advance(Duration.ofSeconds(5));
            cancellation.cancel();

            assertThat(ctx.isExpired()).isTrue();
            assertFailsWith(ErrorCode.CANCELLED_SIGNAL, ctx::throwIfDone);
        }

        @Test
        void derivedContextsKeepTheClockAndIdGenerator() {
            MutableClock clock = new MutableClock(START);
            IdGenerator ids = IdGenerator.sequential("x");
            CallContext ctx = CallContext.builder().clock(clock).idGenerator(ids).build()
                    .withTimeout(Duration.ofSeconds(1)).withCancellation(new Cancellation()).childSpan("s");

            assertThat(ctx.clock()).isSameAs(clock);
            assertThat(ctx.idGenerator()).isSameAs(ids);
        }
    }

    @Nested
    class Sleeping {

        @Test
        void sleepReturnsNormallyWhenNeitherCancelledNorExpired() {
            CallContext ctx = CallContext.builder().timeout(Duration.ofMinutes(1)).build();

            assertThatCode(() -> ctx.sleep(Duration.ofMillis(20))).doesNotThrowAnyException();
            assertThatCode(() -> CallContext.background().sleep(Duration.ofMillis(5))).doesNotThrowAnyException();
        }

        @Test
        void sleepLastsAtLeastTheRequestedDuration() {
            long before = System.nanoTime();

            CallContext.background().sleep(Duration.ofMillis(30));

            assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(Duration.ofMillis(30));
        }

        @Test
        void sleepPastTheDeadlineFailsWithTimeoutWhenTheDeadlinePasses() {
            CallContext ctx = CallContext.builder().timeout(Duration.ofMillis(50)).build();
            long before = System.nanoTime();

            assertFailsWith(ErrorCode.CANCELLED_TIMEOUT, () -> ctx.sleep(Duration.ofMinutes(10)));

            assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(HANG);
        }

        @Test
        void sleepOnACancelledContextFailsAtOnce() {
            Cancellation cancellation = new Cancellation();
            CallContext ctx = CallContext.builder().cancellation(cancellation).build();
            cancellation.cancel();

            assertFailsWith(ErrorCode.CANCELLED_SIGNAL, () -> ctx.sleep(Duration.ofMinutes(10)));
        }

        @Test
        void sleepOnAnExpiredContextFailsAtOnce() {
            MutableClock clock = new MutableClock(START);
            CallContext ctx = CallContext.builder().clock(clock).timeout(Duration.ofSeconds(1)).build();
            clock.advance(Duration.ofSeconds(2));

            assertFailsWith(ErrorCode.CANCELLED_TIMEOUT, () -> ctx.sleep(Duration.ofMinutes(10)));
        }

        @Test
        void zeroOrNegativeSleepReturnsAtOnce() {
            CallContext ctx = CallContext.background();

            assertThatCode(() -> ctx.sleep(Duration.ZERO)).doesNotThrowAnyException();
            assertThatCode(() -> ctx.sleep(Duration.ofMillis(-5))).doesNotThrowAnyException();
        }
    }

    @Test
    void toStringShowsCorrelationAndState() {
        CallContext ctx = CallContext.builder().requestId("req-9").build();

        assertThat(ctx.toString()).contains("req-9").contains("cancelled=false");
    }
}
