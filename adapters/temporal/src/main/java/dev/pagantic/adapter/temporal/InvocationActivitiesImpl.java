package dev.pagantic.adapter.temporal;

import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import io.temporal.failure.ApplicationFailure;
import java.util.List;

/** Runs {@link InvocationActivities} on an orchestrator built with the given {@link ReplayInterceptor}. */
final class InvocationActivitiesImpl implements InvocationActivities {

    /** The failure type of an attempt refused because an earlier attempt of its request still runs here. */
    static final String EARLIER_ATTEMPT_RUNNING = "EARLIER_ATTEMPT_RUNNING";

    private final Orchestrator orchestrator;
    private final ReplayInterceptor interceptor;

    InvocationActivitiesImpl(Orchestrator orchestrator, ReplayInterceptor interceptor) {
        this.orchestrator = orchestrator;
        this.interceptor = interceptor;
    }

    @Override
    public Advance advance(String requestJson, List<JournalEntry> journal) {
        SystemRequest request = FacadeJson.requestFromJson(requestJson);
        ReplayInterceptor.Session session = open(request, journal);
        SystemResponse response = null;
        try {
            response = orchestrator.execute(request);
        } catch (RuntimeException e) {
            // The orchestrator answers most failures with an error response, but some paths let the exception
            // that abandons the run (ReplayInterceptor.Suspended) through; anything else is a real failure.
            if (session.recorded() == null && session.failure() == null) {
                throw e;
            }
        } finally {
            interceptor.close(request.requestId(), session);
        }
        PaganticException failure = session.failure();
        if (failure != null) {
            // The type carries the failure taxonomy's code: the retry policy's doNotRetry list names the codes that
            // must not be retried, and a failure marked non-retryable stops retrying whatever its code.
            throw failure.retryable()
                    ? ApplicationFailure.newFailureWithCause(failure.getMessage(), failure.code().name(), failure)
                    : ApplicationFailure.newNonRetryableFailureWithCause(failure.getMessage(), failure.code().name(),
                            failure);
        }
        if (session.recorded() != null) {
            return new Advance(session.recorded(), null);
        }
        return new Advance(null, FacadeJson.toJson(response));
    }

    /**
     * Opens this attempt's session. An earlier attempt of the same request that timed out may still be running on
     * this worker (a hung engine call): that is worth retrying once it ends, so it is reported as a retryable failure
     * whose type is not an error code (ORCHESTRATION_CONCURRENT_USE itself is never retried by the taxonomy).
     */
    private ReplayInterceptor.Session open(SystemRequest request, List<JournalEntry> journal) {
        try {
            return interceptor.open(request.requestId(), journal, ReplayInterceptor.Mode.ADVANCE);
        } catch (PaganticException busy) {
            throw ApplicationFailure.newFailureWithCause(busy.getMessage(), EARLIER_ATTEMPT_RUNNING, busy);
        }
    }
}
