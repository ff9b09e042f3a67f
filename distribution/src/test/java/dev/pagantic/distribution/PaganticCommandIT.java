package dev.pagantic.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The built {@code bin/pagantic}, run as a user runs it: every command, no Maven in the loop. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PaganticCommandIT {

    private static final String ESC = "\u001b";
    private static final Pattern SERVING = Pattern.compile("serving 'scripted' at (http://\\S+) ");

    @Test
    void aScriptedChatPrintsTheReplyAndLaterRunsMapTheClassDataArchiveTheFirstRecorded(@TempDir Path archives)
            throws InterruptedException {
        Launcher.Run first = Launcher.run(archives, "--scripted", "Hello there.", "chat", "Say hello");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!hasArchive(archives) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        // -Xshare:on: the JVM refuses to start rather than run without the archive
        ProcessBuilder strict = Launcher.command(archives, "--scripted", "Hello again.", "chat", "Say hello");
        strict.environment().put("JAVA_OPTS", "-Xshare:on");
        Launcher.Run second = Launcher.finish(strict);

        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo("Hello there.\n");
        assertThat(first.err()).isEmpty();
        assertThat(hasArchive(archives)).as("the archive recorded in the background").isTrue();
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(second.out()).isEqualTo("Hello again.\n");
        assertThat(second.err()).isEmpty();
    }

    private static boolean hasArchive(Path dir) {
        String[] names = dir.toFile().list();
        return names != null && java.util.Arrays.stream(names).anyMatch(name -> name.endsWith(".jsa"));
    }

    @Test
    void theHelpListsTheCommandLinesCommandsAndThoseOfTheOtherAdapters() {
        Launcher.Run help = Launcher.run("--help");

        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("chat", "extract", "vote", "plan", "adversarial", "judge-vote", "refine",
                "tui", "serve", "mcp", "Exit codes:");
        assertThat(Launcher.run("tui", "--help").out()).contains("usage: pagantic tui", "--endpoint",
                "--timeout", "--gpu-layers");
        assertThat(Launcher.run("serve", "--help").out()).contains("usage: pagantic serve", "--port");
        assertThat(Launcher.run("mcp", "--help").out()).contains("pagantic mcp", "--mcp-config");
    }

    @Test
    void jsonOutputIsPlainJsonOnSuccessAndOnAnEarlyFailure() {
        Launcher.Run success = Launcher.run("--scripted", "{\"name\": \"Tom\"}", "extract", "--json",
                "--schema-inline", "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}",
                "Name a cat");
        Launcher.Run failure = Launcher.run("extract", "--json", "--schema-inline", "{}", "no engine");

        assertThat(success.code()).as(success.err()).isZero();
        assertThat(success.out()).startsWith("{\"request_id\"").contains("\"structured_output\":{\"name\":\"Tom\"}")
                .doesNotContain(ESC);
        assertThat(failure.code()).isEqualTo(2);
        assertThat(failure.out()).startsWith("{\"error\":{\"code\":\"CONFIG_NO_ENGINE\"").doesNotContain(ESC);
    }

    @Test
    void aVoteWithoutConsensusExitsWithSix() {
        String schema = "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\"}}}";
        Launcher.Run run = Launcher.run("vote", "--scripted", "{\"s\":\"a\"}", "--scripted", "{\"s\":\"b\"}",
                "--scripted", "{\"s\":\"c\"}", "--schema-inline", schema, "pick one");

        assertThat(run.code()).isEqualTo(6);
        assertThat(run.err()).contains("ORCHESTRATION_NO_CONSENSUS");
    }

    @Test
    void pipingIntoHeadEndsQuietlyWithoutAStackTrace(@TempDir Path dir) {
        StringBuilder words = new StringBuilder();
        for (int i = 0; i < 8_000; i++) { // about 80 KB: one argument may hold 128 KB
            words.append("word").append(i).append(' ');
        }
        Path reply = dir.resolve("reply.txt");
        writeString(reply, words.toString());
        Launcher.Run run = Launcher.shell("\"$PAGANTIC\" --scripted \"$(cat " + reply + ")\" chat hi | head -c 12");

        assertThat(run.out()).startsWith("word0 word1 ");
        assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void serveStartsTheHttpServerAndStopsOnSigterm() throws Exception {
        Process server = Launcher.command("serve", "--scripted", "Hi from the server.", "--port", "0")
                .redirectErrorStream(true).start();
        try {
            String base = CompletableFuture.supplyAsync(() -> Launcher.servingAddress(server, SERVING)).get(120, TimeUnit.SECONDS);
            assertThat(base).as("the address the server printed").isNotNull();
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"scripted\",\"messages\":[{\"role\":"
                            + "\"user\",\"content\":\"hello\"}]}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("Hi from the server.");

            server.destroy(); // SIGTERM: a graceful drain, then the JVM ends by itself
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).as("the server ended after SIGTERM").isTrue();
        } finally {
            server.destroyForcibly();
        }
    }


    private static void writeString(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
