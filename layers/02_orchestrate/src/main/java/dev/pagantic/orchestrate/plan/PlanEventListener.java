package dev.pagantic.orchestrate.plan;

/**
 * Receives the {@link PlanEvent}s of {@link PlanExecutor} runs. Calls are serialised (never two at once), but with a
 * parallel-group {@link PlanExecutor.Builder#executor executor} they may come from the executor's threads, and the
 * events of a group's members interleave in completion order. An exception it throws fails the step it reports.
 */
@FunctionalInterface
public interface PlanEventListener {

    /** One event of a run. */
    void onEvent(PlanEvent event);
}
