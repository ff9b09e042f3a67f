package dev.pagantic.adapter.temporal;

import java.util.List;

/**
 * A completed workflow's result: the journal of invocation outcomes, from which the response is rebuilt without
 * running any engine or tool again, and the response in the facade's wire format for other readers.
 *
 * @param journal      every engine and tool call's outcome, in order
 * @param responseJson the final response as {@link dev.pagantic.orchestrate.facade.FacadeJson} writes it
 */
public record DurableResult(List<JournalEntry> journal, String responseJson) {
}
