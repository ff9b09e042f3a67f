package dev.pagantic.adapter.mcp.client;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The stdio transport of the client: runs the server's command and exchanges newline-delimited JSON-RPC over its
 * standard input and output. It replaces the SDK's stdio transport for what a guarded tool call needs and that one
 * does not do: it reports the server's exit at once ({@link #terminated()}, so that a call in flight fails then
 * rather than at its timeout), it skips a line that is not JSON-RPC instead of going deaf, it bounds the length of a
 * line, it keeps the server's last stderr lines for error messages, and it stops the server's child processes too
 * (an {@code npx} launcher's node process).
 *
 * <p>Three daemon threads per server, all ended by {@link #closeGracefully()} or the server's exit: one reads stdout,
 * one reads stderr, one writes stdin, so that no caller ever blocks on a full pipe.
 */
final class ProcessTransport implements McpClientTransport {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessTransport.class);

    /** The longest line read; a longer one is skipped (an MCP message carrying a large image still fits). */
    static final int MAX_LINE_BYTES = 32 * 1024 * 1024;
    private static final int STDERR_LINES_KEPT = 20;
    private static final int MAX_STDERR_LINE = 1000;

    private final String server;
    private final List<String> commandLine;
    private final Map<String, String> env;
    private final McpJsonMapper mapper;
    private final CompletableFuture<String> terminated = new CompletableFuture<>();
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final ExecutorService writer;
    private volatile Process process;
    private volatile boolean closing;

    ProcessTransport(String server, List<String> commandLine, Map<String, String> env, McpJsonMapper mapper) {
        this.server = server;
        this.commandLine = List.copyOf(commandLine);
        this.env = Map.copyOf(env);
        this.mapper = mapper;
        this.writer = Executors.newSingleThreadExecutor(daemon("pagantic-mcp-" + server + "-stdin"));
    }

    /**
     * Completes, with a description of what happened (the exit code and the server's last stderr lines), when the
     * server's output ends: it exited, crashed or closed its stdout. Never completes for a transport closed by us.
     */
    CompletableFuture<String> terminated() {
        return terminated;
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> start(handler));
    }

    private void start(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        ProcessBuilder builder = new ProcessBuilder(commandLine);
        builder.environment().putAll(env);
        try {
            process = builder.start();
        } catch (IOException | RuntimeException cannotStart) {
            writer.shutdownNow();
            String why = "MCP server '" + server + "' cannot be started with " + commandLine + ": "
                    + cannotStart.getMessage();
            terminated.complete(why);
            throw new IllegalStateException(why, cannotStart);
        }
        LOG.debug("MCP server '{}' started: pid {}", server, process.pid());
        Process started = process;
        daemon("pagantic-mcp-" + server + "-stdout").newThread(() -> readMessages(started, handler)).start();
        daemon("pagantic-mcp-" + server + "-stderr").newThread(() -> readStderr(started)).start();
    }

    private void readMessages(Process started, Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        try (InputStream out = started.getInputStream()) {
            LineReader lines = new LineReader(out);
            String line;
            while ((line = lines.next()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(mapper, line);
                } catch (IOException | RuntimeException notJsonRpc) {
                    LOG.warn("MCP server '{}' wrote a line that is not JSON-RPC; skipped: {}", server,
                            abbreviate(line));
                    continue;
                }
                try {
                    handler.apply(Mono.just(message)).subscribe(ignored -> { }, failed -> LOG.warn(
                            "MCP server '{}': handling a message failed", server, failed));
                } catch (RuntimeException failed) {
                    LOG.warn("MCP server '{}': handling a message failed", server, failed);
                }
            }
        } catch (IOException | RuntimeException readFailed) {
            if (!closing) {
                LOG.debug("MCP server '{}': reading its output failed", server, readFailed);
            }
        } finally {
            ended(started);
        }
    }

    private void readStderr(Process started) {
        try (InputStream err = started.getErrorStream()) {
            LineReader lines = new LineReader(err);
            String line;
            while ((line = lines.next()) != null) {
                LOG.debug("MCP server '{}' stderr: {}", server, line);
                synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_LINES_KEPT) {
                        stderrTail.removeFirst();
                    }
                    stderrTail.addLast(abbreviate(line));
                }
            }
        } catch (IOException | RuntimeException readFailed) {
            LOG.trace("MCP server '{}': reading its stderr ended", server, readFailed);
        }
    }

    /** The server's output ended: wait a moment for its exit code, then say so. */
    private void ended(Process started) {
        if (closing) {
            return;
        }
        String exit;
        try {
            exit = started.waitFor(1, TimeUnit.SECONDS) ? "exited with code " + started.exitValue()
                    : "closed its output";
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            exit = "closed its output";
        }
        String tail = stderrTail();
        String description = "MCP server '" + server + "' " + exit + (tail.isEmpty() ? "" : "; its last stderr "
                + "lines: " + tail);
        LOG.warn("{}", description);
        terminated.complete(description);
    }

    /** The server's last stderr lines, joined by " | "; empty when it wrote none. */
    String stderrTail() {
        synchronized (stderrTail) {
            return String.join(" | ", stderrTail);
        }
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        byte[] line;
        try {
            // compact JSON escapes the newlines inside strings, so the message is one line
            line = (mapper.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (IOException unwritable) {
            return Mono.error(unwritable);
        }
        Process target = process;
        if (target == null || closing || terminated.isDone()) {
            return Mono.error(new IOException("MCP server '" + server + "' is not running"));
        }
        CompletableFuture<Void> written = new CompletableFuture<>();
        try {
            writer.execute(() -> {
                try {
                    OutputStream in = target.getOutputStream();
                    in.write(line);
                    in.flush();
                    written.complete(null);
                } catch (IOException | RuntimeException failed) {
                    written.completeExceptionally(failed);
                }
            });
        } catch (RejectedExecutionException closed) {
            return Mono.error(new IOException("MCP server '" + server + "' transport is closed", closed));
        }
        return Mono.fromFuture(written);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::close);
    }

    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        writer.shutdownNow();
        Process running = process;
        if (running == null) {
            return;
        }
        try {
            running.getOutputStream().close(); // a well-behaved server exits at the end of its input
        } catch (IOException ignored) {
            // it is going anyway
        }
        running.descendants().forEach(ProcessHandle::destroy);
        running.destroy();
        try {
            if (!running.waitFor(2, TimeUnit.SECONDS)) {
                running.descendants().forEach(ProcessHandle::destroyForcibly);
                running.destroyForcibly();
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            running.destroyForcibly();
        }
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }

    private static String abbreviate(String line) {
        return line.length() <= MAX_STDERR_LINE ? line : line.substring(0, MAX_STDERR_LINE) + "... ("
                + line.length() + " characters)";
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Reads UTF-8 lines of at most {@link #MAX_LINE_BYTES}; a longer line is skipped and reported as blank. */
    private final class LineReader {
        private final InputStream in;
        private final byte[] buffer = new byte[8192];
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private int position;
        private int limit;

        LineReader(InputStream in) {
            this.in = in;
        }

        @Nullable String next() throws IOException {
            line.reset();
            boolean tooLong = false;
            while (true) {
                if (position == limit) {
                    limit = in.read(buffer);
                    position = 0;
                    if (limit <= 0) {
                        limit = 0;
                        return line.size() == 0 && !tooLong ? null : tooLong ? "" : text();
                    }
                }
                int start = position;
                while (position < limit && buffer[position] != '\n') {
                    position++;
                }
                if (!tooLong) {
                    line.write(buffer, start, position - start);
                    if (line.size() > MAX_LINE_BYTES) {
                        LOG.warn("MCP server '{}' wrote a line longer than {} bytes; skipped", server,
                                MAX_LINE_BYTES);
                        tooLong = true;
                        line.reset();
                    }
                }
                if (position < limit) {
                    position++; // the newline
                    return tooLong ? "" : text();
                }
            }
        }

        private String text() {
            String text = line.toString(StandardCharsets.UTF_8);
            return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        }
    }
}
