package dev.pagantic.adapter.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP adapter under hostile clients: authentication, size limits (declared and chunked), slow clients, malformed
 * JSON; and, across all of them, no stack trace, exception class name or secret (the bearer token, a tool's secret
 * argument) in any response body or log line. slf4j-simple writes to {@code System.err} at each log call, so the test
 * captures it (the api package logs at INFO in tests, see {@code simplelogger.properties}).
 */
class ApiHardeningTest {

    private static final String TOKEN = "sk-test-7f3a9c-SECRET-TOKEN";
    private static final String TOOL_SECRET = "hunter2-TOOL-SECRET";
    /** What must never reach a client or a log line. */
    private static final Pattern LEAK = Pattern.compile(
            "Exception|\\bat [a-z]+\\.[a-z]|java\\.[a-z]+\\.|org\\.eclipse|tools\\.jackson|io\\.javalin|"
                    + Pattern.quote(TOKEN) + "|" + Pattern.quote(TOOL_SECRET));

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final List<String> bodies = new ArrayList<>();
    private PrintStream originalErr;

    @BeforeEach
    void captureLog() {
        originalErr = System.err;
        System.setErr(new PrintStream(new TeeStream(originalErr, log), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void nothingLeaked() {
        System.err.flush();
        System.setErr(originalErr);
        String logged = log.toString(StandardCharsets.UTF_8);
        assertThat(logged).as("log").doesNotContainPattern(LEAK);
        for (String body : bodies) {
            assertThat(body).as("response body").doesNotContainPattern(LEAK);
        }
    }

    private HttpResponse<String> post(TestServer api, String path, String body, String... headers) {
        HttpResponse<String> response = api.post(path, body, headers);
        bodies.add(response.body());
        return response;
    }

    private static void assertOpenAiError(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).isEqualTo(status);
        JsonNode error = TestServer.json(response).path("error");
        assertThat(error.path("message").isString()).isTrue();
        assertThat(error.path("type").isString()).isTrue();
        assertThat(error.has("param")).isTrue();
        assertThat(error.has("code")).isTrue();
    }

    // ------------------------------------------------------------------------------------------------ auth

    @ParameterizedTest(name = "Authorization: [{0}]")
    @ValueSource(strings = {"", "Bearer", "Bearer ", "Bearer wrong", "Bearer " + TOKEN + "x",
            "Bearer sk-test-7f3a9c-SECRET-TOKE", "Bearer SK-TEST-7F3A9C-SECRET-TOKEN", "Basic " + TOKEN,
            "Token " + TOKEN, TOKEN, "Bearer " + TOKEN + " " + TOKEN, "Bearer\t"})
    void aMissingOrWrongBearerTokenIs401AndNeverReachesTheModel(String authorization) {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = TestServer.start(engine, b -> b.bearerToken(TOKEN))) {
            String[] headers = authorization.isEmpty() ? new String[0]
                    : new String[] {"Authorization", authorization};
            HttpResponse<String> chat = post(api, "/v1/chat/completions", TestServer.chat("hi"), headers);
            HttpResponse<String> nativeCall = post(api, "/v1/requests",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", headers);

            assertOpenAiError(chat, 401);
            assertThat(chat.headers().firstValue("WWW-Authenticate")).contains("Bearer");
            // the unread body ends the connection: a client told so opens a new one for its next request
            assertThat(chat.headers().firstValue("Connection")).contains("close");
            assertThat(TestServer.json(chat).path("error").path("code").stringValue()).isEqualTo("invalid_api_key");
            assertThat(nativeCall.statusCode()).isEqualTo(401);
            assertThat(engine.callCount()).isZero();
        }
    }

    @ParameterizedTest(name = "path {0}")
    @ValueSource(strings = {"/v1/chat/completions/", "/V1/chat/completions", "//v1/chat/completions",
            "/v1//chat/completions", "/v1/./chat/completions", "/x/../v1/chat/completions",
            "/v1/chat/completions;x=1", "/v1/chat/completions?api_key=" + TOKEN, "/v1%2Fchat/completions",
            "/%761/chat/completions"})
    void pathTricksNeverReachTheModelWithoutAToken(String path) throws IOException {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = TestServer.start(engine, b -> b.bearerToken(TOKEN))) {
            String response = raw(api, "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                    + "\r\nContent-Length: " + TestServer.chat("hi").length() + "\r\nConnection: close\r\n\r\n"
                    + TestServer.chat("hi"), Duration.ofSeconds(5));

            assertThat(statusOf(response)).isIn(400, 401, 404, 405);
            assertThat(engine.callCount()).isZero();
        }
    }

    @Test
    void theRightTokenIsAcceptedWithAnyCaseOfTheScheme() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("a", "b"), b -> b.bearerToken(TOKEN))) {
            assertThat(post(api, "/v1/chat/completions", TestServer.chat("hi"), "Authorization", "Bearer " + TOKEN)
                    .statusCode()).isEqualTo(200);
            assertThat(post(api, "/v1/chat/completions", TestServer.chat("hi"), "Authorization", "bearer " + TOKEN)
                    .statusCode()).isEqualTo(200);
        }
    }

    // ------------------------------------------------------------------------------------------------ limits

    private static TestServer limited(ScriptedEngine engine) {
        return TestServer.start(engine, b -> b.limits(new ApiLimits(2_000, 3, 100)));
    }

    @Test
    void aBodyDeclaredLargerThanTheLimitIs413WithoutBeingRead() throws IOException {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = limited(engine)) {
            // declares a terabyte and sends nothing: answered at once, not after waiting for the body
            String response = raw(api, "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n", Duration.ofSeconds(5));

            assertThat(statusOf(response)).isEqualTo(413);
            assertThat(engine.callCount()).isZero();
        }
    }

    @Test
    void anOversizedBodyIs413OnBothEndpoints() {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = limited(engine)) {
            String big = TestServer.chat("x".repeat(5_000));
            assertOpenAiError(post(api, "/v1/chat/completions", big), 413);
            assertThat(post(api, "/v1/requests", "{\"messages\":[{\"role\":\"user\",\"content\":\""
                    + "x".repeat(5_000) + "\"}]}").statusCode()).isEqualTo(413);
            assertThat(engine.callCount()).isZero();
        }
    }

    @Test
    void anOversizedChunkedBodyWithoutContentLengthIs413() throws IOException {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = limited(engine)) {
            StringBuilder request = new StringBuilder("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
            String body = TestServer.chat("y".repeat(6_000));
            for (int i = 0; i < body.length(); i += 500) {
                String chunk = body.substring(i, Math.min(body.length(), i + 500));
                request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
            }
            request.append("0\r\n\r\n");

            String response = raw(api, request.toString(), Duration.ofSeconds(5));

            assertThat(statusOf(response)).isEqualTo(413);
            assertThat(engine.callCount()).isZero();
        }
    }

    @Test
    void tooManyMessagesAndTooLongMessagesAre400OnBothEndpoints() {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = limited(engine)) {
            String four = "[" + String.join(",", List.of(msg("a"), msg("b"), msg("c"), msg("d"))) + "]";
            assertOpenAiError(post(api, "/v1/chat/completions", "{\"model\":\"m\",\"messages\":" + four + "}"), 400);
            assertThat(post(api, "/v1/requests", "{\"messages\":" + four + "}").statusCode()).isEqualTo(400);
            String tooLong = "[" + msg("z".repeat(101)) + "]";
            assertOpenAiError(post(api, "/v1/chat/completions", "{\"model\":\"m\",\"messages\":" + tooLong + "}"),
                    400);
            assertThat(post(api, "/v1/requests", "{\"messages\":" + tooLong + "}").statusCode()).isEqualTo(400);
            assertThat(engine.callCount()).isZero();
        }
    }

    private static String msg(String content) {
        return "{\"role\":\"user\",\"content\":\"" + content + "\"}";
    }

    // ------------------------------------------------------------------------------------------------ malformed

    @ParameterizedTest(name = "body [{0}]")
    @ValueSource(strings = {"", "{", "not json", "[1,2]", "null", "\"text\"", "{\"messages\":5}",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":{\"a\":1}}]}",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"wizard\",\"content\":\"x\"}]}",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"temperature\":\"hot\","
                    + "\"hints\":{\"temperature\":\"hot\"}}",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"tools\":[{\"x\":1}]}",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}}}",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"\\ud800\"}]",
            "{\"a\":1,\"a\":2}"})
    void malformedJsonIs400WithAnOpenAiErrorBody(String body) {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = TestServer.start(engine)) {
            HttpResponse<String> chat = post(api, "/v1/chat/completions", body);
            HttpResponse<String> nativeCall = post(api, "/v1/requests", body);

            assertOpenAiError(chat, 400);
            assertThat(nativeCall.statusCode()).isEqualTo(400);
            assertThat(TestServer.json(nativeCall).path("error").path("code").stringValue()).isNotBlank();
            assertThat(engine.callCount()).isZero();
        }
    }

    @Test
    void deeplyNestedJsonIs400NotAStackOverflow() {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = TestServer.start(engine)) {
            String deep = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"metadata\":"
                    + "[".repeat(100_000) + "]".repeat(100_000) + "}";
            assertOpenAiError(post(api, "/v1/chat/completions", deep), 400);
            assertThat(post(api, "/v1/requests", "{\"messages\":" + "[".repeat(100_000) + "]".repeat(100_000)
                    + "}").statusCode()).isEqualTo(400);
            assertThat(engine.callCount()).isZero();
        }
    }

    @Test
    void invalidUtf8IsRefusedWithoutALeak() throws IOException {
        ScriptedEngine engine = ScriptedEngine.replying("hi");
        try (TestServer api = TestServer.start(engine)) {
            byte[] head = ("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                    + "\r\nConnection: close\r\nContent-Length: 4\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] body = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE};
            byte[] all = new byte[head.length + body.length];
            System.arraycopy(head, 0, all, 0, head.length);
            System.arraycopy(body, 0, all, head.length, body.length);

            String response = raw(api, all, Duration.ofSeconds(5));

            assertThat(statusOf(response)).isEqualTo(400);
            assertThat(engine.callCount()).isZero();
        }
    }

    // ------------------------------------------------------------------------------------------------ slow clients

    @Test
    void aClientThatStopsSendingItsHeadersIsDisconnectedAfterTheIdleTimeout() throws IOException {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("hi"),
                b -> b.idleTimeout(Duration.ofMillis(500)));
             Socket slow = new Socket("127.0.0.1", api.server.port())) {
            slow.setSoTimeout(10_000);
            OutputStream out = slow.getOutputStream();
            out.write("POST /v1/chat/completions HTTP/1.1\r\nHost: local".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long started = System.nanoTime();

            int read = readUntilClosed(slow.getInputStream());

            assertThat(read).as("the server closed the connection").isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(9));
        }
    }

    @Test
    void aBodyTricklingInByteByByteDoesNotHoldTheOnlyPermitAndIsCutOff() throws Exception {
        ScriptedEngine engine = ScriptedEngine.replying("fast one");
        try (TestServer api = TestServer.start(engine, b -> b.maxConcurrentRequests(1)
                .idleTimeout(Duration.ofSeconds(2)).minRequestDataRate(200));
             Socket slow = new Socket("127.0.0.1", api.server.port())) {
            slow.setSoTimeout(15_000);
            String body = TestServer.chat("slow");
            OutputStream out = slow.getOutputStream();
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> {
                try {
                    for (byte b : body.getBytes(StandardCharsets.US_ASCII)) {
                        out.write(b);
                        out.flush();
                        TimeUnit.MILLISECONDS.sleep(150);
                    }
                } catch (IOException | InterruptedException cutOff) {
                    // the server closed the connection: what this test expects
                }
            });
            TimeUnit.MILLISECONDS.sleep(600); // the slow body is being read now

            HttpResponse<String> other = post(api, "/v1/chat/completions", TestServer.chat("hi"));

            assertThat(other.statusCode()).as("another client is served meanwhile, not 429").isEqualTo(200);
            String slowResponse = readAll(slow.getInputStream());
            bodies.add(slowResponse);
            assertThat(slowResponse.isEmpty() || statusOf(slowResponse) == 408)
                    .as("the slow body is refused or cut off: " + slowResponse).isTrue();
            assertThat(engine.callCount()).isEqualTo(1);
            trickle.cancel(true);
        }
    }

    @Test
    void theSlowClientSettingsHaveCommandLineOptions() {
        ServerOptions defaults = ServerOptions.parse(List.of("--scripted", "a"), Map.of());
        ServerOptions tuned = ServerOptions.parse(List.of("--scripted", "a", "--idle-timeout", "5",
                "--min-request-rate", "0"), Map.of());

        assertThat(defaults.idleTimeoutSeconds()).isEqualTo(30);
        assertThat(defaults.minRequestRate()).isEqualTo(1024);
        assertThat(tuned.idleTimeoutSeconds()).isEqualTo(5);
        assertThat(tuned.minRequestRate()).isZero();
        assertThat(ServerOptions.USAGE).contains("--idle-timeout").contains("--min-request-rate");
    }

    // ------------------------------------------------------------------------------------------------ secrets

    @Test
    void aToolsSecretArgumentAndItsFailureNeverReachTheClientOrTheLog() {
        Tool login = Tool.builder(ToolDefinition.of("login", "Logs in",
                        Schema.object().required("password", Schema.string()).build()))
                .handler((ctx, args) -> {
                    throw new IllegalStateException("wrong password " + args.get("password"));
                }).build();
        ScriptedEngine engine = ScriptedEngine.builder()
                .replyCallingTool("login", Map.of("password", TOOL_SECRET))
                .reply("Login failed.")
                .build();
        try (TestServer api = TestServer.wired(engine, o -> o.tools(ToolRegistry.of(login)))) {
            HttpResponse<String> response = post(api, "/v1/chat/completions", TestServer.chat("log me in"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(TestServer.json(response).path("choices").get(0).path("message").path("content")
                    .stringValue()).isEqualTo("Login failed.");
        }
    }

    @Test
    void aBearerTokenIsNeverEchoedEvenWhenSentAsTheModelName() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("x"), b -> b.bearerToken(TOKEN))) {
            HttpResponse<String> wrong = post(api, "/v1/chat/completions",
                    "{\"model\":\"" + TOKEN + "x\",\"messages\":[]}", "Authorization", "Bearer " + TOKEN + "x");
            HttpResponse<String> unknownModel = api.get("/v1/models/" + TOKEN, "Authorization", "Bearer wrong");
            bodies.add(unknownModel.body());

            assertThat(wrong.statusCode()).isEqualTo(401);
            assertThat(unknownModel.statusCode()).isEqualTo(401);
        }
    }

    // ------------------------------------------------------------------------------------------------ raw HTTP

    private static String raw(TestServer api, String request, Duration timeout) throws IOException {
        return raw(api, request.getBytes(StandardCharsets.UTF_8), timeout);
    }

    private static String raw(TestServer api, byte[] request, Duration timeout) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", api.server.port())) {
            socket.setSoTimeout((int) timeout.toMillis());
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException refusedMidway) {
                // the server may answer and close before reading everything (413): read what it said
            }
            return readAll(socket.getInputStream());
        }
    }

    /** What the server sent until it closed the connection, or until the read timed out after a full response. */
    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                got.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException | java.net.SocketException stopped) {
            // keep-alive connection left open, or reset after the answer
        }
        return got.toString(StandardCharsets.UTF_8);
    }

    private static int readUntilClosed(InputStream in) throws IOException {
        try {
            int b;
            while ((b = in.read()) >= 0) {
                // drain whatever the server says (a 408 is fine)
            }
            return b;
        } catch (java.net.SocketException reset) {
            return -1;
        }
    }

    private static int statusOf(String response) {
        assertThat(response).as("an HTTP response").startsWith("HTTP/1.1 ");
        return Integer.parseInt(response.substring(9, 12));
    }

    /** Writes to the real stream and to the capture. */
    private static final class TeeStream extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        TeeStream(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }
}
