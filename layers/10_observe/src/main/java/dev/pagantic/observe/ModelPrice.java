package dev.pagantic.observe;

import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;

/**
 * What one model's tokens cost, per million tokens, in whatever currency the price table uses.
 *
 * <p>Reasoning ("thinking") tokens are generated tokens and are billed at the output price, as the hosted APIs that
 * report them do. The arithmetic is exact {@link BigDecimal} arithmetic: a cost is
 * {@code (promptTokens * inputPerMillion + (reasoningTokens + outputTokens) * outputPerMillion) / 1,000,000} with
 * no rounding (dividing by a power of ten only moves the decimal point), so sums of costs are exact too.
 *
 * @param inputPerMillion  price of one million prompt tokens; not negative
 * @param outputPerMillion price of one million generated (output and reasoning) tokens; not negative
 */
public record ModelPrice(BigDecimal inputPerMillion, BigDecimal outputPerMillion) {

    public ModelPrice {
        Objects.requireNonNull(inputPerMillion, "inputPerMillion");
        Objects.requireNonNull(outputPerMillion, "outputPerMillion");
        if (inputPerMillion.signum() < 0) {
            throw Checks.invalid("inputPerMillion", "input price must not be negative: " + inputPerMillion);
        }
        if (outputPerMillion.signum() < 0) {
            throw Checks.invalid("outputPerMillion", "output price must not be negative: " + outputPerMillion);
        }
    }

    /** The price from decimal strings, such as {@code ModelPrice.of("3.00", "15.00")}; exact, unlike doubles. */
    public static ModelPrice of(String inputPerMillion, String outputPerMillion) {
        return new ModelPrice(parse(inputPerMillion, "inputPerMillion"), parse(outputPerMillion, "outputPerMillion"));
    }

    private static BigDecimal parse(String value, String field) {
        Objects.requireNonNull(value, field);
        try {
            return new BigDecimal(value.trim());
        } catch (NumberFormatException e) {
            throw Checks.invalid(field, field + " is not a decimal number: '" + value + "'");
        }
    }

    /** The exact cost of the usage at this price. */
    public BigDecimal costOf(TokenUsage usage) {
        Objects.requireNonNull(usage, "usage");
        return costOf(usage.promptTokens(), (long) usage.reasoningTokens() + usage.outputTokens());
    }

    /** The exact cost of the given prompt tokens and generated (output plus reasoning) tokens at this price. */
    public BigDecimal costOf(long promptTokens, long generatedTokens) {
        Checks.requireNonNegative(promptTokens, "promptTokens");
        Checks.requireNonNegative(generatedTokens, "generatedTokens");
        BigDecimal input = inputPerMillion.multiply(new BigDecimal(BigInteger.valueOf(promptTokens)));
        BigDecimal output = outputPerMillion.multiply(new BigDecimal(BigInteger.valueOf(generatedTokens)));
        return input.add(output).movePointLeft(6);
    }
}
