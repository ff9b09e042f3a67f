package dev.pagantic.constraint;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of {@link EnumNormalizer#normalize}.
 *
 * @param json    the JSON text with enum values in canonical spelling; the input itself when nothing changed
 * @param changes the values rewritten, in document order
 */
public record EnumNormalization(String json, List<EnumChange> changes) {

    public EnumNormalization {
        Objects.requireNonNull(json, "json");
        changes = List.copyOf(changes);
    }

    /** Whether any value was rewritten. */
    public boolean changed() {
        return !changes.isEmpty();
    }
}
