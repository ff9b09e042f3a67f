package dev.pagantic.adapter.api;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.SystemResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A streamed chat completion: receives the model's output from the facade and writes it to the client as OpenAI
 * {@code chat.completion.chunk} server-sent events, then the finish chunk, the optional usage chunk and
 * {@code data: [DONE]}.
 *
 * <p>The response is committed (status 200, {@code text/event-stream}) lazily, with the first chunk: a request that
 * fails before the model produced anything still gets a proper HTTP error status. A failure after that can only be
 * reported in the stream, as a {@code data: {"error": ...}} event without {@code [DONE]}, which OpenAI clients raise
 * as an error.
 *
 * <p>When a write fails, the client has gone: the request's {@link Cancellation} is cancelled, so the facade stops
 * generating at the next token and ends the request with {@code CANCELLED_SIGNAL}. Nothing more is written.
 *
 * <p>With {@code n} above 1 the choices are generated one after the other and streamed in turn, each with its
 * {@code index}: its role chunk, its deltas and its finish chunk ({@link #completeChoice}); {@link #end} then sends
 * the usage chunk and {@code [DONE]}.
 *
 * <p>In structured mode ({@code forwardContent} false) the model's raw tokens are not forwarded: the content is sent
 * once, at the end, as the validated JSON, so that the concatenated deltas are always a document of the schema.
 *
 * <p>Thread-safe: an engine may stream from a thread of its own.
 */
final class ChatStream implements StreamHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ChatStream.class);
    private static final String DONE = "data: [DONE]\n\n";

    private final HttpServletResponse response;
    private final Cancellation cancellation;
    private final ChatCompletionResponseMapper mapper;
    private final ChatCompletionResponseMapper.Envelope envelope;
    private final boolean forwardContent;
    private final Object lock = new Object();
    private boolean started; // guarded by lock
    private boolean gone; // guarded by lock
    private int index; // guarded by lock: the choice being streamed
    private boolean choiceStarted; // guarded by lock

    ChatStream(HttpServletResponse response, Cancellation cancellation, ChatCompletionResponseMapper mapper,
               ChatCompletionResponseMapper.Envelope envelope, boolean forwardContent) {
        this.response = Objects.requireNonNull(response, "response");
        this.cancellation = Objects.requireNonNull(cancellation, "cancellation");
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        this.envelope = Objects.requireNonNull(envelope, "envelope");
        this.forwardContent = forwardContent;
    }

    @Override
    public void onContent(String delta) {
        if (!forwardContent || delta.isEmpty()) {
            return;
        }
        synchronized (lock) {
            startChoice();
            send(mapper.contentChunk(envelope, index, delta));
        }
    }

    /** Whether the stream has been committed, so that a failure can no longer change the HTTP status. */
    boolean started() {
        synchronized (lock) {
            return started;
        }
    }

    /** Whether a write failed because the client went away. */
    boolean clientGone() {
        synchronized (lock) {
            return gone;
        }
    }

    /** Ends the current choice: structured content, caller tool calls, finish reason; the next choice follows. */
    void completeChoice(SystemResponse result, boolean structured) {
        synchronized (lock) {
            startChoice();
            if (structured) {
                send(mapper.contentChunk(envelope, index, mapper.content(result, true)));
            }
            if (result.hasToolCallsRequested()) {
                mapper.toolCallChunks(envelope, index, result.toolCallsRequested()).forEach(this::send);
            }
            send(mapper.finishChunk(envelope, index, result));
            index++;
            choiceStarted = false;
        }
    }

    /** Ends a successful response after its last choice: the usage chunk when asked for, then {@code [DONE]}. */
    void end(TokenUsage usage, boolean includeUsage) {
        synchronized (lock) {
            start();
            if (includeUsage) {
                send(mapper.usageChunk(envelope, usage));
            }
            write(DONE);
            close();
        }
    }

    /** Ends a stream that had started when the request failed: an error event, and no {@code [DONE]}. */
    void fail(String errorDocument) {
        synchronized (lock) {
            send(errorDocument);
            close();
        }
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        EventStreamResponse.open(response);
    }

    private void startChoice() {
        start();
        if (!choiceStarted) {
            choiceStarted = true;
            send(mapper.roleChunk(envelope, index));
        }
    }

    private void send(String json) {
        write("data: " + json + "\n\n");
    }

    private void write(String event) {
        if (gone) {
            return;
        }
        try {
            OutputStream out = response.getOutputStream();
            out.write(event.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException | UncheckedIOException | IllegalStateException disconnected) {
            gone = true;
            LOG.debug("client of {} went away: {}", envelope.id(), disconnected.toString());
            cancellation.cancel("the client disconnected");
        }
    }

    private void close() {
        if (!gone) {
            gone = !EventStreamResponse.complete(response);
        }
    }
}
