package dev.pagantic.adapter.temporal;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** The Temporal workflow that runs one {@link dev.pagantic.orchestrate.facade.SystemRequest} durably. */
@WorkflowInterface
public interface RequestWorkflow {

    /**
     * Runs the request.
     *
     * @param requestJson the request in the facade's wire format ({@link dev.pagantic.orchestrate.facade.FacadeJson})
     * @return every engine and tool call's recorded outcome, in order, and the final response's JSON
     */
    @WorkflowMethod
    DurableResult run(String requestJson);
}
