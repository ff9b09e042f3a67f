package dev.pagantic.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.testkit.ChaosTools.Fault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ChaosToolsTest {

    private static final ChaosTools.Body ECHO = (ctx, args) -> "ok " + args.get("key");

    @Test
    void aWrappedBodyWithoutFaultsRunsUnchanged() throws Exception {
        ChaosTools chaos = ChaosTools.builder().build();

        assertThat(chaos.wrap(ECHO).execute(CallContext.background(), Map.of("key", "k"))).isEqualTo("ok k");
    }

    @Test
    void aThrowingFaultThrowsAPlainExceptionAndIsReported() {
        List<ChaosTools.Injection> seen = new ArrayList<>();
        ChaosTools chaos = ChaosTools.builder().failure(1).listener(seen::add).build();

        assertThatThrownBy(() -> chaos.wrap(ECHO).execute(CallContext.builder().requestId("r").build(), Map.of()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(seen).singleElement().satisfies(i -> {
            assertThat(i.fault()).isEqualTo(Fault.THROW);
            assertThat(i.requestId()).isEqualTo("r");
        });
    }

    @Test
    void aHangingBodyIgnoresInterruptionUntilItsDurationHasPassed() throws Exception {
        ChaosTools.Body hanging = ChaosTools.hanging(Duration.ofMillis(300));
        AtomicReference<String> result = new AtomicReference<>();
        Thread tool = new Thread(() -> {
            try {
                result.set(hanging.execute(CallContext.background(), Map.of()));
            } catch (Exception e) {
                result.set("failed: " + e);
            }
        });
        long started = System.nanoTime();
        tool.start();
        Thread.sleep(20);
        tool.interrupt();
        Thread.sleep(50);

        assertThat(tool.isAlive()).as("an interrupted hanging tool is still running").isTrue();
        tool.join(5_000);
        assertThat(result.get()).isEqualTo("woke up");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void aSlowBodyWaitsCooperativelySoItsDeadlineEndsTheWait() {
        ChaosTools.Body slow = ChaosTools.slow(Duration.ofSeconds(10), ECHO);
        CallContext ctx = CallContext.builder().timeout(Duration.ofMillis(30)).build();

        assertThatThrownBy(() -> slow.execute(ctx, Map.of()))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_TIMEOUT));
    }

    @Test
    void invalidSettingsAreRefusedAtBuild() {
        assertThatThrownBy(() -> ChaosTools.builder().failure(0.7).slow(0.7, Duration.ZERO).build())
                .isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> ChaosTools.builder().hang(0.1, Duration.ZERO).build())
                .isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> ChaosTools.builder().failure(-1).build()).isInstanceOf(PaganticException.class);
    }
}
