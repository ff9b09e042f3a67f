package dev.pagantic.constraint;

import java.util.Objects;

/**
 * One enum value {@link EnumNormalizer} rewrote to its canonical spelling.
 *
 * @param path where, as a JSON path ({@code $.items[0].status})
 * @param from the value as the model wrote it
 * @param to   the canonical value from the schema
 */
public record EnumChange(String path, String from, String to) {

    public EnumChange {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
    }
}
