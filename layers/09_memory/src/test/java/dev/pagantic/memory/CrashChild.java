package dev.pagantic.memory;

import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The child JVM of the crash test: opens the store, continues the session where the last child stopped, and commits
 * batches forever, printing the session's message count to stdout after each commit has returned (that is, after
 * the fsync), and compacting the journal now and then. The parent kills it with SIGKILL at a random point.
 */
public final class CrashChild {

    private CrashChild() {
    }

    /** Printed before the child compacts the journal. */
    static final String COMPACTING = "compacting";
    /** Printed once compaction has returned. */
    static final String COMPACTED = "compacted";

    /**
     * Arguments: the store directory, the session id, the size of the slices each record is written in (0: one
     * write per record, as in production; a small size makes a kill in the middle of a record likely), and how many
     * commits apart the child compacts the journal itself (0: never), printing {@value #COMPACTING} before and
     * {@value #COMPACTED} after, so that a kill can land in the middle of a compaction.
     */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        int compactEvery = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        try (FileConversationStore store = FileConversationStore.builder().directory(Path.of(args[0]))
                .writeChunkBytes(Integer.parseInt(args[2])).build()) {
            String session = args[1];
            int step = steps(store.load(session).messages().size());
            out.println("ready " + step);
            for (int commits = 1; ; commits++) {
                long count = store.append(session, batch(step));
                out.println(count);
                step++;
                if (compactEvery > 0 && commits % compactEvery == 0) {
                    out.println(COMPACTING);
                    store.compact(session);
                    out.println(COMPACTED);
                }
            }
        }
    }

    /** The messages the child commits at a step: a user message, or (every fifth step) a tool exchange. */
    static List<Message> batch(int step) {
        if (step % 5 == 4) {
            String id = "call-" + step;
            return List.of(Message.assistant("", List.of(ToolCall.of(id, "lookup", Map.of("step", step)))),
                    Message.toolResult(id, "lookup", payload(step)));
        }
        return List.of(Message.user(payload(step)));
    }

    /**
     * A deterministic content of 256 B to 32 KiB, and every seventh step 256 KiB to 1 MiB: a SIGKILL can land in the
     * middle of a large write, which the kernel may leave partly done (a torn tail).
     */
    static String payload(int step) {
        int length = step % 7 == 6
                ? 256 * 1024 + (int) ((step * 7_919L) % (768 * 1024))
                : 256 + (int) ((step * 104_729L) % (32 * 1024 - 256));
        StringBuilder text = new StringBuilder(length + 16).append("step ").append(step).append(':');
        for (int i = text.length(); i < length; i++) {
            text.append((char) ('a' + (i + step) % 26));
        }
        return text.toString();
    }

    /** How many messages the first {@code steps} steps produce. */
    static int messagesAfter(int steps) {
        int count = 0;
        for (int step = 0; step < steps; step++) {
            count += batch(step).size();
        }
        return count;
    }

    /** How many steps produced the given number of messages (steps 4, 9, ... add two). */
    static int steps(int messages) {
        int step = 0;
        int count = 0;
        while (count < messages) {
            count += batch(step).size();
            step++;
        }
        return step;
    }
}
