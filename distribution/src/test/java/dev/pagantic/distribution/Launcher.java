package dev.pagantic.distribution;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Runs {@code bin/pagantic} of the built distribution as a user's shell does: its own process, no Maven. */
final class Launcher {

    private static final long PATIENCE_SECONDS = 120;

    private Launcher() {
    }

    /** What a run printed and how it ended. */
    record Run(int code, String out, String err) {
    }

    /** The launcher script of the distribution that the package phase laid out. */
    static Path script() {
        Path home = Path.of(System.getProperty("pagantic.dist.dir", "target/pagantic"));
        Path script = home.resolve("bin").resolve("pagantic");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("no executable " + script + ": the package phase builds it");
        }
        return script;
    }

    /** A process builder for the launcher with these arguments, without a class-data archive. */
    static ProcessBuilder command(String... args) {
        return command(null, args);
    }

    /** A process builder for the launcher with these arguments, with a private class-data archive folder. */
    static ProcessBuilder command(@Nullable Path cdsDir, String... args) {
        List<String> command = new ArrayList<>();
        command.add(script().toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        environment(builder.environment(), cdsDir);
        return builder;
    }

    /**
     * The environment of a user without Maven: java from {@code JAVA_HOME}, no Maven on the {@code PATH}, and the
     * class-data archive in the test's folder when one is given (none otherwise: {@code PAGANTIC_CDS=off}, so that no
     * background recording outlives a test).
     */
    static void environment(Map<String, String> env, @Nullable Path cdsDir) {
        env.put("JAVA_HOME", System.getProperty("java.home"));
        if (cdsDir != null) {
            env.put("PAGANTIC_CDS_DIR", cdsDir.toString());
        } else {
            env.put("PAGANTIC_CDS", "off");
        }
        env.put("PATH", "/usr/bin" + File.pathSeparator + "/bin");
        env.remove("MAVEN_OPTS");
        env.remove("JAVA_OPTS");
    }

    /** Runs the launcher to its end with empty standard input, without a class-data archive. */
    static Run run(String... args) {
        return finish(command(args));
    }

    /** Runs the launcher to its end with empty standard input and this class-data archive folder. */
    static Run run(Path cdsDir, String... args) {
        return finish(command(cdsDir, args));
    }

    /** Runs a shell pipeline in which {@code $PAGANTIC} names the launcher. */
    static Run shell(String pipeline) {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", pipeline);
        environment(builder.environment(), null);
        builder.environment().put("PAGANTIC", script().toString());
        return finish(builder);
    }

    /** Runs the launcher to its end with this standard input, without a class-data archive. */
    static Run runWithInput(String input, String... args) {
        try {
            Path in = Files.createTempFile("pagantic-in", ".txt");
            try {
                Files.writeString(in, input, StandardCharsets.UTF_8);
                return finish(command(args), in.toFile());
            } finally {
                Files.deleteIfExists(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the process to its end with empty standard input. */
    static Run finish(ProcessBuilder builder) {
        return finish(builder, new File("/dev/null"));
    }

    private static Run finish(ProcessBuilder builder, File input) {
        try {
            Path out = Files.createTempFile("pagantic-out", ".txt");
            Path err = Files.createTempFile("pagantic-err", ".txt");
            try {
                Process process = builder.redirectInput(ProcessBuilder.Redirect.from(input))
                        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!process.waitFor(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError("pagantic did not end within " + PATIENCE_SECONDS + " s: "
                            + builder.command());
                }
                return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * The address a server process prints when it serves: the first group of {@code serving} in a line of its output
     * (its stderr redirected into stdout); null when the output ends first.
     */
    static @Nullable String servingAddress(Process server, Pattern serving) {
        BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
        try {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                Matcher matched = serving.matcher(line);
                if (matched.find()) {
                    return matched.group(1);
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
