package dev.pagantic.inference.grammar;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * GBNF for the integers of a range, digit by digit: {@code [7, 123]} is {@code [7-9] | [1-9] [0-9] | "1" [01] [0-9] |
 * "12" [0-3]}. Integer {@code minimum}/{@code maximum} constraints are enforced this way at the decoder rather than
 * checked afterwards. Integers are written as JSON writes them: no leading zeros, no plus sign, {@code -} only before
 * a non-zero number. An unbounded side stops at {@value #DIGITS} digits (as the plain integer rule does) or at the
 * digits of the other bound if it has more.
 */
final class IntegerRanges {

    /** The most digits an integer without an upper (or lower) bound is written with. */
    static final int DIGITS = 16;

    private IntegerRanges() {
    }

    /** The GBNF alternatives of the integers in [low, high] (null: unbounded); empty when there are none. */
    static List<String> alternatives(BigInteger low, BigInteger high) {
        int digits = Math.max(DIGITS, Math.max(low == null ? 0 : low.abs().toString().length(),
                high == null ? 0 : high.abs().toString().length()));
        BigInteger limit = BigInteger.TEN.pow(digits).subtract(BigInteger.ONE);
        BigInteger from = low == null ? limit.negate() : low.max(limit.negate());
        BigInteger to = high == null ? limit : high.min(limit);
        List<String> out = new ArrayList<>();
        if (from.compareTo(to) > 0) {
            return out;
        }
        if (from.signum() < 0) {
            BigInteger negativeTo = to.min(BigInteger.ONE.negate());
            for (String positive : positives(negativeTo.negate(), from.negate())) {
                out.add("\"-\" " + positive);
            }
        }
        if (from.signum() <= 0 && to.signum() >= 0) {
            out.add("\"0\"");
        }
        if (to.signum() > 0) {
            out.addAll(positives(from.max(BigInteger.ONE), to));
        }
        return out;
    }

    /** Alternatives for [low, high], 1 <= low <= high. */
    private static List<String> positives(BigInteger low, BigInteger high) {
        List<String> out = new ArrayList<>();
        String lowText = low.toString();
        String highText = high.toString();
        for (int length = lowText.length(); length <= highText.length(); length++) {
            String from = length == lowText.length() ? lowText : "1" + "0".repeat(length - 1);
            String to = length == highText.length() ? highText : "9".repeat(length);
            sameLength(from, to, "", out);
        }
        return out;
    }

    /** Alternatives for the digit strings of one length between from and to (inclusive), after a fixed prefix. */
    private static void sameLength(String from, String to, String prefix, List<String> out) {
        if (from.equals(to)) {
            out.add(join(prefix, "\"" + from + "\""));
            return;
        }
        int n = from.length();
        char a = from.charAt(0);
        char b = to.charAt(0);
        String restFrom = from.substring(1);
        String restTo = to.substring(1);
        if (a == b) {
            sameLength(restFrom, restTo, prefix + a, out);
            return;
        }
        if (restFrom.chars().allMatch(c -> c == '0') && restTo.chars().allMatch(c -> c == '9')) {
            out.add(join(prefix, digitClass(a, b) + anyDigits(n - 1)));
            return;
        }
        int middleFrom = a + 1;
        if (restFrom.chars().allMatch(c -> c == '0')) {
            middleFrom = a;
        } else {
            sameLength(restFrom, "9".repeat(n - 1), prefix + a, out);
        }
        int middleTo = b - 1;
        boolean lastIsFull = restTo.chars().allMatch(c -> c == '9');
        if (lastIsFull) {
            middleTo = b;
        }
        if (middleFrom <= middleTo) {
            out.add(join(prefix, digitClass((char) middleFrom, (char) middleTo) + anyDigits(n - 1)));
        }
        if (!lastIsFull) {
            sameLength("0".repeat(n - 1), restTo, prefix + b, out);
        }
    }

    private static String digitClass(char from, char to) {
        return from == to ? "\"" + from + "\"" : "[" + from + "-" + to + "]";
    }

    private static String anyDigits(int count) {
        return count == 0 ? "" : count == 1 ? " [0-9]" : " [0-9]{" + count + "}";
    }

    private static String join(String prefix, String rest) {
        return prefix.isEmpty() ? rest : "\"" + prefix + "\" " + rest;
    }
}
