package dev.pagantic.inference.grammar;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable set of Unicode code points as sorted, disjoint, inclusive ranges, and how to write the characters of
 * a JSON string drawn from it in GBNF: raw where JSON allows a raw character, escaped where it does not.
 */
final class CodePoints {

    static final int MAX = Character.MAX_CODE_POINT;
    static final CodePoints NONE = new CodePoints(new int[0]);
    static final CodePoints ALL = new CodePoints(new int[] {0, MAX});

    /** What a JSON string may hold raw: everything but {@code "}, backslash and the controls below U+0020. */
    private static final CodePoints RAW_IN_JSON = of(0x20, 0x21, 0x23, 0x5B, 0x5D, MAX);

    private final int[] ranges; // low0, high0, low1, high1, ...

    private CodePoints(int[] ranges) {
        this.ranges = ranges;
    }

    /** The set of the inclusive ranges given as low, high pairs (in any order, overlapping or not). */
    static CodePoints of(int... bounds) {
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < bounds.length; i += 2) {
            pairs.add(new int[] {bounds[i], bounds[i + 1]});
        }
        pairs.sort((a, b) -> Integer.compare(a[0], b[0]));
        List<Integer> merged = new ArrayList<>();
        for (int[] pair : pairs) {
            int last = merged.size() - 1;
            if (last > 0 && pair[0] <= merged.get(last) + 1) {
                merged.set(last, Math.max(merged.get(last), pair[1]));
            } else {
                merged.add(pair[0]);
                merged.add(pair[1]);
            }
        }
        return new CodePoints(merged.stream().mapToInt(Integer::intValue).toArray());
    }

    static CodePoints single(int codePoint) {
        return of(codePoint, codePoint);
    }

    CodePoints union(CodePoints other) {
        int[] both = Arrays.copyOf(ranges, ranges.length + other.ranges.length);
        System.arraycopy(other.ranges, 0, both, ranges.length, other.ranges.length);
        return of(both);
    }

    CodePoints complement() {
        List<Integer> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            if (ranges[i] > next) {
                out.add(next);
                out.add(ranges[i] - 1);
            }
            next = ranges[i + 1] + 1;
        }
        if (next <= MAX) {
            out.add(next);
            out.add(MAX);
        }
        return new CodePoints(out.stream().mapToInt(Integer::intValue).toArray());
    }

    CodePoints intersect(CodePoints other) {
        return complement().union(other.complement()).complement();
    }

    CodePoints minus(CodePoints other) {
        return intersect(other.complement());
    }

    boolean contains(int codePoint) {
        for (int i = 0; i < ranges.length; i += 2) {
            if (ranges[i] <= codePoint && codePoint <= ranges[i + 1]) {
                return true;
            }
        }
        return false;
    }

    /** The one code point of a single-element set, or -1. */
    int only() {
        return ranges.length == 2 && ranges[0] == ranges[1] ? ranges[0] : -1;
    }

    boolean isEmpty() {
        return ranges.length == 0;
    }

    /**
     * A GBNF expression matching one character of this set as it appears inside a JSON string: the characters JSON
     * allows raw as a character class, {@code "} and backslash as their two-character escapes, the controls as
     * {@code \n}-style escapes or {@code \}{@code u00XX}. Empty when the set is.
     */
    String jsonCharExpression() {
        List<String> alternatives = new ArrayList<>();
        CodePoints raw = intersect(RAW_IN_JSON);
        if (!raw.isEmpty()) {
            alternatives.add(raw.gbnfClass());
        }
        if (contains('"')) {
            alternatives.add("\"\\\\\\\"\"");
        }
        if (contains('\\')) {
            alternatives.add("\"\\\\\\\\\"");
        }
        for (int c = 0; c < 0x20; c++) {
            if (contains(c)) {
                String escaped = GbnfWriter.jsonString(Character.toString(c));
                alternatives.add(GbnfWriter.literal(escaped.substring(1, escaped.length() - 1)));
            }
        }
        return alternatives.size() == 1 ? alternatives.get(0) : "(" + String.join(" | ", alternatives) + ")";
    }

    /** This set as a GBNF character class. */
    String gbnfClass() {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < ranges.length; i += 2) {
            out.append(escape(ranges[i]));
            if (ranges[i + 1] > ranges[i]) {
                out.append('-').append(escape(ranges[i + 1]));
            }
        }
        return out.append(']').toString();
    }

    private static String escape(int c) {
        if (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
            return Character.toString(c);
        }
        if (c <= 0xFF) {
            return String.format("\\x%02X", c);
        }
        return c <= 0xFFFF ? String.format("\\u%04X", c) : String.format("\\U%08X", c);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CodePoints that && Arrays.equals(ranges, that.ranges);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ranges);
    }

    @Override
    public String toString() {
        return gbnfClass();
    }
}
