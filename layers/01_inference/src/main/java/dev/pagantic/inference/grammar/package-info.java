/**
 * The GBNF grammar language, in llama.cpp's syntax: the one implementation that engines, the constraint layer and
 * orchestration share (the architecture rules keep grammar code out of every other package). JDK and core only.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.inference.grammar.GbnfGrammar}: a checked grammar. {@code parse} refuses malformed text,
 *       an undefined rule, a missing {@code root} and left recursion with {@code CONFIG_GRAMMAR_INVALID} (and the
 *       line and column), so that no grammar reaches a native decoder unchecked.</li>
 *   <li>Conformance: {@code accepts} and {@code match} decide whether an output is a sentence of the grammar, and
 *       where it went wrong ({@link dev.pagantic.inference.grammar.GrammarMatch}); {@code requireAccepted} raises
 *       {@code CONSTRAINT_GRAMMAR_REJECTED}. The recogniser works as llama.cpp's sampler does, so an output accepted
 *       here is one the decoder could have produced.</li>
 *   <li>Schema to grammar: {@code GbnfGrammar.fromSchema} derives the grammar of a {@link dev.pagantic.core.Schema},
 *       accepting exactly the JSON documents it describes (keys in declaration order, optional properties omissible,
 *       no undeclared properties, limited whitespace), so structured output can be constrained at the decoder
 *       without hand-written GBNF.</li>
 *   <li>Composition: {@code GbnfGrammar.builder()} puts grammars together: rules of its own, schema grammars embedded
 *       under a name of their own (their rules renamed), free text that runs until a trigger and then continues as a
 *       given rule (an Aho-Corasick automaton over the triggers, one rule per state, so that the text provably
 *       cannot contain a trigger), and text that does not open with given prefixes. Engines build the grammars of
 *       tool-call formats with it; a format that lets the model write text before a call (as llama-server's lazy
 *       grammars do) is expressed as an ordinary grammar that constrains from the first token.</li>
 * </ul>
 *
 * <h2>Design decisions</h2>
 * Grammars are immutable and thread-safe once parsed. Whitespace in derived grammars is bounded because unbounded
 * whitespace lets small models pad forever. Defaults and descriptions in a schema do not constrain output.
 */
package dev.pagantic.inference.grammar;
