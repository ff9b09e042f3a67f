package dev.pagantic.tck;

import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.StreamHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records what was streamed; callbacks run on the generating thread, assertions on the test's. */
final class StreamRecorder implements StreamHandler {
    private final List<String> content = new CopyOnWriteArrayList<>();
    private final List<String> reasoning = new CopyOnWriteArrayList<>();
    private final List<ToolCall> toolCalls = new CopyOnWriteArrayList<>();

    /** A handler that runs the action on every reasoning or content delta. */
    static StreamHandler onEveryDelta(Runnable action) {
        return new StreamHandler() {
            @Override
            public void onContent(String delta) {
                action.run();
            }

            @Override
            public void onReasoning(String delta) {
                action.run();
            }
        };
    }

    @Override
    public void onContent(String delta) {
        content.add(delta);
    }

    @Override
    public void onReasoning(String delta) {
        reasoning.add(delta);
    }

    @Override
    public void onToolCall(ToolCall call) {
        toolCalls.add(call);
    }

    List<String> contentDeltas() {
        return List.copyOf(content);
    }

    String content() {
        return String.join("", content);
    }

    String reasoning() {
        return String.join("", reasoning);
    }

    List<ToolCall> toolCalls() {
        return List.copyOf(toolCalls);
    }

    boolean isEmpty() {
        return content.isEmpty() && reasoning.isEmpty() && toolCalls.isEmpty();
    }

    @Override
    public String toString() {
        return "content=" + content + ", reasoning=" + reasoning + ", toolCalls=" + toolCalls;
    }
}
