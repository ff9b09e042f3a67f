package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Factories for the common {@link Rule}s, usable on outputs (with a {@link RuleValidator}) and on inputs or outputs
 * (with {@link Guardrails}). Lengths count Unicode code points, not UTF-16 chars.
 */
public final class Rules {

    /** Immutable and thread-safe once built; strict: the whole text must be one JSON value. */
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Rules() {
    }

    /**
     * Fails when the text has more than {@code max} characters (code points). Name {@code max-length}.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when {@code max} is negative
     */
    public static Rule maxLength(int max) {
        requireConfig(max >= 0, "max length must not be negative: " + max);
        return Rule.of("max-length", text -> {
            int length = text.codePointCount(0, text.length());
            return length > max
                    ? Optional.of(length + " characters, more than the maximum of " + max)
                    : Optional.empty();
        });
    }

    /**
     * Fails when the text has fewer than {@code min} characters (code points). Name {@code min-length}.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when {@code min} is negative
     */
    public static Rule minLength(int min) {
        requireConfig(min >= 0, "min length must not be negative: " + min);
        return Rule.of("min-length", text -> {
            int length = text.codePointCount(0, text.length());
            return length < min
                    ? Optional.of(length + " characters, fewer than the minimum of " + min)
                    : Optional.empty();
        });
    }

    /** Fails when the text is empty or only whitespace. Name {@code not-blank}. */
    public static Rule notBlank() {
        return Rule.of("not-blank", text -> !text.isBlank(), "the text is blank");
    }

    /**
     * Fails unless the pattern is found somewhere in the text ({@link Matcher#find()}).
     *
     * @param name    the rule's name
     * @param pattern what must occur
     */
    public static Rule requiredPattern(String name, Pattern pattern) {
        Objects.requireNonNull(pattern, "pattern");
        return Rule.of(name, text -> pattern.matcher(text).find()
                ? Optional.empty()
                : Optional.of("required pattern /" + pattern.pattern() + "/ not found"));
    }

    /**
     * Fails when the pattern is found anywhere in the text; the reason quotes the first match (up to 80 characters).
     *
     * @param name    the rule's name
     * @param pattern what must not occur
     */
    public static Rule forbiddenPattern(String name, Pattern pattern) {
        Objects.requireNonNull(pattern, "pattern");
        return Rule.of(name, text -> {
            Matcher matcher = pattern.matcher(text);
            return matcher.find()
                    ? Optional.of("forbidden pattern /" + pattern.pattern() + "/ found: \""
                            + abbreviate(matcher.group(), 80) + "\" at index " + matcher.start())
                    : Optional.empty();
        });
    }

    /**
     * Fails unless the whole text (surrounding whitespace allowed) is exactly one JSON value: no code fences, no
     * trailing text. The reason gives the parser's message. Name {@code must-be-json}. Repairing near-JSON is the
     * constraint layer's job; this rule only judges.
     */
    public static Rule mustBeJson() {
        return Rule.of("must-be-json", text -> {
            if (text.isBlank()) {
                return Optional.of("not JSON: the text is empty");
            }
            try {
                JSON.readTree(text);
                return Optional.empty();
            } catch (JacksonException e) {
                return Optional.of("not JSON: " + firstLine(e.getOriginalMessage()));
            }
        });
    }

    /** Like {@link #mustBeJson()}, but the value must be a JSON object. Name {@code must-be-json-object}. */
    public static Rule mustBeJsonObject() {
        return Rule.of("must-be-json-object", text -> {
            if (text.isBlank()) {
                return Optional.of("not JSON: the text is empty");
            }
            try {
                return JSON.readTree(text).isObject()
                        ? Optional.empty()
                        : Optional.of("JSON, but not an object");
            } catch (JacksonException e) {
                return Optional.of("not JSON: " + firstLine(e.getOriginalMessage()));
            }
        });
    }

    static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "...";
    }

    private static String firstLine(@Nullable String message) {
        if (message == null) {
            return "unparseable";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static void requireConfig(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
        }
    }
}
