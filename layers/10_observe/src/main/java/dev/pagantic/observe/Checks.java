package dev.pagantic.observe;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Duration;
import java.util.Objects;

/** Argument checks that fail with {@code CONFIG_INVALID}, the code for an invalid value or request field. */
final class Checks {

    private Checks() {
    }

    static PaganticException invalid(String field, String message) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID, message).detail("field", field).build();
    }

    static String requireNonBlank(String value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isBlank()) {
            throw invalid(field, field + " must not be blank");
        }
        return value;
    }

    static int requireNonNegative(int value, String field) {
        if (value < 0) {
            throw invalid(field, field + " must not be negative: " + value);
        }
        return value;
    }

    static long requireNonNegative(long value, String field) {
        if (value < 0) {
            throw invalid(field, field + " must not be negative: " + value);
        }
        return value;
    }

    static Duration requireNonNegative(Duration value, String field) {
        Objects.requireNonNull(value, field);
        if (value.isNegative()) {
            throw invalid(field, field + " must not be negative: " + value);
        }
        return value;
    }
}
