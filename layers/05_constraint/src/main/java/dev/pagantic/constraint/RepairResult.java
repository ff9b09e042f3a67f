package dev.pagantic.constraint;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The outcome of {@link JsonRepair#repair}: valid JSON text and the fixes that made it so.
 *
 * @param json  strictly valid JSON; the input itself, byte for byte, when the input was already valid
 * @param fixes the fixes applied, in the order they were applied; empty when the input was already valid
 */
public record RepairResult(String json, List<RepairFix> fixes) {

    public RepairResult {
        Objects.requireNonNull(json, "json");
        fixes = List.copyOf(fixes);
    }

    /** Whether anything was changed. */
    public boolean repaired() {
        return !fixes.isEmpty();
    }

    /** The distinct kinds of fix applied, in order of first application. */
    public Set<RepairKind> kinds() {
        Set<RepairKind> kinds = new LinkedHashSet<>();
        fixes.forEach(fix -> kinds.add(fix.kind()));
        return Collections.unmodifiableSet(kinds);
    }
}
