package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One named signature of a {@link PromptInjectionDetector}: a regular expression matched (with
 * {@link java.util.regex.Matcher#find()}) against normalised text.
 *
 * @param name    a short, stable name reported when it matches (for example {@code ignore-instructions})
 * @param pattern the expression; it sees text already normalised by the detector (NFKC, no zero-width characters,
 *                whitespace runs collapsed to one space), so it should not try to handle those itself
 */
public record InjectionPattern(String name, Pattern pattern) {

    public InjectionPattern {
        Objects.requireNonNull(pattern, "pattern");
        if (name == null || name.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "an injection pattern needs a name");
        }
    }

    /** A case-insensitive (Unicode-aware) pattern. */
    public static InjectionPattern of(String name, String regex) {
        return new InjectionPattern(name, Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
    }
}
