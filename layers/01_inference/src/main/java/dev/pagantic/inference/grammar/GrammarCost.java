package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;

/**
 * What a grammar costs the decoder, estimated before it gets there, and the budget it must stay within.
 *
 * <p>llama.cpp keeps one parse stack per way the output so far can continue, and pays for them quadratically when it
 * advances (it removes duplicates by comparing each new stack with every one kept) and linearly per candidate token.
 * A 100,000-value enum written as flat alternatives starts with 100,000 stacks (418 s of set-up measured before this
 * budget existed); {@code ("a"{0,1000}){0,1000}} starts with 1,000 and reaches about 500,000 after one {@code a},
 * because every split of the a's between the two repetitions is a stack of its own. The estimate bounds both
 * effects from the compiled rules, without running the grammar:
 * <ul>
 *   <li>{@link #entryWidth()}: the most stacks entering any rule creates (its alternatives, and past nullable
 *       prefixes the alternatives of what follows);</li>
 *   <li>{@link #fanOut()}: the most stacks one stack can become after one character, since what follows a terminal
 *       may be skipped up through every enclosing rule whose rest is nullable. A cycle of such continuations that
 *       adds stacks on every turn makes it unbounded ({@link Long#MAX_VALUE});</li>
 *   <li>{@link #stackEstimate()}: the most stacks one character after entering any rule, that is, the entry's
 *       stacks each counted with its own fan-out; this is what nested repetitions multiply;</li>
 *   <li>the size: characters of the text and {@link #elements()} after repetitions are expanded.</li>
 * </ul>
 * The limits come from llama.cpp's measured set-up and per-token times on stories260K ({@code docs/performance.md},
 * "Grammar cost"): a grammar within them sets up and decodes a token in well under a second.
 *
 * @param characters    the grammar text's length
 * @param elements      the compiled elements (one per literal character, character class or rule reference)
 * @param rules         the compiled rules, synthesized ones included
 * @param entryWidth    the most parse stacks entering one rule creates
 * @param fanOut        the most parse stacks one stack becomes after a character
 * @param stackEstimate the most parse stacks one character after entering a rule
 */
public record GrammarCost(int characters, long elements, int rules, long entryWidth, long fanOut,
                          long stackEstimate) {

    /** The longest grammar text accepted. */
    public static final int MAX_CHARACTERS = 256 * 1024;
    /** The most compiled elements accepted. */
    public static final long MAX_ELEMENTS = 150_000;
    /** The most parse stacks entering one rule may create. */
    public static final long MAX_ENTRY_WIDTH = 1_024;
    /** The most parse stacks one character after entering a rule. */
    public static final long MAX_STACK_ESTIMATE = 1_024;

    /** Refuses the text before parsing when it is longer than {@link #MAX_CHARACTERS}. */
    static void checkLength(String text) {
        if (text.length() > MAX_CHARACTERS) {
            throw overBudget("the grammar is " + text.length() + " characters long", "characters", text.length(),
                    MAX_CHARACTERS);
        }
    }

    /**
     * Refuses an enum too large for any grammar within the budget before its grammar is written: each value takes at
     * least four characters of grammar text (a one-character literal and a separator), so past a quarter of
     * {@link #MAX_CHARACTERS} values the text would be over the budget however the values share prefixes.
     */
    static void checkAlternatives(int values) {
        if (values > MAX_CHARACTERS / 4) {
            throw overBudget("an enum of " + values + " values needs a grammar of over " + MAX_CHARACTERS
                    + " characters", "characters", 4L * values, MAX_CHARACTERS);
        }
    }

    /** Throws {@code CONFIG_GRAMMAR_INVALID} when this cost is over the budget. */
    void requireWithinBudget() {
        if (elements > MAX_ELEMENTS) {
            throw overBudget("the grammar expands to " + elements + " elements", "elements", elements, MAX_ELEMENTS);
        }
        if (entryWidth > MAX_ENTRY_WIDTH) {
            throw overBudget("one rule opens " + entryWidth + " alternatives at once (write shared prefixes "
                    + "as shared rules)", "entry_width", entryWidth, MAX_ENTRY_WIDTH);
        }
        if (stackEstimate > MAX_STACK_ESTIMATE) {
            throw overBudget("nested repetitions or alternatives can keep " + (stackEstimate == Long.MAX_VALUE
                    ? "unboundedly many" : "about " + stackEstimate) + " parse states open at once",
                    "stack_estimate", stackEstimate, MAX_STACK_ESTIMATE);
        }
    }

    private static PaganticException overBudget(String what, String budget, long estimate, long limit) {
        return PaganticException.builder(ErrorCode.CONFIG_GRAMMAR_INVALID, "grammar refused before decoding: " + what
                        + ", over the budget of " + limit + " that keeps llama.cpp's set-up under a second")
                .detail("budget", budget).detail("estimate", estimate).detail("limit", limit).build();
    }

    /** The cost of a compiled grammar. */
    static GrammarCost of(CompiledGrammar grammar, int characters) {
        long elements = 0;
        for (List<List<Element>> alternatives : grammar.rules()) {
            for (List<Element> sequence : alternatives) {
                elements += sequence.size();
            }
        }
        Analysis analysis = new Analysis(grammar.rules(), grammar.nullableRules(), grammar.root());
        return new GrammarCost(characters, elements, grammar.rules().size(), analysis.maxEntryWidth(),
                analysis.maxFanOut(), analysis.maxStacksAfterOneCharacter());
    }

    static long saturatingProduct(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }

    private static long saturatingSum(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** The widths, over the rules as the recogniser and llama.cpp expand them. */
    private static final class Analysis {
        private final List<List<List<Element>>> rules;
        private final BitSet nullable;
        private final long[] width;
        private final long[] widthAfterOne;
        private final long[] continuation; // null: unbounded
        private long maxFanOut;

        Analysis(List<List<List<Element>>> rules, BitSet nullable, int root) {
            this.rules = rules;
            this.nullable = nullable;
            this.width = new long[rules.size()];
            this.widthAfterOne = new long[rules.size()];
            Arrays.fill(width, -1);
            Arrays.fill(widthAfterOne, -1);
            this.continuation = continuations(root);
        }

        long maxEntryWidth() {
            long max = 0;
            for (int rule = 0; rule < rules.size(); rule++) {
                max = Math.max(max, width(rule));
            }
            return max;
        }

        long maxFanOut() {
            return continuation == null ? Long.MAX_VALUE : maxFanOut;
        }

        long maxStacksAfterOneCharacter() {
            if (continuation == null) {
                return Long.MAX_VALUE;
            }
            long max = 0;
            for (int rule = 0; rule < rules.size(); rule++) {
                max = Math.max(max, widthAfterOne(rule));
            }
            return max;
        }

        /** Stacks created by expanding a rule: its alternatives' leading terminals, through nullable references. */
        private long width(int rule) {
            return widths(width, rule, false);
        }

        /** Stacks one character after expanding a rule: each leading terminal counted with its fan-out. */
        private long widthAfterOne(int rule) {
            return widths(widthAfterOne, rule, true);
        }

        private long widths(long[] memo, int rule, boolean afterOne) {
            if (memo[rule] < 0) {
                // Leading references form no cycle (left recursion is refused), so this recursion ends; its depth is
                // bounded by the leading-chain limit the parser enforces.
                long sum = 0;
                for (List<Element> sequence : rules.get(rule)) {
                    sum = saturatingSum(sum, leading(rule, sequence, afterOne));
                }
                memo[rule] = sum;
            }
            return memo[rule];
        }

        /** Over a sequence's nullable prefix: the stacks it creates, or (afterOne) their fan-outs. */
        private long leading(int rule, List<Element> sequence, boolean afterOne) {
            long sum = 0;
            for (int i = 0; i < sequence.size(); i++) {
                if (sequence.get(i) instanceof Element.RuleRef ref) {
                    sum = saturatingSum(sum, afterOne ? widthAfterOne(ref.ruleId()) : width(ref.ruleId()));
                    if (!nullable.get(ref.ruleId())) {
                        return sum;
                    }
                } else {
                    return saturatingSum(sum, afterOne ? fanOut(rule, sequence, i) : 1);
                }
            }
            return sum;
        }

        /** The stacks one stack at the terminal {@code sequence[i]} of {@code rule} becomes once it matches. */
        private long fanOut(int rule, List<Element> sequence, int i) {
            long rest = 0;
            for (int j = i + 1; j < sequence.size(); j++) {
                if (!(sequence.get(j) instanceof Element.RuleRef ref)) {
                    return saturatingSum(rest, 1);
                }
                rest = saturatingSum(rest, width(ref.ruleId()));
                if (!nullable.get(ref.ruleId())) {
                    return rest;
                }
            }
            return saturatingSum(rest, continuation[rule]);
        }

        /**
         * The stacks a rule's finished expansion continues into, {@code C(r) = max over references of rest(r) +
         * (rest nullable ? C(caller) : 0)}, with the root's continuation the finished parse; null when a cycle of
         * such references through a rest that adds stacks makes it unbounded. Also records the largest fan-out of any
         * terminal. Linear in the grammar: each sequence's rests are computed once, from its end.
         */
        private long[] continuations(int root) {
            int n = rules.size();
            long[] base = new long[n];
            List<List<long[]>> edges = new ArrayList<>(); // caller -> {callee, weight}
            for (int i = 0; i < n; i++) {
                edges.add(new ArrayList<>());
            }
            base[root] = 1;
            List<long[]> terminals = new ArrayList<>(); // {rule, rest width, rest nullable (0/1)}
            for (int caller = 0; caller < n; caller++) {
                for (List<Element> sequence : rules.get(caller)) {
                    long restWidth = 0;
                    boolean restNullable = true;
                    for (int i = sequence.size() - 1; i >= 0; i--) {
                        if (sequence.get(i) instanceof Element.RuleRef ref) {
                            if (restNullable) {
                                edges.get(caller).add(new long[] {ref.ruleId(), restWidth});
                            } else {
                                base[ref.ruleId()] = Math.max(base[ref.ruleId()], restWidth);
                            }
                            boolean refNullable = nullable.get(ref.ruleId());
                            restWidth = saturatingSum(width(ref.ruleId()), refNullable ? restWidth : 0);
                            restNullable &= refNullable;
                        } else {
                            terminals.add(new long[] {caller, restWidth, restNullable ? 1 : 0});
                            restWidth = 1;
                            restNullable = false;
                        }
                    }
                }
            }
            long[] result = longestPaths(base, edges);
            if (result != null) {
                for (long[] terminal : terminals) {
                    maxFanOut = Math.max(maxFanOut, terminal[2] == 1
                            ? saturatingSum(terminal[1], result[(int) terminal[0]]) : terminal[1]);
                }
            }
            return result;
        }

        /**
         * {@code C(r) = max(base(r), max over edges s->r of weight + C(s))}, or null when a cycle of edges adds
         * weight (the continuation grows without bound). Strongly connected components (iterative Tarjan), then the
         * longest paths over their condensation in topological order.
         */
        private static long[] longestPaths(long[] base, List<List<long[]>> edges) {
            int n = base.length;
            int[] component = components(edges);
            for (int s = 0; s < n; s++) {
                for (long[] edge : edges.get(s)) {
                    if (component[(int) edge[0]] == component[s] && edge[1] > 0) {
                        return null;
                    }
                }
            }
            // Tarjan numbers components in reverse topological order: callers' components come last.
            int count = Arrays.stream(component).max().orElse(-1) + 1;
            List<List<Integer>> members = new ArrayList<>();
            for (int c = 0; c < count; c++) {
                members.add(new ArrayList<>());
            }
            for (int v = 0; v < n; v++) {
                members.get(component[v]).add(v);
            }
            long[] value = base.clone();
            for (int c = count - 1; c >= 0; c--) {
                long best = 0;
                for (int v : members.get(c)) {
                    best = Math.max(best, value[v]);
                }
                for (int v : members.get(c)) {
                    value[v] = best; // zero-weight cycles: one value for the whole component
                }
                for (int v : members.get(c)) {
                    for (long[] edge : edges.get(v)) {
                        int callee = (int) edge[0];
                        if (component[callee] != c) {
                            value[callee] = Math.max(value[callee], saturatingSum(edge[1], best));
                        }
                    }
                }
            }
            return value;
        }

        /** Strongly connected components, numbered in reverse topological order (Tarjan, without recursion). */
        private static int[] components(List<List<long[]>> edges) {
            int n = edges.size();
            int[] index = new int[n];
            int[] low = new int[n];
            int[] component = new int[n];
            boolean[] onStack = new boolean[n];
            Arrays.fill(index, -1);
            Deque<Integer> stack = new ArrayDeque<>();
            int next = 0;
            int components = 0;
            int[] edgeCursor = new int[n];
            Deque<Integer> call = new ArrayDeque<>();
            for (int start = 0; start < n; start++) {
                if (index[start] >= 0) {
                    continue;
                }
                call.push(start);
                while (!call.isEmpty()) {
                    int v = call.peek();
                    if (index[v] < 0) {
                        index[v] = next;
                        low[v] = next;
                        next++;
                        stack.push(v);
                        onStack[v] = true;
                    }
                    if (edgeCursor[v] < edges.get(v).size()) {
                        int w = (int) edges.get(v).get(edgeCursor[v]++)[0];
                        if (index[w] < 0) {
                            call.push(w);
                        } else if (onStack[w]) {
                            low[v] = Math.min(low[v], index[w]);
                        }
                        continue;
                    }
                    call.pop();
                    if (!call.isEmpty()) {
                        int parent = call.peek();
                        low[parent] = Math.min(low[parent], low[v]);
                    }
                    if (low[v] == index[v]) {
                        int w;
                        do {
                            w = stack.pop();
                            onStack[w] = false;
                            component[w] = components;
                        } while (w != v);
                        components++;
                    }
                }
            }
            return component;
        }
    }
}
