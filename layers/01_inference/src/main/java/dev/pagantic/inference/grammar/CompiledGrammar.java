package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed grammar as rules of flat element sequences, and the recogniser over them. The recogniser works as
 * llama.cpp's sampler does: a set of pushdown stacks of rule positions, each advanced until a terminal is on top, and
 * filtered by every code point of the input. A reference in tail position is not pushed, so right recursion (which
 * repetition compiles to) runs in constant stack depth and the check is linear in the input for the grammars models
 * are constrained with. Immutable and thread-safe.
 */
final class CompiledGrammar {

    /** Bound on simultaneous parse stacks: a grammar ambiguous enough to exceed it is refused rather than checked slowly. */
    static final int MAX_STACKS = 100_000;

    /**
     * Bound on a chain of rules each referenced at the start of the previous one's alternative ({@code a ::= b ...},
     * {@code b ::= c ...}): the left-recursion check recurses along such chains, so a longer one is refused with
     * {@code CONFIG_GRAMMAR_INVALID} rather than overflowing the stack. Real grammars chain a handful.
     */
    static final int MAX_LEADING_CHAIN = 1000;

    private final List<String> names; // rule id -> name
    private final List<List<List<Element>>> rules;
    private final int root;

    CompiledGrammar(List<String> names, List<List<List<Element>>> rules, int root) {
        this.names = List.copyOf(names);
        List<List<List<Element>>> copy = new ArrayList<>(rules.size());
        for (List<List<Element>> alternatives : rules) {
            List<List<Element>> altCopy = new ArrayList<>(alternatives.size());
            alternatives.forEach(sequence -> altCopy.add(List.copyOf(sequence)));
            copy.add(List.copyOf(altCopy));
        }
        this.rules = List.copyOf(copy);
        this.root = root;
    }

    List<String> names() {
        return names;
    }

    List<List<List<Element>>> rules() {
        return rules;
    }

    int root() {
        return root;
    }

    /** Matches the whole input against the root rule. */
    GrammarMatch match(String input) {
        Set<Frame> stacks = new LinkedHashSet<>();
        expandRule(root, Frame.EMPTY, stacks);
        int offset = 0;
        while (offset < input.length()) {
            int codePoint = input.codePointAt(offset);
            Set<Frame> next = new LinkedHashSet<>();
            for (Frame stack : stacks) {
                if (stack != Frame.EMPTY && terminalAt(stack).matches(codePoint)) {
                    advance(stack.next(this), next);
                }
            }
            if (next.isEmpty()) {
                return GrammarMatch.rejected(offset, "unexpected " + describe(codePoint) + " at offset " + offset);
            }
            stacks = next;
            offset += Character.charCount(codePoint);
        }
        if (stacks.contains(Frame.EMPTY)) {
            return GrammarMatch.ACCEPTED;
        }
        return GrammarMatch.rejected(input.length(), "output ended before the grammar was complete");
    }

    private Element.Terminal terminalAt(Frame frame) {
        return (Element.Terminal) rules.get(frame.rule).get(frame.alternative).get(frame.index);
    }

    /** Adds every stack reachable from this one whose top is a terminal (or the empty stack: complete). */
    private void advance(Frame stack, Set<Frame> out) {
        Deque<Frame> pending = new ArrayDeque<>();
        pending.push(stack);
        advanceAll(pending, out);
    }

    private void expandRule(int ruleId, Frame continuation, Set<Frame> out) {
        Deque<Frame> pending = new ArrayDeque<>();
        pushAlternatives(ruleId, continuation, pending);
        advanceAll(pending, out);
    }

    /**
     * Expands the pending stacks until a terminal (or nothing) is on top. Iterative, skipping stacks already
     * expanded: a chain of rules referenced at the start of alternatives, or of nullable references in a row, is as
     * long as the grammar, and recursing along it would overflow the Java stack on a long enough grammar.
     */
    private void advanceAll(Deque<Frame> pending, Set<Frame> out) {
        Set<Frame> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            Frame frame = pending.pop();
            if (!seen.add(frame)) {
                continue;
            }
            if (frame == Frame.EMPTY) {
                add(out, frame);
                continue;
            }
            Element top = rules.get(frame.rule).get(frame.alternative).get(frame.index);
            if (top instanceof Element.RuleRef ref) {
                pushAlternatives(ref.ruleId(), frame.next(this), pending);
            } else {
                add(out, frame);
            }
        }
    }

    /** Pushes one stack per alternative of the rule (an empty alternative is the continuation itself). */
    private void pushAlternatives(int ruleId, Frame continuation, Deque<Frame> pending) {
        // Pushed last-first, so the first alternative is expanded first, as the recursive expansion did.
        List<List<Element>> alternatives = rules.get(ruleId);
        for (int alt = alternatives.size() - 1; alt >= 0; alt--) {
            pending.push(alternatives.get(alt).isEmpty() ? continuation : new Frame(ruleId, alt, 0, continuation));
        }
    }

    private static void add(Set<Frame> out, Frame stack) {
        out.add(stack);
        if (out.size() > MAX_STACKS) {
            throw PaganticException.of(ErrorCode.CONFIG_GRAMMAR_INVALID,
                    "grammar is too ambiguous to check: over " + MAX_STACKS + " simultaneous parse states");
        }
    }

    /** The name of a rule that can reach itself without consuming input, if any (llama.cpp refuses these). */
    Optional<String> leftRecursiveRule() {
        BitSet nullable = nullableRules();
        int[] state = new int[rules.size()]; // 0 unvisited, 1 in progress, 2 done
        for (int rule = 0; rule < rules.size(); rule++) {
            Optional<String> found = findLeftCycle(rule, nullable, state, 0);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private Optional<String> findLeftCycle(int rule, BitSet nullable, int[] state, int depth) {
        if (depth > MAX_LEADING_CHAIN) {
            throw PaganticException.builder(ErrorCode.CONFIG_GRAMMAR_INVALID, "rules reference each other at the "
                    + "start of an alternative more than " + MAX_LEADING_CHAIN + " deep (at rule '" + names.get(rule)
                    + "'), as long chains of optional or nested repetitions do: refused before decoding")
                    .detail("rule", names.get(rule)).detail("budget", "leading_chain")
                    .detail("estimate", depth).detail("limit", MAX_LEADING_CHAIN).build();
        }
        if (state[rule] == 1) {
            return Optional.of(names.get(rule));
        }
        if (state[rule] == 2) {
            return Optional.empty();
        }
        state[rule] = 1;
        for (List<Element> sequence : rules.get(rule)) {
            for (Element element : sequence) {
                if (!(element instanceof Element.RuleRef ref)) {
                    break;
                }
                Optional<String> found = findLeftCycle(ref.ruleId(), nullable, state, depth + 1);
                if (found.isPresent()) {
                    return found;
                }
                if (!nullable.get(ref.ruleId())) {
                    break;
                }
            }
        }
        state[rule] = 2;
        return Optional.empty();
    }

    /** Rules that can match the empty string, by fixpoint. */
    BitSet nullableRules() {
        BitSet nullable = new BitSet(rules.size());
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int rule = rules.size() - 1; rule >= 0; rule--) { // synthesized rules refer forwards: fewer passes
                if (!nullable.get(rule) && anyAllNullable(rules.get(rule), nullable)) {
                    nullable.set(rule);
                    changed = true;
                }
            }
        }
        return nullable;
    }

    private static boolean anyAllNullable(List<List<Element>> alternatives, BitSet nullable) {
        for (List<Element> sequence : alternatives) {
            boolean all = true;
            for (Element element : sequence) {
                if (!(element instanceof Element.RuleRef ref && nullable.get(ref.ruleId()))) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static String describe(int codePoint) {
        return codePoint < 0x20 || codePoint == 0x7f
                ? String.format("character U+%04X", codePoint)
                : "character '" + Character.toString(codePoint) + "'";
    }

    /**
     * One frame of a persistent parse stack: the next element to match in an alternative of a rule, above the
     * frame to continue with once this alternative is done. Stacks share tails, and equal stacks are merged by
     * structural equality, as llama.cpp deduplicates its stacks.
     */
    static final class Frame {
        static final Frame EMPTY = new Frame(-1, -1, -1, null);

        final int rule;
        final int alternative;
        final int index;
        final Frame parent;
        private final int hash;

        Frame(int rule, int alternative, int index, Frame parent) {
            this.rule = rule;
            this.alternative = alternative;
            this.index = index;
            this.parent = parent;
            this.hash = parent == null ? 0 : ((rule * 31 + alternative) * 31 + index) * 31 + parent.hash;
        }

        /** The stack after this frame's element has been matched (the frame is dropped when its sequence ends). */
        Frame next(CompiledGrammar grammar) {
            int size = grammar.rules.get(rule).get(alternative).size();
            return index + 1 < size ? new Frame(rule, alternative, index + 1, parent) : parent;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof Frame that) || hash != that.hash) {
                return false;
            }
            Frame a = this;
            Frame b = that;
            while (a != null && b != null && a != b) {
                if (a.rule != b.rule || a.alternative != b.alternative || a.index != b.index) {
                    return false;
                }
                a = a.parent;
                b = b.parent;
            }
            return a == b;
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
