package dev.pagantic.inference.grammar;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import java.util.List;
import java.util.Objects;


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
     * The grammar of a tool-call envelope, for engines that constrain tool calling at the decoder: the output is
     * {@code {"tool_calls":[{"name":"...","arguments":{...}}]}} (one to {@value SchemaGbnfGenerator#MAX_CALLS} calls),
     * each call naming one of the tools, with arguments accepted by that tool's parameter grammar (see
     * {@link #fromSchema}). With {@code allowAnswer}, the output may instead be a plain-text answer, which cannot start
     * with {@code {}; without, a tool call is forced.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when there are no tools
     */
    public static GbnfGrammar forToolCalls(List<ToolDefinition> tools, boolean allowAnswer) {
        return forToolCalls(tools, allowAnswer, maxToolCalls());
    }

    /**
     * The tool-call envelope grammar with at most {@code maxCalls} calls per envelope (1 for a model that must not call
     * tools in parallel).
     *
     * @throws PaganticException {@code CONFIG_INVALID} when there are no tools or {@code maxCalls} is not in
     *                           [1, {@link #maxToolCalls()}]
     */
    public static GbnfGrammar forToolCalls(List<ToolDefinition> tools, boolean allowAnswer, int maxCalls) {
        Objects.requireNonNull(tools, "tools");
        if (tools.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a tool-call grammar needs at least one tool");
        }
        if (maxCalls < 1 || maxCalls > maxToolCalls()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "maxCalls must be within [1, " + maxToolCalls()
                    + "]: " + maxCalls);
        }
        return parse(SchemaGbnfGenerator.generateToolCalls(List.copyOf(tools), allowAnswer, maxCalls));
    }

    /** The most calls one tool-call envelope may hold. */
    public static int maxToolCalls() {
        return SchemaGbnfGenerator.MAX_CALLS;
    }

    /** The key under which a tool-call envelope lists its calls: {@value SchemaGbnfGenerator#TOOL_CALLS_KEY}. */
    public static String toolCallsKey() {
        return SchemaGbnfGenerator.TOOL_CALLS_KEY;
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
}
