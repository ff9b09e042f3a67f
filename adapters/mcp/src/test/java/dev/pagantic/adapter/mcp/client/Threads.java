package dev.pagantic.adapter.mcp.client;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Counts the JVM's live threads, leaving out the shared pools that size themselves: Reactor's {@code boundedElastic}
 * (idle threads kept for a minute) and {@code parallel} (one per core, started once), the JDK's process reaper, and
 * the tool executor's pool ({@code pagantic-tool}, whose abandoned threads the tests count separately).
 */
final class Threads {

    private static final java.util.regex.Pattern SHARED =
            java.util.regex.Pattern.compile("boundedElastic-|parallel-|process reaper|pagantic-tool-");

    private Threads() {
    }

    static List<String> names() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> !SHARED.matcher(name).lookingAt()).sorted().collect(Collectors.toList());
    }

    static List<String> named(String prefix) {
        return names().stream().filter(name -> name.startsWith(prefix)).collect(Collectors.toList());
    }

    /** The count once it stops falling, or reaches the target, within ten seconds. */
    static int settled(int target) throws InterruptedException {
        int count = names().size();
        for (int i = 0; i < 100 && count > target; i++) {
            Thread.sleep(100);
            int now = names().size();
            if (target < 0 && now == count && i > 10) {
                break;
            }
            count = now;
        }
        return count;
    }
}
