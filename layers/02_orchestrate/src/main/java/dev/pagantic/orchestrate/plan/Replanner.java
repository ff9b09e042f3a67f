package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.PaganticException;
import java.util.List;

/**
 * Revises the rest of a plan after a step failed (after any per-step retries), for a
 * {@link PlanExecutor.Builder#replanner(Replanner) PlanExecutor}. The revision replaces every step that had not run
 * yet; it runs as a linear sequence, after the executor checked the completed steps plus the revision against its
 * {@link PlanPolicy}. Cancellations and policy violations are never replanned.
 */
@FunctionalInterface
public interface Replanner {

    /**
     * @param failed    the step that failed, with the input it ran with
     * @param error     its failure
     * @param completed the steps that completed so far, with their outputs, in plan order
     * @param remaining the steps that had not run yet, in plan order (flattened; possibly empty)
     * @return the revised remaining steps (they may retry or replace the failed step), or an empty list to give up
     *         and let the failure stand
     */
    List<Step> replan(Step failed, PaganticException error, List<Step> completed, List<Step> remaining);

    /** The id recorded as the {@link PlanTrace#plannerId()} of each revision; {@code "replanner"} by default. */
    default String id() {
        return "replanner";
    }
}
