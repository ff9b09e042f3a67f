package dev.pagantic.adapter.api;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A W3C Trace Context {@code traceparent} header ({@code version-traceid-parentid-flags}, for example
 * {@code 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01}), whose trace id becomes the request's trace id so
 * that the request's events join the caller's distributed trace.
 *
 * <p>As the specification asks, a header that does not parse is ignored rather than refused: the request then gets a
 * generated trace id. Refused are: the wrong shape, upper-case hex, version {@code ff}, an all-zero trace or parent id,
 * and for version {@code 00} anything after the flags.
 *
 * @param version  the two-hex-digit version
 * @param traceId  the 32-hex-digit trace id
 * @param parentId the 16-hex-digit id of the caller's span
 * @param flags    the two-hex-digit trace flags
 */
record TraceParent(String version, String traceId, String parentId, String flags) {

    /** The name of the header. */
    static final String HEADER = "traceparent";
    /** The name of the vendor-specific companion header, passed on with a valid {@code traceparent}. */
    static final String STATE_HEADER = "tracestate";

    private static final Pattern SHAPE =
            Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?");
    private static final String ZERO_TRACE = "0".repeat(32);
    private static final String ZERO_PARENT = "0".repeat(16);

    /** The header's value parsed, or empty when it is absent or not a valid {@code traceparent}. */
    static Optional<TraceParent> parse(@Nullable String header) {
        if (header == null) {
            return Optional.empty();
        }
        Matcher m = SHAPE.matcher(header.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        String version = m.group(1);
        boolean futureFields = m.group(5) != null;
        if (version.equals("ff") || (version.equals("00") && futureFields)
                || m.group(2).equals(ZERO_TRACE) || m.group(3).equals(ZERO_PARENT)) {
            return Optional.empty();
        }
        return Optional.of(new TraceParent(version, m.group(2), m.group(3), m.group(4)));
    }
}
