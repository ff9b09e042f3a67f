/**
 * Layer 08, structured prompt construction (planned; not yet implemented).
 *
 * <h2>Domain concepts</h2>
 * <ul>
 *   <li>{@code SystemPrompt}: a system prompt assembled from parts rather than one opaque string.</li>
 *   <li>{@code InstructionSet}: ordered instructions that shape the model's behaviour.</li>
 *   <li>{@code Template}: text with named placeholders rendered from values.</li>
 *   <li>Context placement: where retrieved context goes in a prompt follows an explicit policy rather than ad hoc
 *       string concatenation.</li>
 * </ul>
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate.
 * Orchestrate consumes prompts through its {@code PromptProvider} port, which builds the system
 * {@link dev.pagantic.core.Message}; a prompt type with a method of that shape plugs in by method reference, and one
 * with another signature is bridged by a lambda at the call site. A plain system prompt string remains a
 * convenience default in orchestrate's configurations; the port is the mechanism for structured, testable prompts.
 */
package dev.pagantic.prompt;
