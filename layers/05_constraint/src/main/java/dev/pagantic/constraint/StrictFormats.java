package dev.pagantic.constraint;

import com.networknt.schema.ExecutionContext;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.format.DurationFormat;
import com.networknt.schema.format.Format;
import com.networknt.schema.format.IriFormat;
import com.networknt.schema.format.IriReferenceFormat;
import com.networknt.schema.format.UriFormat;
import com.networknt.schema.format.UriReferenceFormat;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Draft 2020-12 with the format checks that networknt leaves too lenient made exact, as the JSON Schema Test Suite
 * measures them: URIs and IRIs (a port of digits only, one {@code @} at most in the authority, no leading zero in an
 * IPv4 address inside an IPv6 literal; IPvFuture literals, which the library refuses, accepted) and durations (RFC 3339's
 * grammar, in which units are contiguous: no {@code P1Y2D}). The library's own check still runs first. OpenAPI's
 * {@code int32} and {@code int64}, which Spring AI and LangChain4j write, are added: a number must be an integer in the
 * format's range (other instance types pass, as for every format).
 */
final class StrictFormats {

    /** RFC 3339 appendix A, {@code duration}. */
    private static final Pattern DURATION = Pattern.compile("P(?:(?:\\d+Y(?:\\d+M(?:\\d+D)?)?|\\d+M(?:\\d+D)?|\\d+D)"
            + "(?:T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S))?|T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?"
            + "|\\d+S)|\\d+W)");

    /** The authority of a URI or network-path reference: after {@code //}, up to the path, query or fragment. */
    private static final Pattern AUTHORITY = Pattern.compile("^(?:[A-Za-z][A-Za-z0-9+.-]*:)?//([^/?#]*)");

    /** An IPvFuture host literal (RFC 3986 section 3.2.2), whose "v" is case-insensitive. */
    private static final Pattern IP_FUTURE = Pattern.compile("\\[[vV][0-9A-Fa-f]+\\.[A-Za-z0-9._~!$&'()*+,;=:-]+]");

    private static final Pattern DOTTED_QUAD = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)$");

    private StrictFormats() {
    }

    /** Draft 2020-12's dialect with the stricter formats. */
    static Dialect draft202012() {
        return Dialect.builder(Dialects.getDraft202012())
                .formats(List.of(strict(new UriFormat(), StrictFormats::authorityIsExact),
                        strict(new UriReferenceFormat(), StrictFormats::authorityIsExact),
                        strict(new IriFormat(), StrictFormats::authorityIsExact),
                        strict(new IriReferenceFormat(), StrictFormats::authorityIsExact),
                        strict(new DurationFormat(), value -> DURATION.matcher(value).matches()),
                        integerRange("int32", Integer.MIN_VALUE, Integer.MAX_VALUE),
                        integerRange("int64", Long.MIN_VALUE, Long.MAX_VALUE)))
                .build();
    }

    /** An OpenAPI integer format: a JSON number that is an integer within [min, max]. */
    private static Format integerRange(String name, long min, long max) {
        BigDecimal low = BigDecimal.valueOf(min);
        BigDecimal high = BigDecimal.valueOf(max);
        return new Format() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public boolean matches(ExecutionContext context, SchemaContext schemaContext, JsonNode value) {
                if (!value.isNumber()) {
                    return true;
                }
                BigDecimal number = value.decimalValue();
                return number.stripTrailingZeros().scale() <= 0 && number.compareTo(low) >= 0
                        && number.compareTo(high) <= 0;
            }
        };
    }

    private static Format strict(Format library, Predicate<String> also) {
        return new Format() {
            @Override
            public String getName() {
                return library.getName();
            }

            @Override
            public String getMessageKey() {
                return library.getMessageKey();
            }

            @Override
            public boolean matches(ExecutionContext context, SchemaContext schemaContext, String value) {
                // The library knows no IPvFuture literal: it is checked here and stands in as an IPv6 one.
                String normalised = IP_FUTURE.matcher(value).replaceFirst("[::1]");
                return library.matches(context, schemaContext, normalised) && also.test(value);
            }
        };
    }

    private static boolean authorityIsExact(String value) {
        Matcher authority = AUTHORITY.matcher(value);
        if (!authority.find()) {
            return true;
        }
        String text = authority.group(1);
        if (text.indexOf('@') != text.lastIndexOf('@')) {
            return false;
        }
        String host = text.substring(text.indexOf('@') + 1);
        int close = host.lastIndexOf(']');
        String afterLiteral = host.substring(close + 1);
        int colon = afterLiteral.indexOf(':');
        if (colon >= 0 && !afterLiteral.substring(colon + 1).chars().allMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        if (host.startsWith("[") && close > 0) {
            Matcher quad = DOTTED_QUAD.matcher(host.substring(1, close));
            if (quad.find()) {
                for (int i = 1; i <= 4; i++) {
                    if (quad.group(i).length() > 1 && quad.group(i).startsWith("0")) {
                        return false;
                    }
                }
            }
        }
        return true;
    }
}
