package dev.pagantic.inference.grammar;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * Alternatives between fixed texts (enum values, const values) as prefix-shared rules: a trie whose branching nodes
 * become rules and whose unbranched runs become literals. A flat {@code "abc" | "abd" | ...} makes the decoder keep
 * one parse stack per alternative at every position of a shared prefix, which llama.cpp compares pairwise (quadratic
 * set-up time for large enums); sharing prefixes keeps the stacks to the branches that are really open.
 *
 * <p>The trie is never built as objects: the texts are sorted, and each node is a range of them sharing a prefix,
 * so a large enum costs a sort and a pass over its characters.
 */
final class LiteralTrie {

    private final int[][] texts; // sorted, distinct, as code points

    LiteralTrie(List<String> values) {
        int[][] sorted = values.stream().map(text -> text.codePoints().toArray()).sorted(Arrays::compare)
                .toArray(int[][]::new);
        List<int[]> distinct = new ArrayList<>(sorted.length);
        for (int[] text : sorted) {
            if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), text)) {
                distinct.add(text);
            }
        }
        this.texts = distinct.toArray(int[][]::new);
    }

    /** A node: the texts [from, to) share their first {@code depth} code points. */
    private record Node(int from, int to, int depth) {
    }

    /**
     * The GBNF expression of the alternatives; the rules of inner branching nodes are defined through
     * {@code define(name, expression)}, which returns the name it used, with names derived from {@code name}.
     */
    String expression(String name, BinaryOperator<String> define) {
        // Post-order without recursion: a long shared prefix with branches along it nests as deep as the text is long.
        Deque<Node> pending = new ArrayDeque<>();
        List<Node> order = new ArrayList<>();
        Node root = new Node(0, texts.length, 0);
        pending.push(root);
        while (!pending.isEmpty()) {
            Node node = pending.pop();
            order.add(node);
            for (Node child : children(node)) {
                Node below = below(child);
                if (below != null) {
                    pending.push(below);
                }
            }
        }
        java.util.Map<Node, String> rules = new java.util.HashMap<>();
        for (int i = order.size() - 1; i > 0; i--) {
            Node node = order.get(i);
            rules.put(node, define.apply(name + "-t", alternatives(node, rules)));
        }
        return alternatives(root, rules);
    }

    /** The children of a node: its texts grouped by their next code point (a text ending here is no child). */
    private List<Node> children(Node node) {
        List<Node> children = new ArrayList<>();
        int i = node.from();
        if (i < node.to() && texts[i].length == node.depth()) {
            i++; // sorted: the text that ends here comes first
        }
        while (i < node.to()) {
            int c = texts[i][node.depth()];
            int j = i + 1;
            while (j < node.to() && texts[j][node.depth()] == c) {
                j++;
            }
            children.add(new Node(i, j, node.depth() + 1));
            i = j;
        }
        return children;
    }

    /** Where a child's unbranched run ends: the node below it that branches, or null when the run ends a text. */
    private Node below(Node child) {
        int[] first = texts[child.from()];
        int[] last = texts[child.to() - 1];
        int depth = child.depth();
        int limit = Math.min(first.length, last.length);
        while (depth < limit && first[depth] == last[depth]) {
            depth++;
        }
        return child.to() - child.from() == 1 ? null : new Node(child.from(), child.to(), depth);
    }

    /**
     * The alternatives below a node: each child's unbranched run as a literal, then the rule it ends in. Children that
     * are one last character each become one character class ({@code [0-9a-f]} rather than sixteen alternatives).
     */
    private String alternatives(Node node, java.util.Map<Node, String> rules) {
        List<String> alternatives = new ArrayList<>();
        List<Node> children = children(node);
        CodePoints last = CodePoints.NONE;
        int lastCount = 0;
        for (Node child : children) {
            if (isLastCharacter(child)) {
                last = last.union(CodePoints.single(texts[child.from()][node.depth()]));
                lastCount++;
            }
        }
        if (lastCount > 1) {
            alternatives.add(last.gbnfClass());
        }
        for (Node child : children) {
            if (lastCount > 1 && isLastCharacter(child)) {
                continue;
            }
            Node below = below(child);
            int[] text = texts[child.from()];
            int end = below == null ? text.length : below.depth();
            String literal = GbnfWriter.literal(new String(text, node.depth(), end - node.depth()));
            alternatives.add(below == null ? literal : literal + " " + rules.get(below));
        }
        if (node.from() < node.to() && texts[node.from()].length == node.depth()) {
            alternatives.add("\"\"");
        }
        return String.join(" | ", alternatives);
    }

    /** Whether a child is a single text that ends right after its first code point. */
    private boolean isLastCharacter(Node child) {
        return child.to() - child.from() == 1 && texts[child.from()].length == child.depth();
    }
}
