package dev.pagantic.testkit;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.time.Duration;

/** Validation shared by the testkit's builders: every invalid setting is a {@code CONFIG_INVALID} failure. */
final class Config {

    private Config() {
    }

    static void require(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, message);
        }
    }

    static String requireModelName(String name) {
        require(name != null && !name.isBlank(), "modelName must not be blank");
        return name;
    }

    static Duration requireNonNegative(Duration duration, String field) {
        require(duration != null, field + " must not be null");
        require(!duration.isNegative(), field + " must not be negative: " + duration);
        return duration;
    }
}
