package dev.pagantic.adapter.temporal;

import java.util.List;

/**
 * A completed workflow's result: the journal of invocation outcomes (what ran, for Temporal's UI and for audits) and
 * the final response, computed by the worker's last replay, which the caller decodes without running anything.
 *
 * @param journal  every engine, tool and plan-step call's outcome, in the order the workflow recorded them
 * @param response the final {@link dev.pagantic.orchestrate.facade.SystemResponse}, encoded by {@link ResultCodec}
 *                 (key {@code null}, kind {@code RESPONSE})
 */
public record DurableResult(List<JournalEntry> journal, JournalEntry response) {
}
