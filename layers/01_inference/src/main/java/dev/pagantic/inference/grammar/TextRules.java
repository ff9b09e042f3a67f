package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Rules for free text shaped by a few literal strings, built from a trie of those strings: text that runs until the
 * first occurrence of a trigger (an Aho-Corasick automaton, one rule per state, so overlapping and repeated
 * characters are handled exactly), and text that does not start with given prefixes. Characters are code points;
 * the rules use only literals, character classes (escaped as {@code \\u}/{@code \\U} code points) and {@code .}.
 */
final class TextRules {

    private TextRules() {
    }

    /** Rules for text until the first trigger, then the trigger's continuation; the start rule is {@code name}. */
    static Map<String, String> until(String name, Map<String, String> continuations) {
        if (continuations.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "text rules need at least one trigger");
        }
        Trie trie = new Trie(continuations.keySet());
        trie.linkFailures();
        Map<String, String> rules = new LinkedHashMap<>();
        for (int node = 0; node < trie.size(); node++) {
            if (trie.completed(node) != null) {
                continue; // a trigger is complete: its continuation, not a text state
            }
            Map<String, TreeSet<Integer>> byTarget = new LinkedHashMap<>();
            for (int c : trie.alphabet()) {
                int next = trie.next(node, c);
                String done = trie.completed(next);
                String target = done != null ? "(" + continuations.get(done) + ")" : state(name, next);
                byTarget.computeIfAbsent(target, t -> new TreeSet<>()).add(c);
            }
            String root = state(name, 0);
            TreeSet<Integer> leaving = new TreeSet<>(trie.alphabet());
            byTarget.getOrDefault(root, new TreeSet<>()).forEach(leaving::remove);
            List<String> alternatives = new ArrayList<>();
            alternatives.add("");
            alternatives.add(negatedClass(leaving) + " " + root);
            byTarget.forEach((target, chars) -> {
                if (!target.equals(root)) {
                    alternatives.add(charClass(chars) + " " + target);
                }
            });
            rules.put(state(name, node), String.join(" | ", alternatives).trim());
        }
        return rules;
    }

    /** Rules for text (empty included) that does not start with any of the prefixes; the start rule is {@code name}. */
    static Map<String, String> notStartingWith(String name, Collection<String> prefixes) {
        if (prefixes.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "text rules need at least one prefix");
        }
        Trie trie = new Trie(prefixes);
        Map<String, String> rules = new LinkedHashMap<>();
        for (int node = 0; node < trie.size(); node++) {
            if (trie.completed(node) != null) {
                continue; // a whole prefix: the text may not go there
            }
            List<String> alternatives = new ArrayList<>();
            alternatives.add("");
            alternatives.add(negatedClass(trie.children(node).keySet()) + " .*");
            for (Map.Entry<Integer, Integer> child : trie.children(node).entrySet()) {
                if (trie.completed(child.getValue()) == null) {
                    alternatives.add(charClass(List.of(child.getKey())) + " " + state(name, child.getValue()));
                }
            }
            rules.put(state(name, node), String.join(" | ", alternatives).trim());
        }
        return rules;
    }

    private static String state(String name, int node) {
        return node == 0 ? name : name + "-" + node;
    }

    private static String charClass(Collection<Integer> chars) {
        StringBuilder gbnf = new StringBuilder("[");
        chars.forEach(c -> gbnf.append(escape(c)));
        return gbnf.append(']').toString();
    }

    /** A class of every character but these ({@code .} when there are none). */
    private static String negatedClass(Collection<Integer> chars) {
        return chars.isEmpty() ? "." : "[^" + charClass(chars).substring(1);
    }

    private static String escape(int codePoint) {
        return codePoint <= 0xFFFF ? String.format("\\u%04X", codePoint) : String.format("\\U%08X", codePoint);
    }

    /** A trie of strings (code points) with Aho-Corasick failure links. */
    private static final class Trie {
        private final List<TreeMap<Integer, Integer>> children = new ArrayList<>();
        private final List<String> terminal = new ArrayList<>();
        private final List<Integer> failure = new ArrayList<>();
        private final TreeSet<Integer> alphabet = new TreeSet<>();

        Trie(Collection<String> words) {
            add();
            for (String word : words) {
                if (word.isEmpty()) {
                    throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a trigger or prefix must not be empty");
                }
                int node = 0;
                for (int c : word.codePoints().toArray()) {
                    alphabet.add(c);
                    Integer child = children.get(node).get(c);
                    node = child != null ? child : attach(node, c);
                }
                terminal.set(node, word);
            }
        }

        private int add() {
            children.add(new TreeMap<>());
            terminal.add(null);
            failure.add(0);
            return children.size() - 1;
        }

        private int attach(int parent, int c) {
            int node = add();
            children.get(parent).put(c, node);
            return node;
        }

        /** Breadth first: a node's failure is the longest proper suffix of its path that is also a path. */
        void linkFailures() {
            Deque<Integer> queue = new ArrayDeque<>(children.get(0).values());
            while (!queue.isEmpty()) {
                int node = queue.poll();
                for (Map.Entry<Integer, Integer> child : children.get(node).entrySet()) {
                    int fallback = node == 0 ? 0 : next(failure.get(node), child.getKey());
                    failure.set(child.getValue(), fallback == child.getValue() ? 0 : fallback);
                    queue.add(child.getValue());
                }
            }
        }

        int next(int node, int c) {
            int at = node;
            while (true) {
                Integer child = children.get(at).get(c);
                if (child != null) {
                    return child;
                }
                if (at == 0) {
                    return 0;
                }
                at = failure.get(at);
            }
        }

        /** The trigger that ends at this node (it, or a suffix of its path), or null. */
        String completed(int node) {
            for (int at = node; at != 0; at = failure.get(at)) {
                if (terminal.get(at) != null) {
                    return terminal.get(at);
                }
            }
            return null;
        }

        Map<Integer, Integer> children(int node) {
            return children.get(node);
        }

        TreeSet<Integer> alphabet() {
            return alphabet;
        }

        int size() {
            return children.size();
        }
    }
}
