package dev.pagantic.inference.grammar;

import java.util.Arrays;

/**
 * One element of a compiled rule alternative: a terminal matching a single code point, or a reference to a rule.
 * Literals compile to one terminal per code point; groups and repetitions compile to synthesized rules, as in
 * llama.cpp, so that the recogniser only ever sees these two kinds.
 */
sealed interface Element {

    /** Matches one code point: any of the inclusive ranges (or none of them, when negated), or any at all. */
    record Terminal(int[] ranges, boolean negated, boolean any) implements Element {

        static Terminal of(int codePoint) {
            return new Terminal(new int[] {codePoint, codePoint}, false, false);
        }

        static Terminal anyChar() {
            return new Terminal(new int[0], false, true);
        }

        boolean matches(int codePoint) {
            if (any) {
                return true;
            }
            boolean inRange = false;
            for (int i = 0; i < ranges.length && !inRange; i += 2) {
                inRange = ranges[i] <= codePoint && codePoint <= ranges[i + 1];
            }
            return inRange != negated;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Terminal that && Arrays.equals(ranges, that.ranges) && negated == that.negated
                    && any == that.any;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ranges) * 31 + (negated ? 1 : 0) + (any ? 2 : 0);
        }

        @Override
        public String toString() {
            return any ? "." : (negated ? "[^" : "[") + Arrays.toString(ranges) + "]";
        }
    }

    /** A reference to the rule with the given id. */
    record RuleRef(int ruleId) implements Element {
    }
}
