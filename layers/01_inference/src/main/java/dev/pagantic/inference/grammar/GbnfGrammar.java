package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A checked GBNF grammar, in llama.cpp's syntax: rules {@code name ::= alternatives}, literals {@code "..."},
 * character classes {@code [a-z]} and {@code [^"]}, any character {@code .}, groups, {@code * + ?} and
 * {@code {m}}, {@code {m,}}, {@code {m,n}} repetition, escapes (backslash followed by {@code x} and 2 hex digits, {@code u} and 4, {@code U} and 8, or one of
 * {@code t r n \ " [ ]}),
 * and {@code #} comments.
 *
 * <p>{@link #parse} refuses a malformed grammar with {@code CONFIG_GRAMMAR_INVALID} and its line and column, an
 * undefined rule, a missing {@code root}, and left recursion: llama.cpp would otherwise run unconstrained or abort,
 * so no grammar reaches native code unchecked. Limits keep hostile grammar text from exhausting the stack or memory, also
 * refused with {@code CONFIG_GRAMMAR_INVALID}: groups nested more than {@value GbnfParser#MAX_NESTING} deep, rules
 * chained at the start of alternatives more than {@value CompiledGrammar#MAX_LEADING_CHAIN} deep, and repetitions
 * expanding past {@value GbnfParser#MAX_ELEMENTS} elements. {@link #match} then decides whether an output conforms, which is how
 * {@code CONSTRAINT_GRAMMAR_REJECTED} is raised. Immutable and thread-safe.
 *
 * <pre>{@code
 * GbnfGrammar yesNo = GbnfGrammar.parse("root ::= \"yes\" | \"no\"");
 * yesNo.accepts("yes");   // true
 * yesNo.accepts("maybe"); // false
 * }</pre>
 */
public final class GbnfGrammar {

    private final String text;
    private final CompiledGrammar compiled;
    private final GrammarCost cost;

    private GbnfGrammar(String text, CompiledGrammar compiled, GrammarCost cost) {
        this.text = text;
        this.compiled = compiled;
        this.cost = cost;
    }

    /**
     * Parses and checks a grammar; throws {@code CONFIG_GRAMMAR_INVALID} with {@code line}/{@code column} details,
     * or, for a grammar over the cost budget ({@link GrammarCost}), with {@code budget}, {@code estimate} and
     * {@code limit} details: such a grammar would hold the decoder in set-up, and is refused in milliseconds instead.
     */
    public static GbnfGrammar parse(String text) {
        Objects.requireNonNull(text, "text");
        GrammarCost.checkLength(text);
        CompiledGrammar compiled = GbnfParser.parse(text);
        GrammarCost cost = GrammarCost.of(compiled, text.length());
        cost.requireWithinBudget();
        return new GbnfGrammar(text, compiled, cost);
    }

    /** What this grammar costs the decoder, as estimated when it was parsed (within the budget). */
    public GrammarCost cost() {
        return cost;
    }

    /**
     * Derives the grammar of a schema, to constrain structured output at the decoder without writing GBNF by hand:
     * {@code SchemaGrammar.of(schema).grammar()}. See {@link SchemaGrammar} for what it enforces and what it leaves to
     * the validator.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a schema no JSON value satisfies, a {@code pattern} outside
     *                           the expressible subset, or one nested deeper than
     *                           {@value SchemaGbnfGenerator#MAX_SCHEMA_DEPTH} levels; {@code CONFIG_GRAMMAR_INVALID}
     *                           for a grammar over the cost budget
     */
    public static GbnfGrammar fromSchema(Schema schema) {
        return SchemaGrammar.of(schema).grammar();
    }

    /**
     * Starts composing a grammar from rules of its own, embedded schema grammars and rules for free text that
     * follows a tool-call format (see {@link Builder}); {@link Builder#build()} parses and checks the result.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** The GBNF literal that matches exactly {@code text} (quoted and escaped). */
    public static String literal(String text) {
        return GbnfWriter.literal(Objects.requireNonNull(text, "text"));
    }

    /** The GBNF literal that matches exactly the JSON string of {@code value} ({@code "\"name\""} for {@code name}). */
    public static String jsonStringLiteral(String value) {
        return literal(GbnfWriter.jsonString(Objects.requireNonNull(value, "value")));
    }

    /** The grammar's source text, as given. */
    public String text() {
        return text;
    }

    /** The compiled rules, for tools in this package (the property tests' grammar sampler walks them). */
    CompiledGrammar compiled() {
        return compiled;
    }

    /** The names of the rules the grammar defines, in order of first appearance. */
    public List<String> ruleNames() {
        // Synthesized rules are named base_N; '_' cannot occur in a GBNF name, so they are easy to leave out.
        return compiled.names().stream().filter(name -> name.indexOf('_') < 0).toList();
    }

    /** Whether the whole output is a sentence of the grammar. */
    public boolean accepts(String output) {
        return match(output).accepted();
    }

    /** Matches the whole output, telling where it was rejected. */
    public GrammarMatch match(String output) {
        return compiled.match(Objects.requireNonNull(output, "output"));
    }

    /** Throws {@code CONSTRAINT_GRAMMAR_REJECTED} (with offset and reason details) unless the output conforms. */
    public void requireAccepted(String output) {
        GrammarMatch match = match(output);
        if (!match.accepted()) {
            throw PaganticException.builder(ErrorCode.CONSTRAINT_GRAMMAR_REJECTED,
                            "output does not conform to the grammar: " + match.reason())
                    .detail("offset", match.offset()).detail("reason", match.reason()).build();
        }
    }

    /** Grammars are equal when their source texts are: a request holding a grammar is a value. */
    @Override
    public boolean equals(Object other) {
        return other instanceof GbnfGrammar grammar && text.equals(grammar.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return "GbnfGrammar" + ruleNames();
    }

    /**
     * Composes a grammar: rules of its own, the grammars of schemas embedded under a name of their own, and rules for
     * free text. This is how an engine builds the grammar of a model's tool-call format, with each tool's arguments
     * constrained by the grammar {@link #fromSchema} derives from its parameters:
     *
     * <pre>{@code
     * GbnfGrammar.Builder grammar = GbnfGrammar.builder();
     * String args = grammar.schema("weather-args", weatherParameters);
     * String ws = grammar.whitespace();
     * grammar.rule("call", ws + " \"{\" " + ws + " " + GbnfGrammar.jsonStringLiteral("city") + " ...");
     * grammar.rule("root", grammar.textUntil("text", Map.of("<tool_call>", "call")));
     * GbnfGrammar built = grammar.build();
     * }</pre>
     *
     * Rule names are letters, digits and {@code -}; a name defined twice, or one that an embedded grammar already
     * uses, is {@code CONFIG_INVALID}. Not thread-safe; build one grammar per builder.
     */
    public static final class Builder {

        private final StringBuilder text = new StringBuilder();
        private final Set<String> names = new LinkedHashSet<>();
        private String whitespace;

        private Builder() {
        }

        /**
         * Defines a rule.
         *
         * @param name       a rule name (letters, digits and {@code -}) not defined yet
         * @param expression the rule's alternatives in GBNF, referring to rules defined before or after it
         * @return this builder
         */
        public Builder rule(String name, String expression) {
            define(name);
            text.append(name).append(" ::= ").append(Objects.requireNonNull(expression, "expression")).append('\n');
            return this;
        }

        /**
         * Embeds the grammar of a schema ({@link #fromSchema}) under {@code name}: its root becomes rule {@code name},
         * its other rules {@code name-<rule>}.
         *
         * @return {@code name}, the rule that matches one JSON value of the schema
         */
        public String schema(String name, Schema schema) {
            requireName(name);
            String embedded = fromSchema(schema).text();
            Map<String, String> renamed = EmbeddedRules.renaming(embedded, name);
            renamed.values().forEach(this::define);
            text.append(EmbeddedRules.rename(embedded, renamed));
            return name;
        }

        /**
         * The rule of bounded whitespace between JSON tokens (nothing, a space, or a newline and up to 20 spaces or
         * tabs), defined on first use as {@code ws}.
         */
        public String whitespace() {
            if (whitespace == null) {
                rule("ws", "| \" \" | \"\\n\" [ \\t]{0,20}");
                whitespace = "ws";
            }
            return whitespace;
        }

        /**
         * Defines rules for free text that ends at the first occurrence of one of the triggers: the text cannot
         * contain a trigger, and once one is written, its continuation follows. This is how a lazily constrained
         * tool call (free text until the model opens a call) is expressed in a grammar that constrains from the first
         * token: the text stays free, the call that follows the trigger does not. Text may also end anywhere.
         *
         * @param name          the name of the start rule; the other rules are {@code name-<n>}
         * @param continuations each trigger (non-empty) with the GBNF expression that must follow it
         * @return {@code name}
         */
        public String textUntil(String name, Map<String, String> continuations) {
            requireName(name);
            TextRules.until(name, continuations).forEach(this::rule);
            return name;
        }

        /**
         * Defines rules for free text that does not start with any of the prefixes (the empty text included): the
         * answer branch of a format whose calls can only open the output.
         *
         * @param name     the name of the start rule; the other rules are {@code name-<n>}
         * @param prefixes the openings the text may not start with (each non-empty)
         * @return {@code name}
         */
        public String textNotStartingWith(String name, Collection<String> prefixes) {
            requireName(name);
            TextRules.notStartingWith(name, prefixes).forEach(this::rule);
            return name;
        }

        /**
         * The grammar.
         *
         * @throws PaganticException {@code CONFIG_GRAMMAR_INVALID} when it does not parse (a rule missing, no
         *                           {@code root}, a malformed expression)
         */
        public GbnfGrammar build() {
            return parse(text.toString());
        }

        private void define(String name) {
            requireName(name);
            if (!names.add(name)) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "grammar rule '" + name + "' is defined twice");
            }
        }

        private static void requireName(String name) {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[A-Za-z0-9-]+")) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid grammar rule name '" + name
                        + "': letters, digits and '-' only");
            }
        }
    }
}
