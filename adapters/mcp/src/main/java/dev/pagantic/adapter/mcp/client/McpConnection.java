package dev.pagantic.adapter.mcp.client;

import dev.pagantic.adapter.mcp.internal.McpJson;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Registration;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The client side of one MCP server: a session that is opened on first use, replaced when the server dies or stops
 * answering, and the server's current tool listing.
 *
 * <p>A session ends when the server's process exits (at once: see {@link ProcessTransport#terminated()}), when a call
 * fails at the transport level, or when the server does not answer a ping after a call timed out. The call in flight
 * then fails with a tool code, and the next call opens a new session (for a stdio server, a new process).
 */
final class McpConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);

    /** The SDK's own bound on a request, behind the tool executor's timeout that normally comes first. */
    static final Duration REQUEST_LIMIT = Duration.ofMinutes(10);
    /** How long a server gets to answer a ping after one of its calls timed out. */
    static final Duration HEALTH_CHECK_TIMEOUT = Duration.ofSeconds(5);

    private final McpServerConfig config;
    private final Duration connectTimeout;
    private final String clientVersion;
    private final Consumer<McpConnection> toolsChanged;
    private final Object lock = new Object();
    private volatile @Nullable Session session;
    private volatile List<McpSchema.Tool> tools = List.of();
    private volatile boolean closed;

    /** A live session: the SDK client, and what completes when its server is gone. */
    private record Session(McpAsyncClient client, McpClientTransport transport, CompletableFuture<String> gone) {
        boolean alive() {
            return !gone.isDone();
        }
    }

    McpConnection(McpServerConfig config, Duration connectTimeout, String clientVersion,
                  Consumer<McpConnection> toolsChanged) {
        this.config = config;
        this.connectTimeout = connectTimeout;
        this.clientVersion = clientVersion;
        this.toolsChanged = toolsChanged;
    }

    McpServerConfig config() {
        return config;
    }

    String name() {
        return config.name();
    }

    /** The tools the server offered when last asked (at connect, reconnect, or on its list_changed notification). */
    List<McpSchema.Tool> tools() {
        return tools;
    }

    /** Connects now if not connected; {@code TOOL_UNAVAILABLE} when the server cannot be reached. */
    void connect() {
        session();
    }

    /**
     * Calls a tool and returns the text the model sees. Waits at most until the context's deadline and stops waiting
     * when it is cancelled (the executor does both on the tool's timeout).
     *
     * @throws PaganticException a tool code: {@code TOOL_EXECUTION_FAILED} when the tool reported an error, the server
     *                           answered with one or it died during the call; {@code TOOL_INVALID_ARGUMENTS} when it
     *                           refused the arguments; {@code TOOL_UNAVAILABLE} when it cannot be reached; or the
     *                           context's own {@code CANCELLED_*} code
     */
    String call(CallContext ctx, String tool, Map<String, Object> arguments) throws InterruptedException {
        Session current = session();
        CompletableFuture<CallToolResult> call = current.client.callTool(CallToolRequest.builder(tool)
                .arguments(arguments).build()).toFuture();
        CompletableFuture<Void> cancelled = new CompletableFuture<>();
        Registration cancellation = ctx.onCancel(() -> cancelled.complete(null));
        try {
            await(CompletableFuture.anyOf(call, current.gone, cancelled), ctx.remaining());
        } catch (InterruptedException interrupted) {
            call.cancel(true);
            checkHealth(current);
            throw interrupted;
        } finally {
            cancellation.close();
        }
        if (call.isDone()) {
            return outcome(current, tool, call);
        }
        if (current.gone.isDone()) {
            discard(current);
            throw failure(ErrorCode.TOOL_EXECUTION_FAILED, "tool '" + tool + "' did not finish: "
                    + current.gone.join() + "; the next call restarts the server", tool);
        }
        call.cancel(true); // the caller stopped waiting: its deadline passed or it was cancelled
        checkHealth(current);
        ctx.throwIfDone();
        throw PaganticException.of(ErrorCode.CANCELLED_TIMEOUT, "MCP server '" + name() + "' did not answer tool '"
                + tool + "' in time");
    }

    private String outcome(Session current, String tool, CompletableFuture<CallToolResult> call) {
        CallToolResult result;
        try {
            result = call.get();
        } catch (ExecutionException failed) {
            throw callFailure(current, tool, failed.getCause() != null ? failed.getCause() : failed);
        } catch (InterruptedException | java.util.concurrent.CancellationException impossible) {
            throw callFailure(current, tool, impossible); // the future is done and was not cancelled
        }
        String text = CallResults.text(result);
        if (Boolean.TRUE.equals(result.isError())) {
            throw failure(ErrorCode.TOOL_EXECUTION_FAILED, "tool '" + tool + "' reported an error: " + text, tool);
        }
        return text;
    }

    private PaganticException callFailure(Session current, String tool, Throwable cause) {
        if (cause instanceof McpError error && error.getJsonRpcError() != null) {
            McpSchema.JSONRPCResponse.JSONRPCError rpc = error.getJsonRpcError();
            boolean arguments = rpc.code() != null && rpc.code() == McpSchema.ErrorCodes.INVALID_PARAMS;
            return failure(arguments ? ErrorCode.TOOL_INVALID_ARGUMENTS : ErrorCode.TOOL_EXECUTION_FAILED,
                    (arguments ? "refused the arguments of tool '" : "answered tool '") + tool + "' with error "
                            + rpc.code() + ": " + rpc.message(), tool);
        }
        if (cause instanceof TimeoutException) {
            return failure(ErrorCode.TOOL_TIMEOUT, "did not answer tool '" + tool + "' within " + REQUEST_LIMIT, tool);
        }
        discard(current);
        return failure(ErrorCode.TOOL_EXECUTION_FAILED, "lost the connection during tool '" + tool + "': "
                + describe(cause) + "; the next call reconnects", tool);
    }

    /** After a timed-out call: a server that does not answer a ping either is replaced at the next call. */
    private void checkHealth(Session current) {
        current.client.ping().timeout(HEALTH_CHECK_TIMEOUT).subscribe(pong -> { }, noAnswer -> {
            LOG.warn("MCP server '{}' did not answer a ping after a call timed out; it will be restarted at the "
                    + "next call", name());
            discard(current);
        });
    }

    // ------------------------------------------------------------------------------------------------------ sessions

    private Session session() {
        Session current = session;
        if (current != null && current.alive()) {
            return current;
        }
        synchronized (lock) {
            current = session;
            if (current != null && current.alive()) {
                return current;
            }
            if (current != null) {
                discard(current);
            }
            if (closed) {
                throw failure(ErrorCode.TOOL_UNAVAILABLE, "is closed", null);
            }
            Session opened = open();
            session = opened;
            return opened;
        }
    }

    private Session open() {
        McpClientTransport transport;
        CompletableFuture<String> gone;
        if (config.isStdio()) {
            ProcessTransport process = new ProcessTransport(name(), config.commandLine(), config.env(), McpJson.MCP);
            transport = process;
            gone = process.terminated();
        } else {
            transport = httpTransport(config.url().orElseThrow(), config.headers());
            gone = new CompletableFuture<>(); // an HTTP server's failures surface in its requests
        }
        McpAsyncClient client = McpClient.async(transport)
                .clientInfo(McpSchema.Implementation.builder("pagantic", clientVersion).build())
                .requestTimeout(REQUEST_LIMIT)
                .initializationTimeout(connectTimeout)
                .toolsChangeConsumer(listed -> Mono.fromRunnable(() -> listed(listed)))
                .build();
        Session opened = new Session(client, transport, gone);
        try {
            long deadline = System.nanoTime() + connectTimeout.toNanos();
            awaitOrFail(client.initialize().toFuture(), gone, deadline, "initialize");
            listed(listAll(client, gone, deadline));
            LOG.info("connected to MCP server '{}' ({} tools)", name(), tools.size());
            return opened;
        } catch (RuntimeException failed) {
            close(opened);
            throw failed;
        }
    }

    private List<McpSchema.Tool> listAll(McpAsyncClient client, CompletableFuture<String> gone, long deadline) {
        List<McpSchema.Tool> all = new ArrayList<>();
        ListToolsResult page = awaitOrFail(client.listTools().toFuture(), gone, deadline, "list its tools");
        all.addAll(page.tools());
        for (int pages = 1; page.nextCursor() != null && pages < 1000; pages++) {
            page = awaitOrFail(client.listTools(page.nextCursor()).toFuture(), gone, deadline, "list its tools");
            all.addAll(page.tools());
        }
        return all;
    }

    private <T> T awaitOrFail(CompletableFuture<T> step, CompletableFuture<String> gone, long deadline, String what) {
        try {
            await(CompletableFuture.anyOf(step, gone), Optional.of(Duration.ofNanos(deadline - System.nanoTime())));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw failure(ErrorCode.TOOL_UNAVAILABLE, "could not " + what + ": interrupted", null);
        }
        if (step.isCompletedExceptionally() && timedOut(step)) { // the SDK's initialization timeout: the same one
            throw noAnswer(what);
        }
        if (gone.isDone()) { // the server's own story beats the request's failure that followed from it
            step.cancel(true);
            throw failure(ErrorCode.TOOL_UNAVAILABLE, "could not " + what + ": " + gone.join(), null);
        }
        if (step.isDone()) {
            try {
                return step.get();
            } catch (ExecutionException | InterruptedException | java.util.concurrent.CancellationException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                if (cause instanceof TimeoutException) { // the SDK's timeout, ending as our deadline passed
                    throw noAnswer(what);
                }
                throw failure(ErrorCode.TOOL_UNAVAILABLE, "could not " + what + ": " + describe(cause), null, cause);
            }
        }
        step.cancel(true);
        throw noAnswer(what);
    }

    private PaganticException noAnswer(String what) {
        return failure(ErrorCode.TOOL_UNAVAILABLE, "could not " + what + ": no answer within "
                + connectTimeout.toMillis() + " ms", null);
    }

    /** Whether the step failed by the SDK's own timeout (the transport may report its closing first). */
    private static boolean timedOut(CompletableFuture<?> step) {
        try {
            step.join();
            return false;
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            return e.getCause() instanceof TimeoutException;
        }
    }

    private void listed(List<McpSchema.Tool> listed) {
        List<McpSchema.Tool> now = List.copyOf(listed);
        if (!now.equals(tools)) { // a reconnect usually lists the same tools again
            tools = now;
            toolsChanged.accept(this);
        }
    }

    /** Ends the session if it is still the current one; the next call opens a new one. */
    private void discard(Session ended) {
        synchronized (lock) {
            if (session == ended) {
                session = null;
            }
        }
        close(ended);
    }

    private void close(Session ended) {
        try {
            ended.client.close();
        } catch (RuntimeException failed) {
            LOG.debug("closing the MCP client of '{}' failed", name(), failed);
        }
        ended.transport.close();
    }

    @Override
    public void close() {
        Session last;
        synchronized (lock) {
            closed = true;
            last = session;
            session = null;
        }
        if (last != null) {
            close(last);
        }
    }

    // ----------------------------------------------------------------------------------------------------- helpers

    private static McpClientTransport httpTransport(URI url, Map<String, String> headers) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String base = url.getScheme() + "://" + url.getRawAuthority();
        HttpRequest.Builder request = HttpRequest.newBuilder();
        headers.forEach(request::header);
        return HttpClientStreamableHttpTransport.builder(base)
                .endpoint(path + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()))
                .jsonMapper(McpJson.MCP)
                .requestBuilder(request)
                .build();
    }

    /** Waits for the future until the time left runs out (forever without one); returns either way. */
    private static void await(CompletableFuture<?> future, Optional<Duration> left) throws InterruptedException {
        try {
            if (left.isEmpty()) {
                future.get();
            } else if (!left.get().isNegative()) {
                future.get(left.get().toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException | TimeoutException | java.util.concurrent.CancellationException e) {
            // the caller looks at what completed
        }
    }

    private PaganticException failure(ErrorCode code, String message, String tool) {
        return failure(code, message, tool, null);
    }

    private PaganticException failure(ErrorCode code, String message, String tool, Throwable cause) {
        return PaganticException.builder(code, "MCP server '" + name() + "' " + message)
                .detail("mcp_server", name()).detail("tool", tool).cause(cause).build();
    }

    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root && (root.getMessage() == null
                || root instanceof ExecutionException || root.getClass() == RuntimeException.class)) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }
}
