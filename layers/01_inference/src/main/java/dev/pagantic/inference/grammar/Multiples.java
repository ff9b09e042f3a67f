package dev.pagantic.inference.grammar;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * GBNF for {@code multipleOf}, in the cases where a grammar can carry it with a handful of rules; in the others the
 * generator leaves it to the validator. Divisibility by a step is a property of a number's last digits when the step
 * divides a power of ten, which is what most schemas write ({@code 5}, {@code 10}, {@code 0.5}, {@code 0.01}):
 * <ul>
 *   <li>a whole step dividing 1000 ({@code 2}, {@code 4}, {@code 5}, {@code 8}, {@code 10}, {@code 25}, ...) on
 *       integers without bounds: the integers whose last digits are one of the step's multiples
 *       ({@code 5}: {@code "0" | "-"? ([1-9] [0-9]{0,14} [05] | "5")});</li>
 *   <li>any whole step on a range holding at most {@value #MAX_LISTED} multiples: the multiples, listed;</li>
 *   <li>a fractional step dividing 1 ({@code 0.5}, {@code 0.25}, {@code 0.01}): numbers whose fraction digits, padded
 *       to the step's scale, are a multiple of the step's digits ({@code 0.5}: {@code ("." [05])?}), and every
 *       integer.</li>
 * </ul>
 * A number with a whole step is an integer, so the grammar writes it as one (no fraction, no exponent: {@code 10},
 * never {@code 10.0} or {@code 1e1}); a number with a fractional step is written without exponent.
 */
final class Multiples {

    /** The most multiples of a bounded range that are listed. */
    static final int MAX_LISTED = 256;

    /** The most digits a step's last-digit test may look at: the step divides 10 to this power. */
    private static final int MAX_SUFFIX_DIGITS = 3;

    private Multiples() {
    }

    /** Whether every multiple of the step is an integer. */
    static boolean whole(BigDecimal step) {
        return step.signum() > 0 && step.stripTrailingZeros().scale() <= 0;
    }

    /** Whether every integer is a multiple of the step ({@code 1}, {@code 0.5}, {@code 1e-8}). */
    static boolean dividesOne(BigDecimal step) {
        return BigDecimal.ONE.remainder(step).signum() == 0;
    }

    /**
     * The integers of [low, high] (null: unbounded) that are multiples of a whole step, as a GBNF expression whose
     * helper rules are defined through {@code define}; null when a grammar cannot carry them here.
     */
    static String integers(BigInteger step, BigInteger low, BigInteger high, String name,
            BinaryOperator<String> define) {
        if (low != null && high != null) {
            BigInteger first = ceilDiv(low, step);
            BigInteger last = floorDiv(high, step);
            if (first.compareTo(last) > 0) {
                return "";
            }
            if (last.subtract(first).compareTo(BigInteger.valueOf(MAX_LISTED)) < 0) {
                List<String> listed = new ArrayList<>();
                for (BigInteger k = first; k.compareTo(last) <= 0; k = k.add(BigInteger.ONE)) {
                    listed.add(k.multiply(step).toString());
                }
                return new LiteralTrie(listed).expression(name + "-mul", define);
            }
        }
        int digits = suffixDigits(step);
        if (low != null || high != null || digits < 0) {
            return null;
        }
        BigInteger modulus = BigInteger.TEN.pow(digits);
        List<String> suffixes = new ArrayList<>();
        List<String> small = new ArrayList<>();
        for (BigInteger m = BigInteger.ZERO; m.compareTo(modulus) < 0; m = m.add(step)) {
            String text = m.toString();
            suffixes.add("0".repeat(digits - text.length()) + text);
            if (m.signum() > 0) {
                small.add(text);
            }
        }
        String longer = "[1-9] [0-9]{0," + (IntegerRanges.DIGITS - 1 - digits) + "} ("
                + new LiteralTrie(suffixes).expression(name + "-mul-end", define) + ")";
        String nonZero = small.isEmpty() ? longer
                : longer + " | " + new LiteralTrie(small).expression(name + "-mul-small", define);
        return "\"0\" | \"-\"? (" + nonZero + ")";
    }

    /**
     * The numbers that are multiples of a fractional step dividing 1, as a GBNF expression; null when the step needs
     * more fraction digits than a grammar lists.
     */
    static String fractions(BigDecimal step, String name, BinaryOperator<String> define) {
        int scale = step.stripTrailingZeros().scale();
        BigInteger digits = step.movePointRight(scale).toBigIntegerExact();
        String fraction;
        if (digits.equals(BigInteger.ONE)) {
            // every number with at most as many fraction digits as the grammar writes is a multiple of 1e-16
            fraction = "[0-9]{1," + Math.min(scale, IntegerRanges.DIGITS) + "}";
        } else if (scale <= MAX_SUFFIX_DIGITS) {
            List<String> listed = new ArrayList<>();
            for (int length = 1; length <= scale; length++) {
                for (int f = 0; f < BigInteger.TEN.pow(length).intValueExact(); f++) {
                    String text = String.format("%0" + length + "d", f);
                    if (new BigInteger(text + "0".repeat(scale - length)).mod(digits).signum() == 0) {
                        listed.add(text);
                    }
                }
            }
            fraction = new LiteralTrie(listed).expression(name + "-frac", define);
        } else {
            return null;
        }
        int integerDigits = IntegerRanges.DIGITS - 1;
        return "\"-\"? (\"0\" | [1-9] [0-9]{0," + integerDigits + "}) (\".\" (" + fraction + "))?";
    }

    /** The fewest digits k for which the step divides 10^k, or -1 when more than {@value #MAX_SUFFIX_DIGITS}. */
    private static int suffixDigits(BigInteger step) {
        for (int k = 0; k <= MAX_SUFFIX_DIGITS; k++) {
            if (BigInteger.TEN.pow(k).mod(step).signum() == 0) {
                return k;
            }
        }
        return -1;
    }

    private static BigInteger ceilDiv(BigInteger a, BigInteger b) {
        return new BigDecimal(a).divide(new BigDecimal(b), 0, RoundingMode.CEILING).toBigIntegerExact();
    }

    private static BigInteger floorDiv(BigInteger a, BigInteger b) {
        return new BigDecimal(a).divide(new BigDecimal(b), 0, RoundingMode.FLOOR).toBigIntegerExact();
    }
}
