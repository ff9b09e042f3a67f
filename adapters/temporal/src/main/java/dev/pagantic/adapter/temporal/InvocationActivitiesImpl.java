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

    private final Orchestrator orchestrator;
    private final ReplayInterceptor interceptor;

    InvocationActivitiesImpl(Orchestrator orchestrator, ReplayInterceptor interceptor) {
        this.orchestrator = orchestrator;
        this.interceptor = interceptor;
    }

    @Override
    public Advance advance(String requestJson, List<JournalEntry> journal) {
        SystemRequest request = FacadeJson.requestFromJson(requestJson);
        ReplayInterceptor.Session session = interceptor.open(request.requestId(), journal,
                ReplayInterceptor.Mode.ADVANCE);
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
            interceptor.close(request.requestId());
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
}
