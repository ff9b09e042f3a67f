package dev.pagantic.inference.grammar;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.Objects;
import java.util.Set;

/**
 * The grammar derived from a schema, and the keywords it leaves to the validator.
 *
 * <p>The grammar enforces at the decoder: {@code type} (unions too), {@code const} and {@code enum} of any JSON
 * value (prefix-shared), {@code anyOf} and {@code oneOf} (at least one branch), {@code allOf} (merged),
 * local {@code $ref} (recursive ones as recursive rules), integer {@code minimum}/{@code maximum}/
 * {@code exclusiveMinimum}/{@code exclusiveMaximum} as digit ranges, {@code multipleOf} where the step divides a
 * power of ten or a range holds few multiples (see {@link Multiples}), {@code minLength}/{@code maxLength},
 * {@code pattern} (the regular expressions a grammar can express, see {@link RegexGbnf}), {@code format} date, time,
 * date-time, duration and uuid, {@code prefixItems}, {@code items}, {@code minItems}/{@code maxItems}, {@code properties},
 * {@code required}, {@code additionalProperties} (absent, true, false or a schema) and
 * {@code minProperties}/{@code maxProperties} where the member chain can count them. Everything else is checked
 * after generation by the validator; {@link #validatedAfter()} lists the JSON pointers of those keywords in this
 * schema, so the grammar accepts a superset of the schema's instances, never fewer, within these limits: keys are
 * written in declared order with additional ones last, whitespace between tokens is limited, numbers have at most
 * 16 integer and 16 fraction digits (a number with a {@code multipleOf} the grammar carries is written without
 * exponent, and as an integer when the step is whole), a time's fraction of a second has at most 16 digits, and
 * characters are written raw rather than as {@code \}{@code u} escapes.
 *
 * @param grammar        the grammar, checked and within the cost budget
 * @param validatedAfter the JSON pointers of the keywords the grammar leaves (wholly or partly) to the validator
 */
public record SchemaGrammar(GbnfGrammar grammar, Set<String> validatedAfter) {

    public SchemaGrammar {
        Objects.requireNonNull(grammar, "grammar");
        validatedAfter = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(validatedAfter));
    }

    /**
     * Derives the grammar of a schema.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a schema no JSON value satisfies, a {@code pattern} outside
     *                           the expressible subset, or one nested deeper than
     *                           {@value SchemaGbnfGenerator#MAX_SCHEMA_DEPTH} levels; {@code CONFIG_GRAMMAR_INVALID}
     *                           for a grammar over the cost budget
     */
    public static SchemaGrammar of(Schema schema) {
        Objects.requireNonNull(schema, "schema");
        SchemaGbnfGenerator.Derivation derivation = SchemaGbnfGenerator.derive(schema);
        return new SchemaGrammar(GbnfGrammar.parse(derivation.grammar()), derivation.validatedAfter());
    }

    /** Whether the grammar enforces the whole schema, so that the validator can find nothing it lets through. */
    public boolean exact() {
        return validatedAfter.isEmpty();
    }
}
