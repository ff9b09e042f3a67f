package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses GBNF text, following llama.cpp's syntax exactly where it is lenient (a newline ends a rule outside
 * parentheses; a later definition of a rule replaces an earlier one) and rejecting, with a line and column, every
 * input that llama.cpp would reject or silently misread. Not thread-safe; one instance parses one text.
 */
final class GbnfParser {

    /** llama.cpp refuses repetition counts above this; so do we, before expansion can blow up. */
    static final int MAX_REPETITIONS = 2000;

    /**
     * Groups nested deeper than this are refused with {@code CONFIG_GRAMMAR_INVALID}: the parser recurses once per
     * group, so unbounded nesting would overflow the stack.
     */
    static final int MAX_NESTING = 100;

    /**
     * Bound on the compiled grammar's size, in elements (one per literal code point, character class or rule
     * reference, after repetitions are expanded): the cost budget's ({@link GrammarCost#MAX_ELEMENTS}). Each
     * repetition count is capped, but chained operators multiply ({@code "a"{2000}{2000}{2000}} would be 8e9
     * elements): such a grammar is refused while it is read, before its expansion exhausts time or memory.
     */
    static final long MAX_ELEMENTS = GrammarCost.MAX_ELEMENTS;

    private final int[] src; // code points
    private int pos;
    private final Map<String, Integer> symbolIds = new LinkedHashMap<>();
    private final List<List<List<Element>>> rules = new ArrayList<>(); // rule id -> alternatives -> sequence
    // rule id -> offset of first use. Offsets, not lines and columns: computing a line and column scans the text from
    // the start, so doing it for every reference made parsing quadratic (minutes for a 1 MB grammar); it is done only
    // for an error.
    private final List<Integer> firstReference = new ArrayList<>();
    private int nesting; // groups open at pos
    private long elements; // elements written by repetition expansion so far

    private GbnfParser(String text) {
        this.src = text.codePoints().toArray();
    }

    static CompiledGrammar parse(String text) {
        GbnfParser parser = new GbnfParser(text);
        parser.parseGrammar();
        return parser.compile();
    }

    private void parseGrammar() {
        skipSpace(true);
        while (!atEnd()) {
            parseRule();
        }
    }

    private void parseRule() {
        int at = pos;
        String name = parseName();
        int ruleId = symbolId(name, at);
        skipSpace(false);
        if (!(peek(0) == ':' && peek(1) == ':' && peek(2) == '=')) {
            throw error("expecting '::=' after rule name '" + name + "'");
        }
        pos += 3;
        skipSpace(true);
        rules.set(ruleId, parseAlternates(name, false));
        if (peek(0) == '\r') {
            pos += peek(1) == '\n' ? 2 : 1;
        } else if (peek(0) == '\n') {
            pos++;
        } else if (!atEnd()) {
            throw error("expecting newline or end of grammar, found " + describe(peek(0)));
        }
        skipSpace(true);
    }

    private List<List<Element>> parseAlternates(String ruleName, boolean nested) {
        List<List<Element>> alternatives = new ArrayList<>();
        alternatives.add(parseSequence(ruleName, nested));
        while (peek(0) == '|') {
            pos++;
            skipSpace(true);
            alternatives.add(parseSequence(ruleName, nested));
        }
        return alternatives;
    }

    private List<Element> parseSequence(String ruleName, boolean nested) {
        List<Element> sequence = new ArrayList<>();
        int lastItemStart = -1; // index in sequence where the last repeatable item starts; -1: none
        while (!atEnd()) {
            int c = peek(0);
            if (c == '"') {
                lastItemStart = sequence.size();
                parseLiteral(sequence);
                if (lastItemStart == sequence.size()) {
                    lastItemStart = -1; // "" is nothing to repeat
                }
            } else if (c == '[') {
                lastItemStart = sequence.size();
                sequence.add(parseCharClass());
            } else if (isWordChar(c)) {
                int at = pos;
                lastItemStart = sequence.size();
                sequence.add(new Element.RuleRef(symbolId(parseName(), at)));
            } else if (c == '(') {
                if (nesting == MAX_NESTING) {
                    throw error("groups are nested deeper than " + MAX_NESTING + " levels");
                }
                nesting++;
                pos++;
                skipSpace(true);
                int groupId = syntheticRule(ruleName);
                rules.set(groupId, parseAlternates(ruleName, true));
                if (peek(0) != ')') {
                    throw error("expecting ')' to close the group, found " + describe(peek(0)));
                }
                pos++;
                nesting--;
                lastItemStart = sequence.size();
                sequence.add(new Element.RuleRef(groupId));
            } else if (c == '.') {
                pos++;
                lastItemStart = sequence.size();
                sequence.add(Element.Terminal.anyChar());
            } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                if (lastItemStart < 0) {
                    throw error("a repetition operator needs a preceding item");
                }
                int at = pos;
                int[] bounds = parseRepetition();
                countExpansion(sequence.size() - lastItemStart, bounds, at);
                // The expanded item starts where the item did, so a further operator repeats it all (S** as
                // llama.cpp reads it).
                repeat(sequence, lastItemStart, bounds[0], bounds[1], ruleName);
                skipSpace(nested);
                continue;
            } else {
                break;
            }
            skipSpace(nested);
        }
        return sequence;
    }

    private void parseLiteral(List<Element> sequence) {
        pos++; // opening quote
        while (peek(0) != '"') {
            if (atEnd()) {
                throw error("unterminated string literal");
            }
            sequence.add(Element.Terminal.of(parseChar()));
        }
        pos++;
    }

    private Element.Terminal parseCharClass() {
        pos++; // [
        boolean negated = false;
        if (peek(0) == '^') {
            negated = true;
            pos++;
        }
        List<Integer> ranges = new ArrayList<>();
        while (peek(0) != ']') {
            if (atEnd()) {
                throw error("unterminated character class");
            }
            int low = parseChar();
            int high = low;
            if (peek(0) == '-' && peek(1) != ']') {
                pos++;
                if (atEnd()) {
                    throw error("unterminated character class");
                }
                int at = pos;
                high = parseChar();
                if (high < low) {
                    throw errorAt(at, "character range is reversed: " + describe(low) + "-" + describe(high));
                }
            }
            ranges.add(low);
            ranges.add(high);
        }
        pos++;
        return new Element.Terminal(ranges.stream().mapToInt(Integer::intValue).toArray(), negated, false);
    }

    private int parseChar() {
        int c = peek(0);
        if (c != '\\') {
            pos++;
            return c;
        }
        int escape = peek(1);
        switch (escape) {
            case 'x':
                return parseHex(2);
            case 'u':
                return parseHex(4);
            case 'U':
                return parseHex(8);
            case 't':
                pos += 2;
                return '\t';
            case 'r':
                pos += 2;
                return '\r';
            case 'n':
                pos += 2;
                return '\n';
            case '\\':
            case '"':
            case '[':
            case ']':
                pos += 2;
                return escape;
            default:
                throw error("unknown escape " + (escape < 0 ? "at end of grammar" : "'\\" + Character.toString(escape) + "'"));
        }
    }

    private int parseHex(int digits) {
        pos += 2;
        long value = 0;
        for (int i = 0; i < digits; i++) {
            int digit = Character.digit(peek(0), 16);
            if (digit < 0 || peek(0) > 'f') {
                throw error("expecting " + digits + " hex digits");
            }
            value = value * 16 + digit;
            pos++;
        }
        if (value > Character.MAX_CODE_POINT) {
            throw error("code point out of range: " + Long.toHexString(value));
        }
        return (int) value;
    }

    /** Returns {min, max} with max -1 for unbounded. */
    private int[] parseRepetition() {
        int start = pos;
        int c = peek(0);
        pos++;
        if (c == '*') {
            return new int[] {0, -1};
        }
        if (c == '+') {
            return new int[] {1, -1};
        }
        if (c == '?') {
            return new int[] {0, 1};
        }
        skipSpace(true);
        int min = parseInt();
        skipSpace(true);
        int max;
        if (peek(0) == '}') {
            max = min;
        } else if (peek(0) == ',') {
            pos++;
            skipSpace(true);
            max = isDigit(peek(0)) ? parseInt() : -1;
            skipSpace(true);
            if (peek(0) != '}') {
                throw error("expecting '}' to close the repetition, found " + describe(peek(0)));
            }
        } else {
            throw error("expecting ',' or '}' in repetition, found " + describe(peek(0)));
        }
        pos++;
        if (max >= 0 && max < min) {
            throw errorAt(start, "repetition {" + min + "," + max + "} has its maximum below its minimum");
        }
        return new int[] {min, max};
    }

    private int parseInt() {
        int start = pos;
        long value = 0;
        while (isDigit(peek(0))) {
            value = value * 10 + (peek(0) - '0');
            pos++;
            if (value > MAX_REPETITIONS) {
                throw errorAt(start, "repetition count exceeds " + MAX_REPETITIONS);
            }
        }
        if (pos == start) {
            throw error("expecting an integer, found " + describe(peek(0)));
        }
        return (int) value;
    }

    /** Counts what expanding an item of {@code itemSize} elements {bounds} times adds; refuses past the limit. */
    private void countExpansion(int itemSize, int[] bounds, int at) {
        long copies = bounds[1] < 0 ? bounds[0] + 1L : bounds[1];
        elements += itemSize * copies + copies;
        if (elements > MAX_ELEMENTS) {
            int[] where = lineAndColumn(at);
            throw PaganticException.builder(ErrorCode.CONFIG_GRAMMAR_INVALID, "grammar refused before decoding: at "
                            + "line " + where[0] + ", column " + where[1] + " repetitions expand it beyond "
                            + MAX_ELEMENTS + " elements, over the cost budget")
                    .detail("line", where[0]).detail("column", where[1]).detail("budget", "elements")
                    .detail("estimate", elements).detail("limit", MAX_ELEMENTS).build();
        }
    }

    /**
     * Rewrites the item at the end of the sequence as llama.cpp does: S{m,n} becomes m copies of S followed by a
     * chain of n-m optional rules (S' ::= S S'' | ...), and S{m,} becomes m copies followed by S' ::= S S' | .
     */
    private void repeat(List<Element> sequence, int itemStart, int min, int max, String ruleName) {
        List<Element> item = new ArrayList<>(sequence.subList(itemStart, sequence.size()));
        sequence.subList(itemStart, sequence.size()).clear();
        for (int i = 0; i < min; i++) {
            sequence.addAll(item);
        }
        if (max < 0) {
            int loop = syntheticRule(ruleName);
            List<Element> again = new ArrayList<>(item);
            again.add(new Element.RuleRef(loop));
            rules.set(loop, List.of(again, List.of()));
            sequence.add(new Element.RuleRef(loop));
            return;
        }
        int next = -1;
        for (int i = 0; i < max - min; i++) {
            int optional = syntheticRule(ruleName);
            List<Element> more = new ArrayList<>(item);
            if (next >= 0) {
                more.add(new Element.RuleRef(next));
            }
            rules.set(optional, List.of(more, List.of()));
            next = optional;
        }
        if (next >= 0) {
            sequence.add(new Element.RuleRef(next));
        }
    }

    private String parseName() {
        int start = pos;
        while (isWordChar(peek(0))) {
            pos++;
        }
        if (pos == start) {
            throw error("expecting a rule name, found " + describe(peek(0)));
        }
        return new String(src, start, pos - start);
    }

    private void skipSpace(boolean newlineOk) {
        while (!atEnd()) {
            int c = peek(0);
            if (c == '#') {
                while (!atEnd() && peek(0) != '\r' && peek(0) != '\n') {
                    pos++;
                }
            } else if (c == ' ' || c == '\t' || (newlineOk && (c == '\r' || c == '\n'))) {
                pos++;
            } else {
                return;
            }
        }
    }

    private int symbolId(String name, int at) {
        Integer id = symbolIds.get(name);
        if (id == null) {
            id = rules.size();
            symbolIds.put(name, id);
            rules.add(null);
            firstReference.add(at);
        }
        return id;
    }

    private int syntheticRule(String base) {
        int id = rules.size();
        symbolIds.put(base + "_" + id, id);
        rules.add(null);
        firstReference.add(null);
        return id;
    }

    private CompiledGrammar compile() {
        Integer root = symbolIds.get("root");
        if (root == null || rules.get(root) == null) {
            throw PaganticException.builder(ErrorCode.CONFIG_GRAMMAR_INVALID, "grammar has no 'root' rule")
                    .detail("line", 1).detail("column", 1).build();
        }
        for (Map.Entry<String, Integer> symbol : symbolIds.entrySet()) {
            if (rules.get(symbol.getValue()) == null) {
                throw errorAt(firstReference.get(symbol.getValue()), "undefined rule '" + symbol.getKey() + "'");
            }
        }
        CompiledGrammar grammar = new CompiledGrammar(List.copyOf(symbolIds.keySet()), rules, root);
        grammar.leftRecursiveRule().ifPresent(name -> {
            throw PaganticException.builder(ErrorCode.CONFIG_GRAMMAR_INVALID,
                            "left recursion in rule '" + name + "': llama.cpp refuses left-recursive grammars")
                    .detail("rule", name).build();
        });
        return grammar;
    }

    private int peek(int offset) {
        int at = pos + offset;
        return at < src.length ? src[at] : -1;
    }

    private boolean atEnd() {
        return pos >= src.length;
    }

    private static boolean isWordChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || isDigit(c);
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static String describe(int c) {
        if (c < 0) {
            return "end of grammar";
        }
        if (c == '\n') {
            return "newline";
        }
        return "'" + Character.toString(c) + "'";
    }

    private int[] lineAndColumn(int offset) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset && i < src.length; i++) {
            if (src[i] == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new int[] {line, column};
    }

    private PaganticException error(String message) {
        return errorAt(pos, message);
    }

    private PaganticException errorAt(int offset, String message) {
        int[] at = lineAndColumn(offset);
        return PaganticException.builder(ErrorCode.CONFIG_GRAMMAR_INVALID,
                        "malformed grammar at line " + at[0] + ", column " + at[1] + ": " + message)
                .detail("line", at[0]).detail("column", at[1]).build();
    }
}
