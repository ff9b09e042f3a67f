package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Preconditions;
import dev.pagantic.core.Schema;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The expected shape of the output (seed 001's {@code OutputContract}).
 *
 * <ul>
 *   <li>{@code schema}: the JSON schema the output must conform to; drives constraint enforcement, and is required
 *       in {@link Mode#STRUCTURED} and {@link Mode#REDUNDANT} (checked by {@link SystemRequest#validate()}).</li>
 *   <li>{@code grammar}: a GBNF grammar constraining the decoder, inline or from a file ({@link GrammarSource}).</li>
 *   <li>{@code repairAllowed}: whether JSON repair may be tried before failing on malformed output. <b>Defaults to
 *       true in {@link #builder()} and {@link #none()}</b> (the seed's Go zero value would be false; repair is the
 *       behaviour the patterns are designed around, so callers opt out rather than in).</li>
 *   <li>{@code strictValidation}: when true, any remaining violation is terminal (an error, no output); when false
 *       (the default), the output is returned with its violations in the response's {@link ValidationResult}.</li>
 * </ul>
 *
 * @param schema           the JSON schema, if any
 * @param grammar          the GBNF grammar source, if any
 * @param repairAllowed    whether JSON repair is permitted
 * @param strictValidation whether any validation failure is terminal
 */
public record OutputContract(Optional<Schema> schema, Optional<GrammarSource> grammar, boolean repairAllowed,
                             boolean strictValidation) {

    private static final OutputContract NONE = new OutputContract(Optional.empty(), Optional.empty(), true, false);

    public OutputContract {
        requireNonNull(schema, "schema");
        requireNonNull(grammar, "grammar");
    }

    /** No schema, no grammar, repair allowed, lenient validation: the contract of free text. */
    public static OutputContract none() {
        return NONE;
    }

    /** A contract with the given schema and the builder's defaults otherwise. */
    public static OutputContract of(Schema schema) {
        return builder().schema(schema).build();
    }

    /** A builder with repair allowed and lenient validation. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this contract. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.schema = schema;
        builder.grammar = grammar;
        builder.repairAllowed = repairAllowed;
        builder.strictValidation = strictValidation;
        return builder;
    }

    /** Whether a schema is set. */
    public boolean hasSchema() {
        return schema.isPresent();
    }

    /** Collects a contract. */
    public static final class Builder {
        private Optional<Schema> schema = Optional.empty();
        private Optional<GrammarSource> grammar = Optional.empty();
        private boolean repairAllowed = true;
        private boolean strictValidation;

        private Builder() {
        }

        /** The JSON schema the output must conform to. */
        public Builder schema(Schema value) {
            this.schema = Optional.of(requireNonNull(value, "schema"));
            return this;
        }

        /** A GBNF grammar given inline. */
        public Builder grammar(String text) {
            return grammar(GrammarSource.inline(text));
        }

        /** A GBNF grammar read from a file when the request is prepared. */
        public Builder grammarFile(Path path) {
            return grammar(GrammarSource.file(path));
        }

        /** The GBNF grammar source. */
        public Builder grammar(GrammarSource value) {
            this.grammar = Optional.of(requireNonNull(value, "grammar"));
            return this;
        }

        /** Whether JSON repair may be tried; true by default. */
        public Builder repairAllowed(boolean value) {
            this.repairAllowed = value;
            return this;
        }

        /** Whether any validation failure is terminal; false by default. */
        public Builder strictValidation(boolean value) {
            this.strictValidation = value;
            return this;
        }

        /** The contract. */
        public OutputContract build() {
            return new OutputContract(schema, grammar, repairAllowed, strictValidation);
        }
    }
}
