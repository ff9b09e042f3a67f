package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.JSON;
import static dev.pagantic.adapter.api.Responses.LOG;

import dev.pagantic.core.ErrorCode;
import io.javalin.http.Context;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.eclipse.jetty.http.HttpException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JsonNode;

/**
 * The body of an inference request, from the wire to text and to a JSON tree: its content type checked, its size
 * bounded (413), its rate bounded ({@link BodyReader}, 408), its bytes decoded as strict UTF-8 and its JSON parsed.
 * Every refusal is an {@link ApiFailure} whose message names the request, never Jetty's or Jackson's classes.
 */
final class RequestBodies {

    private final ApiLimits limits;
    private final BodyReader reader;

    RequestBodies(ApiLimits limits, BodyReader reader) {
        this.limits = limits;
        this.reader = reader;
    }

    /** The body as text, refused with 413 beyond the limit (by its declared length before reading it). */
    String read(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limits.maxBodyBytes()) {
            throw tooLarge();
        }
        int cap = (int) Math.min(limits.maxBodyBytes() + 1, Integer.MAX_VALUE - 8);
        try (ServletInputStream in = ctx.req().getInputStream()) {
            byte[] bytes = reader.read(in, cap);
            if (bytes.length > limits.maxBodyBytes()) {
                throw tooLarge();
            }
            return utf8(bytes);
        } catch (ApiFailure refused) {
            throw refused;
        } catch (IOException | RuntimeException unreadable) {
            // The minimum data rate (BodyReader), Jetty's idle timeout, its size limit on a chunked body (a runtime
            // BadMessageException), or a reset connection. The exception's text names Jetty's classes, so it goes to
            // the debug log only, never to the client.
            if (statusOf(unreadable) == HttpStatuses.CONTENT_TOO_LARGE) {
                throw tooLarge();
            }
            LOG.debug("the body of {} {} could not be read: {}", ctx.method(), ctx.path(), unreadable.toString());
            throw ApiFailure.of(HttpStatuses.REQUEST_TIMEOUT, ErrorCode.CANCELLED_TIMEOUT, "timeout",
                    "the request body could not be read: it arrived too slowly or the connection failed");
        }
    }

    /** The HTTP status Jetty attached to a failure (or to one of its causes); 0 when none. */
    private static int statusOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HttpException http) {
                return http.getCode();
            }
        }
        return 0;
    }

    private ApiFailure tooLarge() {
        return ApiFailure.of(HttpStatuses.CONTENT_TOO_LARGE, ErrorCode.CONFIG_INVALID, "request_too_large",
                "the request body is larger than the limit of " + limits.maxBodyBytes() + " bytes");
    }

    /** The body as text; bytes that are not UTF-8 are refused rather than replaced, which would alter the prompt. */
    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException invalid) {
            throw ApiFailure.badRequest("the request body is not valid UTF-8");
        }
    }

    /**
     * Inference endpoints take JSON, as OpenAI's do: a body of another declared type is 415, and a charset other than
     * UTF-8 too. A request without a Content-Type is read as JSON, as curl's {@code -d} without a header and many
     * clients send it.
     */
    static void requireJson(Context ctx) {
        String type = ctx.req().getContentType();
        if (type == null || type.isBlank()) {
            return;
        }
        String[] parts = type.split(";");
        String media = parts[0].strip().toLowerCase(Locale.ROOT);
        boolean json = media.equals("application/json") || (media.startsWith("application/")
                && media.endsWith("+json"));
        for (int i = 1; i < parts.length && json; i++) {
            String parameter = parts[i].strip().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("charset=")) {
                String charset = parameter.substring("charset=".length()).replace("\"", "");
                json = charset.equals("utf-8") || charset.equals("utf8");
            }
        }
        if (!json) {
            throw ApiFailure.of(HttpStatuses.UNSUPPORTED_MEDIA_TYPE, ErrorCode.CONFIG_INVALID,
                    "unsupported_media_type", "the request body must be JSON (Content-Type: application/json), not '"
                            + Responses.shorten(type) + "'");
        }
    }

    /**
     * The body as a JSON tree. A syntax error is reported with its line and column and a nesting limit as such;
     * Jackson's own texts name its classes and settings, so they go to the debug log only.
     */
    static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (StreamConstraintsException tooDeep) {
            LOG.debug("request body refused by a parser limit: {}", tooDeep.getOriginalMessage());
            throw ApiFailure.badRequest("the request body is nested too deeply or holds a value too large to read");
        } catch (JacksonException notJson) {
            LOG.debug("request body is not JSON: {}", notJson.getOriginalMessage());
            TokenStreamLocation where = notJson.getLocation();
            throw ApiFailure.badRequest("We could not parse the JSON body of your request"
                    + (where == null || where.getLineNr() < 1 ? "" : " (line " + where.getLineNr() + ", column "
                    + where.getColumnNr() + ")") + ": it is not valid JSON");
        }
    }
}
