package dev.pagantic.tool;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records every event, in delivery order. */
final class RecordingObserver implements ToolObserver {

    final List<Object> events = new CopyOnWriteArrayList<>();
    final List<ToolStartEvent> starts = new CopyOnWriteArrayList<>();
    final List<ToolEndEvent> ends = new CopyOnWriteArrayList<>();

    @Override
    public void onToolStart(ToolStartEvent event) {
        events.add(event);
        starts.add(event);
    }

    @Override
    public void onToolEnd(ToolEndEvent event) {
        events.add(event);
        ends.add(event);
    }
}
