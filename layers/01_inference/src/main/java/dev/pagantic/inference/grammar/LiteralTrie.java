package dev.pagantic.inference.grammar;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;

/**
 * Alternatives between fixed texts (enum values, const values) as prefix-shared rules: a trie whose branching nodes
 * become rules and whose unbranched runs become literals. A flat {@code "abc" | "abd" | ...} makes the decoder keep
 * one parse stack per alternative at every position of a shared prefix, which llama.cpp compares pairwise (quadratic
 * set-up time for large enums); sharing prefixes keeps the stacks to the branches that are really open.
 */
final class LiteralTrie {

    private static final class Node {
        final Map<Integer, Node> children = new LinkedHashMap<>();
        boolean end;
    }

    private final Node root = new Node();

    LiteralTrie(List<String> texts) {
        for (String text : texts) {
            Node node = root;
            for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
                node = node.children.computeIfAbsent(text.codePointAt(i), c -> new Node());
            }
            node.end = true;
        }
    }

    /**
     * The GBNF expression of the alternatives; the rules of inner branching nodes are defined through
     * {@code define(name, expression)}, which returns the name it used, with names derived from {@code name}.
     */
    String expression(String name, BinaryOperator<String> define) {
        // Post-order without recursion: a long shared prefix with branches along it nests as deep as the text is long.
        Map<Node, String> rules = new IdentityHashMap<>();
        Deque<Node> pending = new ArrayDeque<>();
        List<Node> order = new ArrayList<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            Node node = pending.pop();
            order.add(node);
            node.children.values().forEach(pending::push);
        }
        for (int i = order.size() - 1; i > 0; i--) {
            Node node = order.get(i);
            if (branches(node)) {
                rules.put(node, define.apply(name + "-t", alternatives(node, rules)));
            }
        }
        return alternatives(root, rules);
    }

    private static boolean branches(Node node) {
        return node.children.size() > 1 || node.end && !node.children.isEmpty();
    }

    /** The alternatives below a node: each child's unbranched run as a literal, then the rule it ends in. */
    private static String alternatives(Node node, Map<Node, String> rules) {
        List<String> alternatives = new ArrayList<>();
        for (Map.Entry<Integer, Node> child : node.children.entrySet()) {
            StringBuilder run = new StringBuilder().appendCodePoint(child.getKey());
            Node next = child.getValue();
            while (!branches(next) && !next.children.isEmpty()) {
                Map.Entry<Integer, Node> only = next.children.entrySet().iterator().next();
                run.appendCodePoint(only.getKey());
                next = only.getValue();
            }
            String literal = SchemaGbnfGenerator.literal(run.toString());
            alternatives.add(rules.containsKey(next) ? literal + " " + rules.get(next) : literal);
        }
        if (node.end) {
            alternatives.add("\"\"");
        }
        return String.join(" | ", alternatives);
    }
}
