package dev.pagantic.adapter.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a program to its end with a hang guard, capturing its output. */
public final class Processes {

    private Processes() {
    }

    /** What a finished program printed, and its exit code. */
    public record Run(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }

    /** Runs the command in {@code dir}, killing it after {@code timeoutSeconds}. */
    public static Run run(List<String> command, Path dir, long timeoutSeconds) throws IOException,
            InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectInput(ProcessBuilder.Redirect
                .from(new java.io.File("/dev/null"))).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish within " + timeoutSeconds + " s; stderr: "
                    + err.getNow(""));
        }
        return new Run(process.exitValue(), out.join(), err.join());
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
