package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A program that used the llama.cpp engine ends by itself when {@code main} returns (java-llama.cpp's attached
 * native thread would keep the JVM alive forever), with the launcher's status, and still waits for the application's
 * own threads. Each case runs {@link ExitProbe} in a child JVM; a hang is caught by the generous limit, and the time
 * from {@code main} returning to the JVM's end is printed.
 */
class JvmExitTest {

    /** A hang guard, not a speed limit: the JVM used to wait forever. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(20);

    @ParameterizedTest(name = "{0}: exit status {1}")
    @CsvSource({"returns, 0", "throws, 1", "worker, 0"})
    void theJvmEndsWhenMainReturnsWithoutSystemExit(String scenario, int status) throws Exception {
        Path models = TestModels.model(TestModels.STORIES).getParent();
        ProcessBuilder child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ExitProbe.class.getName(), scenario)
                .redirectErrorStream(true);
        child.environment().put("PAGANTIC_TEST_MODEL_DIR", models.toString());
        Process process = child.start();
        List<String> lines = new ArrayList<>();
        long returned = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
                if (line.equals("MAIN RETURNS")) {
                    returned = System.nanoTime();
                }
            }
        } finally {
            if (!process.waitFor(HANG_GUARD.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        Duration afterMain = Duration.ofNanos(System.nanoTime() - returned);
        System.out.printf("%s: the JVM ended %d ms after main returned%n", scenario, afterMain.toMillis());

        assertThat(process.isAlive()).as("the JVM is still running; output:%n%s", lines).isFalse();
        assertThat(process.exitValue()).as("exit status; output:%n%s", lines).isEqualTo(status);
        assertThat(lines).contains("MAIN RETURNS");
        if (scenario.equals("worker")) {
            assertThat(lines).as("the application's own thread finished first").contains("WORKER DONE");
        }
        if (scenario.equals("throws")) {
            assertThat(String.join("\n", lines)).contains("main failed on purpose");
        }
    }
}
