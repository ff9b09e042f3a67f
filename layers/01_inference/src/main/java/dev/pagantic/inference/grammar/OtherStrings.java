package dev.pagantic.inference.grammar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BinaryOperator;

/**
 * GBNF for the contents of a JSON string that is none of a set of strings: the key of an additional property, which
 * must not be a declared property's (that one is written with its own schema). It walks a trie of the strings' JSON
 * characters (a raw character or a whole escape sequence each): at every node the string may end (unless a listed
 * string ends there), go on with a character that leaves the trie (and then anything), or follow the trie. Until it
 * leaves the trie, a character is written in its one canonical JSON spelling (raw where JSON allows it, else the
 * short escape or lower-case backslash-u-00XX), so that no other spelling of a listed string gets through.
 */
final class OtherStrings {

    private static final class Node {
        final Map<String, Node> children = new LinkedHashMap<>();
        boolean end;
    }

    /** What a JSON string holds raw, as the {@code char} rule has it. */
    private static final CodePoints RAW = CodePoints.of(0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x80, CodePoints.MAX);

    /** The canonical escapes: the characters JSON cannot hold raw, each spelled one way. */
    private static final List<String> ESCAPES = escapes();

    private OtherStrings() {
    }

    /** The expression; inner rules are defined through {@code define(name, expression)}, which returns the name. */
    static String expression(Set<String> excluded, String name, BinaryOperator<String> define) {
        Node root = new Node();
        for (String text : excluded) {
            Node node = root;
            for (String character : characters(text)) {
                node = node.children.computeIfAbsent(character, c -> new Node());
            }
            node.end = true;
        }
        String escape = define.apply(name + "-escape", new LiteralTrie(ESCAPES).expression(name + "-escape", define));
        return expression(root, name, escape, define);
    }

    private static String expression(Node node, String name, String escape, BinaryOperator<String> define) {
        List<String> alternatives = new ArrayList<>();
        if (!node.end) {
            alternatives.add("\"\"");
        }
        CodePoints leaving = RAW;
        List<String> escapes = new ArrayList<>();
        for (String character : node.children.keySet()) {
            if (character.codePointCount(0, character.length()) == 1) {
                leaving = leaving.minus(CodePoints.single(character.codePointAt(0)));
            } else {
                escapes.add(character);
            }
        }
        String leavingEscape = escapes.isEmpty() ? escape : define.apply(name + "-escape", new LiteralTrie(ESCAPES
                .stream().filter(e -> !escapes.contains(e)).toList()).expression(name + "-escape", define));
        alternatives.add("(" + leaving.gbnfClass() + " | " + leavingEscape + ") char*");
        for (Map.Entry<String, Node> child : node.children.entrySet()) {
            String rest = define.apply(name, expression(child.getValue(), name, escape, define));
            alternatives.add(GbnfWriter.literal(child.getKey()) + " " + rest);
        }
        return String.join(" | ", alternatives);
    }

    private static List<String> escapes() {
        List<String> escapes = new ArrayList<>();
        for (int c = 0; c < 0x20; c++) {
            escapes.add(characters(Character.toString(c)).get(0));
        }
        escapes.addAll(List.of("\\\"", "\\\\", characters("\u007f").get(0)));
        return List.copyOf(escapes);
    }

    /** The JSON characters of a string's contents: raw code points, or escape sequences where JSON needs them. */
    private static List<String> characters(String text) {
        String json = GbnfWriter.jsonString(text);
        List<String> characters = new ArrayList<>();
        for (int i = 1; i < json.length() - 1; ) {
            if (json.charAt(i) == '\\') {
                int length = json.charAt(i + 1) == 'u' ? 6 : 2;
                characters.add(json.substring(i, i + length));
                i += length;
            } else {
                int codePoint = json.codePointAt(i);
                characters.add(Character.toString(codePoint));
                i += Character.charCount(codePoint);
            }
        }
        return characters;
    }
}
