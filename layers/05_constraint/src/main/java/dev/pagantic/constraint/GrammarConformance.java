package dev.pagantic.constraint;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.inference.grammar.GrammarMatch;
import java.util.Objects;

/**
 * Decides whether an output produced under a GBNF grammar conforms to it. The grammar language itself (parsing,
 * checking, matching) belongs to the inference layer ({@link GbnfGrammar}); this class applies it to outputs and
 * raises the constraint layer's error, {@code CONSTRAINT_GRAMMAR_REJECTED}, with the offset and reason.
 *
 * <p>A decoder that honours the grammar always produces a conforming output, except when generation stopped early
 * (the token limit): a truncated output is a proper prefix and is rejected here, which tells the caller that repair
 * (closing the structure) or a retry with a larger limit is needed.
 *
 * <pre>{@code
 * GrammarConformance conformance = GrammarConformance.of(GbnfGrammar.fromSchema(schema));
 * conformance.require(output); // throws CONSTRAINT_GRAMMAR_REJECTED if the output does not conform
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public final class GrammarConformance {

    private final GbnfGrammar grammar;

    private GrammarConformance(GbnfGrammar grammar) {
        this.grammar = grammar;
    }

    /** Conformance to a checked grammar. */
    public static GrammarConformance of(GbnfGrammar grammar) {
        return new GrammarConformance(Objects.requireNonNull(grammar, "grammar"));
    }

    /** Conformance to the grammar derived from a schema (what {@link GbnfGrammar#fromSchema} produces). */
    public static GrammarConformance ofSchema(Schema schema) {
        return of(GbnfGrammar.fromSchema(schema));
    }

    /** The grammar outputs are checked against. */
    public GbnfGrammar grammar() {
        return grammar;
    }

    /** Matches the whole output, telling where it was rejected. */
    public GrammarMatch check(String output) {
        return grammar.match(Objects.requireNonNull(output, "output"));
    }

    /** Whether the whole output is a sentence of the grammar. */
    public boolean conforms(String output) {
        return check(output).accepted();
    }

    /** Throws {@code CONSTRAINT_GRAMMAR_REJECTED} (details: {@code offset}, {@code reason}) unless it conforms. */
    public void require(String output) {
        GrammarMatch match = check(output);
        if (!match.accepted()) {
            throw PaganticException.builder(ErrorCode.CONSTRAINT_GRAMMAR_REJECTED,
                            "output does not conform to the grammar at offset " + match.offset() + ": "
                                    + match.reason())
                    .detail("offset", match.offset()).detail("reason", match.reason()).build();
        }
    }

    /** The rejection as a violation; used by the pipeline's report. */
    static Violation violation(GrammarMatch match) {
        return new Violation("$", Violation.GRAMMAR,
                "output does not conform to the grammar at offset " + match.offset() + ": " + match.reason());
    }
}
