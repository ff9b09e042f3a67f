package dev.pagantic.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DemoTest {

    private static final Pattern USAGE = Pattern.compile("usage: prompt=(\\d+) output=(\\d+)");
    private static final Pattern COMBINED =
            Pattern.compile("combined usage of (\\d+) calls: prompt=(\\d+) output=(\\d+) total=(\\d+) tokens/s=\\d+");

    private static List<String> lines;

    @BeforeAll
    static void runTheDemo() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            Demo.run(out);
        }
        lines = buffer.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void systemAndUserCallPrintsTheScriptedAnswer() {
        assertThat(lines).contains("content: Paris is the capital of France.", "finish: STOP");
    }

    @Test
    void streamedTextEqualsTheFinalContent() {
        String streamed = lineStartingWith("streamed: ").substring("streamed: ".length());
        String last = lineStartingWith("final:    ").substring("final:    ".length());
        assertThat(streamed).isNotEmpty().isEqualTo(last);
        assertThat(lines).contains("streamed text equals final content: true");
    }

    @Test
    void scriptedToolCallIsReturnedAndAnswered() {
        assertThat(lines).contains("finish: TOOL_CALLS", "tool call: call_1 get_weather {city=Paris}",
                "content: It is sunny and 24 degrees in Paris.");
    }

    @Test
    void combinedUsageIsTheSumOfEachCallsUsage() {
        int prompt = 0;
        int output = 0;
        int calls = 0;
        for (String line : lines) {
            Matcher usage = USAGE.matcher(line);
            if (usage.matches()) {
                prompt += Integer.parseInt(usage.group(1));
                output += Integer.parseInt(usage.group(2));
                calls++;
            }
        }
        Matcher combined = COMBINED.matcher(lineStartingWith("combined usage of"));
        assertThat(combined.matches()).as("combined usage line").isTrue();
        assertThat(calls).isEqualTo(4);
        assertThat(Integer.parseInt(combined.group(1))).isEqualTo(calls);
        assertThat(Integer.parseInt(combined.group(2))).isEqualTo(prompt);
        assertThat(Integer.parseInt(combined.group(3))).isEqualTo(output);
        assertThat(Integer.parseInt(combined.group(4))).isEqualTo(prompt + output);
    }

    @Test
    void cancelledCallStopsBetweenTokensWithCancelledSignal() {
        assertThat(lines).contains("streamed before the cancellation: one two three");
        assertThat(lines).anyMatch(line -> line.startsWith(
                "error: CANCELLED_SIGNAL category=Cancellation retryable=false request_id=demo-"));
        assertThat(lines).anyMatch(line -> line.startsWith("message: ") && line.contains("user pressed Ctrl-C"));
    }

    @Test
    void callPastItsDeadlineStopsWithCancelledTimeout() {
        assertThat(lines).contains("streamed before the deadline: one two three");
        assertThat(lines).anyMatch(line -> line.startsWith(
                "error: CANCELLED_TIMEOUT category=Cancellation retryable=false request_id=demo-"));
    }

    @Test
    void noCallEndsUnexpectedly() {
        assertThat(lines).noneMatch(line -> line.startsWith("unexpected"));
    }

    private static String lineStartingWith(String prefix) {
        return lines.stream().filter(line -> line.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starts with '" + prefix + "' in " + lines));
    }
}
