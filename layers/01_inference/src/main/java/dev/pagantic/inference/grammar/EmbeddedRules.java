package dev.pagantic.inference.grammar;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renames the rules of a checked grammar so that it can be embedded in another: {@code root} becomes the new name,
 * every other rule {@code name-<rule>}. A small GBNF lexer finds the names, skipping literals, character classes,
 * repetition bounds and comments, where the same letters mean something else.
 */
final class EmbeddedRules {

    private EmbeddedRules() {
    }

    /** The new name of each rule the grammar defines. */
    static Map<String, String> renaming(String grammar, String name) {
        Map<String, String> renamed = new LinkedHashMap<>();
        scan(grammar, (word, definition) -> {
            if (definition) {
                renamed.put(word, word.equals("root") ? name : name + "-" + word);
            }
            return word;
        });
        return renamed;
    }

    /** The grammar with every defined rule, where defined and where referred to, renamed. */
    static String rename(String grammar, Map<String, String> renamed) {
        return scan(grammar, (word, definition) -> renamed.getOrDefault(word, word));
    }

    /** Maps a name; told whether it is being defined ({@code name ::=}) or referred to. */
    private interface Names {
        String map(String word, boolean definition);
    }

    private static String scan(String grammar, Names names) {
        StringBuilder out = new StringBuilder(grammar.length() + 256);
        int i = 0;
        while (i < grammar.length()) {
            char c = grammar.charAt(i);
            int end;
            if (c == '#') {
                end = grammar.indexOf('\n', i);
                end = end < 0 ? grammar.length() : end;
            } else if (c == '"' || c == '[') {
                end = closing(grammar, i + 1, c == '"' ? '"' : ']') + 1;
            } else if (c == '{') {
                end = grammar.indexOf('}', i) + 1;
            } else if (isNameChar(c)) {
                end = i;
                while (end < grammar.length() && isNameChar(grammar.charAt(end))) {
                    end++;
                }
                out.append(names.map(grammar.substring(i, end), isDefinition(grammar, end)));
                i = end;
                continue;
            } else {
                end = i + 1;
            }
            end = end <= i ? grammar.length() : Math.min(end, grammar.length());
            out.append(grammar, i, end);
            i = end;
        }
        return out.toString();
    }

    /** The index of the unescaped {@code close} from {@code from}, or the end of the text. */
    private static int closing(String grammar, int from, char close) {
        int i = from;
        while (i < grammar.length() && grammar.charAt(i) != close) {
            i += grammar.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(i, grammar.length() - 1);
    }

    private static boolean isDefinition(String grammar, int afterName) {
        int i = afterName;
        while (i < grammar.length() && (grammar.charAt(i) == ' ' || grammar.charAt(i) == '\t')) {
            i++;
        }
        return grammar.startsWith("::=", i);
    }

    private static boolean isNameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-';
    }
}
