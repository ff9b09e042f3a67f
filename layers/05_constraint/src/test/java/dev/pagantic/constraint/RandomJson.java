package dev.pagantic.constraint;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.json.JsonMapper;

/**
 * Test support: random JSON texts as models write them (any nesting up to four levels, strings of any characters,
 * numbers of every shape, whitespace between tokens), mangled ones (cut off, a character dropped, duplicated or
 * replaced, single quotes, fences, prose and reasoning around it) and arbitrary text. Deterministic for a given
 * {@link Random}.
 */
final class RandomJson {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final List<String> WHITESPACE = List.of("", "", " ", "\n", "\t", "  ", "\r\n  ");
    private static final String JUNK = "\"',{}[]:\n\\xT";
    private static final String SYNTAX = "{}[]\"',:\\ \n\ttTrueFalsNn0123456789.-eE`<>/hik";

    private RandomJson() {
    }

    /** A valid JSON text, with whitespace around and inside it. */
    static String json(Random random) {
        return whitespace(random) + value(random, 4) + whitespace(random);
    }

    /** Text that is mostly JSON but malformed, or no JSON at all. */
    static String malformed(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> mangled(json(random), random);
            case 1 -> chars(random, SYNTAX, 40);
            case 2 -> "Here it is: ```json\n" + json(random) + "\n``` bye";
            default -> "\uFEFF<think>{hmm}</think>" + json(random);
        };
    }

    /** Arbitrary text, any characters. */
    static String text(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = 0, n = random.nextInt(61); i < n; i++) {
            text.append((char) random.nextInt(Character.MAX_VALUE + 1));
        }
        return text.toString();
    }

    /** Deletes, duplicates or replaces a character of a document, cuts it off, or swaps its quotes. */
    static String mangled(String json, Random random) {
        int at = json.isEmpty() ? 0 : random.nextInt(json.length());
        char junk = JUNK.charAt(random.nextInt(JUNK.length()));
        return switch (random.nextInt(5)) {
            case 0 -> json.substring(0, at);
            case 1 -> json.isEmpty() ? json : json.substring(0, at) + json.substring(at + 1);
            case 2 -> json.substring(0, at) + junk + json.substring(at);
            case 3 -> json.isEmpty() ? json : json.substring(0, at) + junk + json.substring(at + 1);
            default -> json.replace('"', '\'');
        };
    }

    private static String value(Random random, int depth) {
        if (depth == 0 || random.nextInt(3) == 0) {
            return scalar(random);
        }
        StringBuilder out = new StringBuilder();
        boolean array = random.nextBoolean();
        out.append(array ? '[' : '{');
        int n = random.nextInt(5);
        if (n == 0) {
            out.append(whitespace(random));
        }
        for (int i = 0; i < n; i++) {
            out.append(i > 0 ? "," : "").append(whitespace(random));
            if (!array) {
                out.append(string(random)).append(whitespace(random)).append(':').append(whitespace(random));
            }
            out.append(value(random, depth - 1)).append(whitespace(random));
        }
        return out.append(array ? ']' : '}').toString();
    }

    private static String scalar(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> string(random);
            case 1 -> number(random);
            default -> List.of("true", "false", "null").get(random.nextInt(3));
        };
    }

    private static String string(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = 0, n = random.nextInt(13); i < n; i++) {
            char c = (char) random.nextInt(Character.MAX_VALUE + 1);
            text.append(Character.isSurrogate(c) ? 'x' : c);
        }
        return MAPPER.writeValueAsString(text.toString());
    }

    private static String number(Random random) {
        String integer = random.nextInt(4) == 0 ? "0"
                : new BigInteger(1 + random.nextInt(80), random).add(BigInteger.ONE).toString();
        String fraction = random.nextBoolean() ? "" : "." + digits(random, 1 + random.nextInt(5));
        String exponent = random.nextBoolean() ? "" : List.of("e", "E").get(random.nextInt(2))
                + List.of("", "+", "-").get(random.nextInt(3)) + random.nextInt(301);
        return (random.nextBoolean() ? "" : "-") + integer + fraction + exponent;
    }

    private static String digits(Random random, int count) {
        StringBuilder digits = new StringBuilder();
        for (int i = 0; i < count; i++) {
            digits.append((char) ('0' + random.nextInt(10)));
        }
        return digits.toString();
    }

    private static String chars(Random random, String alphabet, int maxLength) {
        StringBuilder text = new StringBuilder();
        for (int i = 0, n = random.nextInt(maxLength + 1); i < n; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    private static String whitespace(Random random) {
        return WHITESPACE.get(random.nextInt(WHITESPACE.size()));
    }
}
