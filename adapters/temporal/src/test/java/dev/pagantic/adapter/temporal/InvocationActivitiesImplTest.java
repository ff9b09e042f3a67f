package dev.pagantic.adapter.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.testkit.ScriptedEngine;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class InvocationActivitiesImplTest {

    private final ReplayInterceptor interceptor = new ReplayInterceptor();
    private final ScriptedEngine engine = ScriptedEngine.replying("Hello.");
    private final InvocationActivitiesImpl activities = new InvocationActivitiesImpl(
            Orchestrator.builder().engine(engine).interceptor(interceptor).build(), interceptor);
    private final String request = FacadeJson.toJson(
            SystemRequest.builder().requestId("req-1").user("Hi").build());

    @Test
    void anAttemptWhileAnEarlierOneStillRunsIsRefusedAsRetryableWithoutCallingTheEngine() {
        interceptor.open("req-1", List.of(), ReplayInterceptor.Mode.ADVANCE); // the hung earlier attempt

        ApplicationFailure refused = catchThrowableOfType(() -> activities.advance(request, List.of()),
                ApplicationFailure.class);

        assertThat(refused.getType()).isEqualTo(InvocationActivitiesImpl.EARLIER_ATTEMPT_RUNNING);
        assertThat(refused.isNonRetryable()).isFalse();
        assertThat(DurableOrchestrator.retryOptions(5, Duration.ofSeconds(1)).getDoNotRetry())
                .doesNotContain(InvocationActivitiesImpl.EARLIER_ATTEMPT_RUNNING);
        assertThat(engine.callCount()).isZero();
    }

    @Test
    void aStaleAttemptClosingItsSessionLeavesTheCurrentAttemptsSessionInPlace() {
        ReplayInterceptor.Session stale = interceptor.open("req-1", List.of(), ReplayInterceptor.Mode.ADVANCE);
        interceptor.close("req-1", stale);
        ReplayInterceptor.Session current = interceptor.open("req-1", List.of(), ReplayInterceptor.Mode.ADVANCE);

        interceptor.close("req-1", stale);

        assertThat(catchThrowableOfType(() -> activities.advance(request, List.of()), ApplicationFailure.class))
                .as("the current attempt's session is still registered").isNotNull();
        interceptor.close("req-1", current);
        assertThat(activities.advance(request, List.of()).next()).as("the engine call, recorded").isNotNull();
        assertThat(engine.callCount()).isEqualTo(1);
    }
}
