package dev.pagantic.inference.grammar;

import java.util.ArrayList;
import java.util.List;

/**
 * The members of an object as a chain of rules: the declared properties in order (each required one always, each
 * optional one when the model chooses), then additional members where allowed. A state is (the next declared
 * property, the members written so far, whether one was written and a comma is due); with no count to keep there
 * are two rules per property, which keeps the grammar linear in the number of properties however many are optional.
 * With {@code minProperties}/{@code maxProperties} the count is kept up to {@code cap} (counts above it are alike).
 * States are built from the last property back, without recursion, and only those reachable from the start.
 */
final class MemberChain {

    private final GbnfWriter out;
    private final String name;
    private final List<String> members; // the rule of each declared property's key and value
    private final List<Boolean> mandatory;
    private final String extra; // the rule of one additional member, or null when none is allowed
    private final long min;
    private final long max; // -1: unbounded
    private final int cap;

    /**
     * @param members   the rule of each declared member, in order
     * @param mandatory whether each declared member is required
     * @param extra     the rule of one additional member, or null
     * @param min       the fewest members ({@code minProperties}, 0 when not counted)
     * @param max       the most members ({@code maxProperties}, -1 when not counted)
     */
    MemberChain(GbnfWriter out, String name, List<String> members, List<Boolean> mandatory, String extra, long min,
                long max) {
        this.out = out;
        this.name = name;
        this.members = members;
        this.mandatory = mandatory;
        this.extra = extra;
        this.min = min;
        this.max = max;
        this.cap = (int) (max >= 0 ? max : min);
    }

    /** The object's expression, or null when no object satisfies the counts. */
    String expression() {
        int n = members.size();
        boolean[][][] reachable = reachable(n);
        String[][][] state = new String[n + 1][cap + 1][2];
        for (int i = n; i >= 0; i--) {
            for (int c = 0; c <= cap; c++) {
                for (int comma = 0; comma < 2; comma++) {
                    if (reachable[i][c][comma]) {
                        state[i][c][comma] = i == n ? extras(c, comma == 1) : member(i, c, comma == 1, state);
                    }
                }
            }
        }
        String start = state[0][0][0];
        return start == null ? null : "\"{\" ws " + (start.isEmpty() ? "" : start + " ") + "\"}\"";
    }

    /** Which states the chain can be in, from (0, 0, no comma). */
    private boolean[][][] reachable(int n) {
        boolean[][][] reachable = new boolean[n + 1][cap + 1][2];
        reachable[0][0][0] = true;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c <= cap; c++) {
                for (int comma = 0; comma < 2; comma++) {
                    if (!reachable[i][c][comma]) {
                        continue;
                    }
                    if (max < 0 || c < max) {
                        reachable[i + 1][Math.min(c + 1, cap)][1] = true;
                    }
                    if (!mandatory.get(i)) {
                        reachable[i + 1][c][comma] = true;
                    }
                }
            }
        }
        return reachable;
    }

    /** Declared member i written or skipped; null when no way on ends well. */
    private String member(int i, int c, boolean comma, String[][][] state) {
        List<String> alternatives = new ArrayList<>();
        if (max < 0 || c < max) {
            String next = state[i + 1][Math.min(c + 1, cap)][1];
            if (next != null) {
                alternatives.add(GbnfWriter.join((comma ? "\",\" ws " : "") + members.get(i), next));
            }
        }
        if (!mandatory.get(i)) {
            String skip = state[i + 1][c][comma ? 1 : 0];
            if (skip != null) {
                alternatives.add(skip.isEmpty() ? "\"\"" : skip);
            }
        }
        return alternatives.isEmpty() ? null : out.define(name + "-m" + i + (cap > 0 ? "-c" + c : "")
                + (comma ? "-more" : ""), String.join(" | ", alternatives));
    }

    /** Additional members after the declared ones: "" for none, null when the count cannot be met. */
    private String extras(int c, boolean comma) {
        int low = (int) Math.max(min - c, 0);
        int high = max < 0 ? -1 : (int) (max - c);
        if (extra == null || high == 0) {
            return low == 0 ? "" : null;
        }
        if (comma) {
            return GbnfWriter.commaRepetition(extra, low, high);
        }
        String first = GbnfWriter.join(extra, GbnfWriter.commaRepetition(extra, Math.max(low - 1, 0),
                high < 0 ? -1 : high - 1));
        return low > 0 ? first : "(" + first + ")?";
    }
}
