package dev.pagantic.archfixture.violating.util;

/** Breaks "every class belongs to a known layer": util is no layer of the design. */
public final class StrayHelper {

    public String help() {
        return "help";
    }
}
