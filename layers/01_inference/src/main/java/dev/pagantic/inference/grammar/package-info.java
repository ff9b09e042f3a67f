/**
 * The GBNF grammar language, in llama.cpp's syntax: the one implementation that engines, the constraint layer and
 * orchestration share (the architecture rules keep grammar code out of every other package). JDK and core only.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.inference.grammar.GbnfGrammar}: a checked grammar. {@code parse} refuses malformed text,
 *       an undefined rule, a missing {@code root} and left recursion with {@code CONFIG_GRAMMAR_INVALID} (and the
 *       line and column), so that no grammar reaches a native decoder unchecked.</li>
 *   <li>Cost: {@link dev.pagantic.inference.grammar.GrammarCost} estimates, from the compiled rules, what a grammar
 *       costs llama.cpp (its size, the alternatives it opens at once, the parse states one character can multiply
 *       them into, which is where nested repetitions explode), and {@code parse} refuses a grammar over the measured
 *       budget in milliseconds ({@code CONFIG_GRAMMAR_INVALID} with {@code budget}, {@code estimate} and
 *       {@code limit}): llama.cpp's grammar set-up cannot be interrupted, so it must not be handed one that would
 *       hold an engine for seconds.</li>
 *   <li>Conformance: {@code accepts} and {@code match} decide whether an output is a sentence of the grammar, and
 *       where it went wrong ({@link dev.pagantic.inference.grammar.GrammarMatch}); {@code requireAccepted} raises
 *       {@code CONSTRAINT_GRAMMAR_REJECTED}. The recogniser works as llama.cpp's sampler does, so an output accepted
 *       here is one the decoder could have produced.</li>
 *   <li>Schema to grammar: {@link dev.pagantic.inference.grammar.SchemaGrammar} derives the grammar of a
 *       {@link dev.pagantic.core.Schema} and lists the JSON pointers of the keywords it leaves to the validator.
 *       Enforced in the grammar: {@code type} (unions too), {@code const} and {@code enum} of any JSON value
 *       (prefix-shared rules), {@code anyOf}, {@code oneOf} (at least one branch), {@code allOf} (merged), local
 *       {@code $ref} (recursive ones as recursive rules), integer {@code minimum}/{@code maximum}/
 *       {@code exclusiveMinimum}/{@code exclusiveMaximum} (digit-range rules), {@code minLength}/{@code maxLength},
 *       {@code multipleOf} (a step dividing a power of ten, or few multiples in a range:
 *       {@code Multiples}), {@code pattern} (the ECMA-262 subset a grammar can express;
 *       outside it a refusal), {@code format} date, time, date-time, duration and uuid, {@code prefixItems}, {@code items}, {@code minItems}/{@code maxItems},
 *       {@code properties}, {@code required}, {@code additionalProperties} (absent, true, false or a schema; keys of
 *       additional properties are never declared ones) and {@code minProperties}/{@code maxProperties} where the
 *       member chain can count them. The rest of draft 2020-12 is validated after generation.</li>
 *   <li>Composition: {@code GbnfGrammar.builder()} puts grammars together: rules of its own, schema grammars embedded
 *       under a name of their own (their rules renamed), free text that runs until a trigger and then continues as a
 *       given rule (an Aho-Corasick automaton over the triggers, one rule per state, so that the text provably
 *       cannot contain a trigger), and text that does not open with given prefixes. Engines build the grammars of
 *       tool-call formats with it; a format that lets the model write text before a call (as llama-server's lazy
 *       grammars do) is expressed as an ordinary grammar that constrains from the first token.</li>
 * </ul>
 *
 * <h2>Design decisions</h2>
 * <ul>
 *   <li>The schema's document is read through a typed view made when the grammar is derived, not stored: the
 *       schemas at one instance location (the node, its {@code allOf} branches, its {@code $ref} targets) form a
 *       conjunction, memoised by the locations it merges (which makes recursive references recursive rules);
 *       {@code anyOf}/{@code oneOf} branches are distributed over it; each JSON type it allows gets a rule.</li>
 *   <li>The grammar is a superset of the schema's instances, never a subset, except for documented limits (keys in
 *       declared order and additional ones last, bounded whitespace, at most 16 integer and fraction digits, raw
 *       characters rather than escapes): the validator checks the rest, and {@code SchemaGrammar.exact()} says when
 *       there is no rest.</li>
 *   <li>Grammars are immutable and thread-safe once parsed. Whitespace in derived grammars is bounded because
 *       unbounded whitespace lets small models pad forever. Annotations in a schema do not constrain output.</li>
 * </ul>
 */
package dev.pagantic.inference.grammar;
