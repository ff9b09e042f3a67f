package dev.pagantic.engine.openai;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * One inference call over HTTP: encodes the request, runs the exchange under the call context ({@link HttpCall}), and
 * decodes the answer, whole or streamed.
 */
final class ChatCall {

    private static final Logger LOG = LoggerFactory.getLogger(ChatCall.class);

    /** What every chat call of one engine shares. */
    record Wiring(HttpCall.Wiring http, URI endpoint, ChatRequestEncoder encoder, ChatResponseDecoder decoder,
                  HttpFailures failures) {
    }

    private final Wiring wiring;
    private final CallContext context;
    private final Request request;
    private final StreamHandler handler; // NOOP: not streamed
    private final boolean streamed;

    ChatCall(Wiring wiring, CallContext context, Request request, StreamHandler handler) {
        this.wiring = wiring;
        this.context = context;
        this.request = request;
        this.handler = handler;
        this.streamed = handler != StreamHandler.NOOP;
    }

    Result run() {
        byte[] body;
        try {
            body = wiring.encoder().encode(request, streamed);
        } catch (PaganticException invalid) {
            throw wiring.failures().withEndpoint(invalid);
        }
        long started = System.nanoTime();
        return new HttpCall(wiring.http(), wiring.failures(), context).post(wiring.endpoint(), body,
                streamed ? "text/event-stream" : "application/json", response -> answer(response, started));
    }

    private Result answer(Exchange.Received response, long started) throws IOException {
        InputStream body = response.body();
        Delivery delivery = new Delivery(handler, context);
        boolean eventStream = response.headers().firstValue("Content-Type")
                .map(type -> type.toLowerCase(Locale.ROOT).startsWith("text/event-stream")).orElse(false);
        if (eventStream) {
            return streamed(body, delivery, started);
        }
        // A server that ignores "stream": true answers whole; the handler then gets the answer whole.
        String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
        context.throwIfDone();
        JsonNode root = wiring.decoder().parseObject(text, "the answer");
        Result result = wiring.decoder().decode(root, request, context, elapsed(started));
        return streamed ? delivery.whole(result) : result;
    }

    private Result streamed(InputStream body, Delivery delivery, long started) throws IOException {
        SseReader reader = new SseReader(body);
        ChatStreamDecoder stream = new ChatStreamDecoder(wiring.decoder(), delivery, request, context);
        try {
            SseReader.Event event;
            while ((event = reader.next()) != null) {
                if (event.data().strip().equals("[DONE]")) {
                    stream.done();
                    break;
                }
                for (JsonNode chunk : chunks(event)) {
                    stream.accept(chunk);
                }
                context.throwIfDone();
            }
        } catch (SseReader.OversizedLine oversized) {
            throw wiring.failures().malformed(oversized.getMessage(), oversized);
        } catch (IOException dropped) {
            // After the finish reason only the usage chunk and [DONE] are missing: the answer itself is whole.
            if (!stream.complete() || context.isDone()) {
                throw dropped;
            }
            LOG.debug("the stream from {} dropped after its finish reason: {}", wiring.endpoint(), dropped.toString());
        }
        if (!stream.complete()) {
            throw wiring.failures().truncatedStream();
        }
        return stream.finish(elapsed(started));
    }

    /** The chunks of one event: its data as one JSON object, or (leniently) one object per data line. */
    private List<JsonNode> chunks(SseReader.Event event) {
        try {
            return List.of(wiring.decoder().parseObject(event.data(), "a stream chunk"));
        } catch (PaganticException malformed) {
            if (!event.complete()) {
                throw wiring.failures().truncatedStream(); // the connection cut the last event
            }
            if (event.lines().size() < 2) {
                throw malformed;
            }
            List<JsonNode> chunks = new ArrayList<>();
            for (String line : event.lines()) {
                chunks.add(wiring.decoder().parseObject(line, "a stream chunk"));
            }
            return chunks;
        }
    }

    private static Duration elapsed(long started) {
        return Duration.ofNanos(Math.max(0, System.nanoTime() - started));
    }
}
