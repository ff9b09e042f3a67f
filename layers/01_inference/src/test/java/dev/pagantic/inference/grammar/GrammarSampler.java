package dev.pagantic.inference.grammar;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Test support: produces random sentences of a grammar by a random walk over its compiled rules.
 *
 * <p>While the output is shorter than a length budget and the walk is shallower than a depth budget, every
 * alternative of a rule is equally likely; past either budget the walk takes each rule's <i>terminating
 * alternative</i>, which only refers to rules whose terminating alternatives were found in an earlier round of a
 * fixpoint (see {@link #terminatingAlternatives}), so the walk always ends. A terminal yields a random code point
 * of its ranges; a negated class or {@code .} yields one from a pool of printable code points (ASCII, Latin-1, CJK,
 * a supplementary-plane emoji) that the class does not exclude. Surrogates are never produced on their own.
 * Deterministic for a given {@link Random}.
 */
final class GrammarSampler {

    /** Code points a negated class or {@code .} may yield: printable, from several planes and scripts. */
    private static final int[] POOL = pool();

    private final CompiledGrammar grammar;
    private final int[] terminating; // rule id -> index of its terminating alternative

    GrammarSampler(GbnfGrammar grammar) {
        this.grammar = grammar.compiled();
        this.terminating = terminatingAlternatives(this.grammar.rules());
    }

    /** One sentence of the grammar; once it is {@code lengthBudget} chars long, or 40 rules deep, the walk ends. */
    String sample(Random random, int lengthBudget) {
        StringBuilder out = new StringBuilder();
        walkRule(grammar.root(), random, lengthBudget, 0, out);
        return out.toString();
    }

    private void walkRule(int rule, Random random, int lengthBudget, int depth, StringBuilder out) {
        List<List<Element>> alternatives = grammar.rules().get(rule);
        boolean free = out.length() < lengthBudget && depth < 40;
        List<Element> sequence = alternatives.get(free ? random.nextInt(alternatives.size()) : terminating[rule]);
        for (Element element : sequence) {
            if (element instanceof Element.RuleRef ref) {
                walkRule(ref.ruleId(), random, lengthBudget, depth + 1, out);
            } else {
                out.appendCodePoint(pick((Element.Terminal) element, random));
            }
        }
    }

    /** A random code point the terminal matches. */
    static int pick(Element.Terminal terminal, Random random) {
        if (terminal.any() || terminal.negated()) {
            int start = random.nextInt(POOL.length);
            for (int i = 0; i < POOL.length; i++) {
                int candidate = POOL[(start + i) % POOL.length];
                if (terminal.matches(candidate)) {
                    return candidate;
                }
            }
            throw new IllegalStateException("no pool code point fits " + terminal);
        }
        int[] ranges = terminal.ranges();
        for (int attempt = 0; attempt < 100; attempt++) {
            int range = random.nextInt(ranges.length / 2) * 2;
            int low = ranges[range];
            int high = ranges[range + 1];
            int candidate = low + random.nextInt(high - low + 1);
            if (candidate < Character.MIN_SURROGATE || candidate > Character.MAX_SURROGATE) {
                return candidate;
            }
        }
        throw new IllegalStateException("only surrogates fit " + terminal);
    }

    /**
     * For each rule, an alternative that provably terminates: round by round, a rule not yet decided takes its
     * shortest alternative among those that only reference rules decided in earlier rounds. A rule left undecided
     * has no finite sentence at all, which a checked grammar's root never needs.
     */
    static int[] terminatingAlternatives(List<List<List<Element>>> rules) {
        int[] choice = new int[rules.size()];
        long[] minLength = new long[rules.size()];
        Arrays.fill(choice, -1);
        boolean changed = true;
        while (changed) {
            changed = false;
            List<int[]> decided = new ArrayList<>(); // {rule, alternative, length}: applied after the round
            for (int rule = 0; rule < rules.size(); rule++) {
                if (choice[rule] >= 0) {
                    continue;
                }
                long best = Long.MAX_VALUE;
                int bestAlternative = -1;
                List<List<Element>> alternatives = rules.get(rule);
                for (int alt = 0; alt < alternatives.size(); alt++) {
                    long length = 0;
                    for (Element element : alternatives.get(alt)) {
                        if (element instanceof Element.RuleRef ref) {
                            length = choice[ref.ruleId()] < 0 ? Long.MAX_VALUE : length + minLength[ref.ruleId()];
                        } else {
                            length++;
                        }
                        if (length == Long.MAX_VALUE) {
                            break;
                        }
                    }
                    if (length < best) {
                        best = length;
                        bestAlternative = alt;
                    }
                }
                if (bestAlternative >= 0) {
                    decided.add(new int[] {rule, bestAlternative, (int) Math.min(best, Integer.MAX_VALUE)});
                }
            }
            for (int[] d : decided) {
                choice[d[0]] = d[1];
                minLength[d[0]] = d[2];
                changed = true;
            }
        }
        return choice;
    }

    private static int[] pool() {
        List<Integer> pool = new ArrayList<>();
        for (int c = 0x20; c < 0x7f; c++) {
            pool.add(c);
        }
        for (int c : new int[] {0xa0, 0xe9, 0xdf, 0xfc, 0x3a9, 0x416, 0x4e2d, 0x6587, 0x20ac, 0x2028, 0xfeff,
                0x1f600, 0x1d11e}) {
            pool.add(c);
        }
        return pool.stream().mapToInt(Integer::intValue).toArray();
    }
}
