package dev.pagantic.archfixture.compliant.core;

import java.util.List;

/** Immutable static constants are allowed: a primitive, a String and an unmodifiable List. */
public final class Limits {

    public static final int MAX_TOOL_ITERATIONS = 20;
    public static final String DEFAULT_MODEL = "tiny";
    public static final List<Role> ROLES = List.of(Role.SYSTEM, Role.USER);

    private Limits() {
    }
}
