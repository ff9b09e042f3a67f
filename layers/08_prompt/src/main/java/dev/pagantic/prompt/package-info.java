/**
 * Layer 08: structured prompt construction.
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@link dev.pagantic.prompt.Template}: text with named placeholders {@code {{name}}}, parsed once. A missing
 *       variable is an error naming it ({@code CONFIG_INVALID}, details {@code variable} and {@code missing}), like
 *       Go's {@code missingkey=error}. Rendering is a single pass that inserts values literally, so user text that
 *       contains placeholder syntax is never expanded; a literal opening in the template itself is written with a
 *       backslash, and {@link dev.pagantic.prompt.Template#escape(String)} does that for text pasted into a template's
 *       source.</li>
 *   <li>{@link dev.pagantic.prompt.InstructionSet}: a named, ordered group of instructions rendered in the
 *       specification's {@code ## Name} / {@code - rule} format.</li>
 *   <li>{@link dev.pagantic.prompt.ContextPolicy}: where retrieved context goes (in the system prompt, as a system
 *       message before the latest user message, inside that user message, or nowhere) and how much of it (a
 *       character and/or token budget; snippets are kept whole, best first, and the first that does not fit ends the
 *       block). The block has the specification's format, {@code Relevant context:} then {@code [n] (source): text}
 *       lines. Context arrives as {@link dev.pagantic.prompt.ContextSnippet}s, so this layer needs nothing from the
 *       context layer.</li>
 *   <li>{@link dev.pagantic.prompt.SystemPrompt}: a base text (plain, or a template rendered at {@code build()}),
 *       instruction sets and a context policy with its context, assembled into one system message.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate consumes prompts through its {@code PromptProvider} port ({@code Message buildSystemPrompt()});
 * {@link dev.pagantic.prompt.SystemPrompt#buildSystemPrompt()} has exactly that shape, so
 * {@code PromptProvider provider = systemPrompt::buildSystemPrompt;} plugs it in without this layer importing
 * orchestrate ({@code systemPrompt.withContext(snippets)::buildSystemPrompt} for per-request context). A plain system
 * prompt string remains a convenience default in orchestrate's configurations; the port is the mechanism for
 * structured, testable prompts. All types are immutable and thread-safe; every failure is a
 * {@link dev.pagantic.core.PaganticException} with {@code CONFIG_INVALID}.
 */
@NullMarked
package dev.pagantic.prompt;

import org.jspecify.annotations.NullMarked;
