package dev.pagantic.adapter.api;

import dev.pagantic.core.ErrorCode;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.jspecify.annotations.Nullable;

/** The filter in front of {@code /v1}: with a token configured, {@code Authorization: Bearer <token>} or 401. */
final class BearerAuthentication {

    private final byte @Nullable [] token;

    /** @param token the token every {@code /v1} request must carry; null for none */
    BearerAuthentication(@Nullable String token) {
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    boolean enabled() {
        return token != null;
    }

    /** Lets the request through, or answers 401 and skips the route; the token is compared in constant time. */
    void check(Context ctx) {
        if (token == null) {
            return;
        }
        String header = ctx.header("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                && MessageDigest.isEqual(header.substring(7).strip().getBytes(StandardCharsets.UTF_8), token)) {
            return;
        }
        ctx.res().setHeader("WWW-Authenticate", "Bearer");
        // The body was not read: Jetty drops the connection after this answer, so the client must not reuse it.
        ctx.res().setHeader("Connection", "close");
        Responses.send(ctx, HttpStatuses.UNAUTHORIZED, OpenAiError.document(HttpStatuses.UNAUTHORIZED,
                "invalid_api_key", null, "a valid bearer token is required (Authorization: Bearer <token>)",
                ErrorCode.CONFIG_INVALID));
        ctx.skipRemainingHandlers();
    }
}
