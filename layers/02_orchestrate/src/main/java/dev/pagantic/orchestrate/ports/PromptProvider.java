package dev.pagantic.orchestrate.ports;

import dev.pagantic.core.Message;

/**
 * The prompt port: a system message assembled elsewhere, the structured alternative to a plain system prompt string.
 * The prompt layer's {@code SystemPrompt} has exactly this shape and plugs in by method reference:
 * <pre>{@code
 * PromptProvider provider = systemPrompt::buildSystemPrompt;
 * }</pre>
 */
@FunctionalInterface
public interface PromptProvider {

    /** The system message to start the conversation with. */
    Message buildSystemPrompt();
}
