package dev.pagantic.constraint;

import java.util.Objects;

/**
 * One fix {@link JsonRepair} applied.
 *
 * @param kind   what was fixed
 * @param offset where, as a UTF-16 offset into the original output
 */
public record RepairFix(RepairKind kind, int offset) {

    public RepairFix {
        Objects.requireNonNull(kind, "kind");
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative: " + offset);
        }
    }
}
