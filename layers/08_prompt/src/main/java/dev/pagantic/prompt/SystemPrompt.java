package dev.pagantic.prompt;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A system prompt assembled from parts: a base text, named {@link InstructionSet}s, and a {@link ContextPolicy} with
 * the retrieved context it places. Immutable; derive variants with {@link #withContext(List)} or
 * {@link #toBuilder()}.
 *
 * <h2>Rendering</h2>
 * {@link #render()} joins, with a blank line between them: the base (stripped), each instruction set in its
 * {@code ## Name\n- rule} form, and, when the policy places context in the system prompt and some fits its budget,
 * the context block. {@link #buildSystemPrompt()} wraps that in a system {@link Message}; its shape,
 * {@code Message buildSystemPrompt()}, is that of orchestrate's {@code PromptProvider} port, so a system prompt plugs
 * in by method reference without this layer importing orchestrate:
 * <pre>{@code
 * SystemPrompt prompt = SystemPrompt.builder()
 *         .base(Template.of("You are {{product}}'s support assistant."), Map.of("product", "Acme"))
 *         .instructions(InstructionSet.of("Style", "Answer in at most three sentences.", "Cite sources as [n]."))
 *         .build();
 * PromptProvider provider = prompt.withContext(snippets)::buildSystemPrompt;
 * }</pre>
 * For the other placements, {@link #messagesFor(List)} puts the system message and the context around a
 * conversation.
 *
 * @param base            the base text (already rendered, if it came from a template); may be empty when there are
 *                        instruction sets
 * @param instructionSets the instruction sets, in order, with distinct names
 * @param contextPolicy   where retrieved context goes and how much of it
 * @param context         the retrieved context to place, best first; may be empty
 */
public record SystemPrompt(String base, List<InstructionSet> instructionSets, ContextPolicy contextPolicy,
                           List<ContextSnippet> context) {

    public SystemPrompt {
        Objects.requireNonNull(base, "base");
        instructionSets = List.copyOf(instructionSets);
        Objects.requireNonNull(contextPolicy, "contextPolicy");
        context = List.copyOf(context);
        if (base.isBlank() && instructionSets.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "a system prompt needs a base text or at least one instruction set");
        }
        Set<String> names = new HashSet<>();
        for (InstructionSet set : instructionSets) {
            if (!names.add(set.name().strip())) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "duplicate instruction set: " + set.name())
                        .detail("instruction_set", set.name()).build();
            }
        }
    }

    /** A system prompt of the base text only, with the default context policy. */
    public static SystemPrompt of(String base) {
        return builder().base(base).build();
    }

    /** Starts building a system prompt. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder initialised with this prompt's parts. */
    public Builder toBuilder() {
        Builder builder = new Builder().base(base).contextPolicy(contextPolicy).context(context);
        instructionSets.forEach(builder::instructions);
        return builder;
    }

    /** This prompt with the given retrieved context (replacing any it had). */
    public SystemPrompt withContext(List<ContextSnippet> snippets) {
        return new SystemPrompt(base, instructionSets, contextPolicy, snippets);
    }

    /** The system prompt's text; see the class description for the layout. */
    public String render() {
        String text = renderWithoutContext();
        if (contextPolicy.placement() != ContextPolicy.Placement.SYSTEM_PROMPT) {
            return text;
        }
        return ContextPolicy.appendBlock(text, contextPolicy.render(context));
    }

    /**
     * The system message: {@link #render()} as a {@link dev.pagantic.core.Role#SYSTEM} message. Matches
     * orchestrate's {@code PromptProvider} ({@code Message buildSystemPrompt()}), so
     * {@code PromptProvider provider = systemPrompt::buildSystemPrompt;} compiles.
     */
    public Message buildSystemPrompt() {
        return Message.system(render());
    }

    /**
     * The system message followed by the conversation, with the context placed by the policy (in the system message,
     * before the latest user message, inside it, or nowhere). The conversation must not start with its own system
     * message: this prompt is the system message.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the conversation's first message is a system message
     */
    public List<Message> messagesFor(List<Message> conversation) {
        if (!conversation.isEmpty() && conversation.get(0).role() == dev.pagantic.core.Role.SYSTEM) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "the conversation already starts with a system message; the system prompt provides it");
        }
        List<Message> messages = new ArrayList<>(conversation.size() + 1);
        messages.add(Message.system(renderWithoutContext()));
        messages.addAll(conversation);
        return contextPolicy.apply(messages, context);
    }

    private String renderWithoutContext() {
        List<String> parts = new ArrayList<>();
        if (!base.isBlank()) {
            parts.add(base.strip());
        }
        for (InstructionSet set : instructionSets) {
            parts.add(set.render());
        }
        return String.join("\n\n", parts);
    }

    /** Builds a {@link SystemPrompt}; {@link #build()} throws {@code CONFIG_INVALID} if it is not valid. */
    public static final class Builder {
        private String base = "";
        private @Nullable Template baseTemplate;
        private Map<String, ?> baseValues = Map.of();
        private final List<InstructionSet> instructionSets = new ArrayList<>();
        private ContextPolicy contextPolicy = ContextPolicy.defaults();
        private List<ContextSnippet> context = List.of();

        private Builder() {
        }

        /** The base text, used as is (no placeholder expansion). Replaces a base template. */
        public Builder base(String text) {
            this.base = Objects.requireNonNull(text, "base");
            this.baseTemplate = null;
            return this;
        }

        /** The base as a template, rendered with the values at {@link #build()}. Replaces a base text. */
        public Builder base(Template template, Map<String, ?> values) {
            this.baseTemplate = Objects.requireNonNull(template, "template");
            this.baseValues = Collections.unmodifiableMap(new HashMap<>(values)); // a null value reads as missing
            this.base = "";
            return this;
        }

        /** Adds an instruction set. */
        public Builder instructions(InstructionSet set) {
            instructionSets.add(Objects.requireNonNull(set, "instructionSet"));
            return this;
        }

        /** Adds an instruction set of the given rules. */
        public Builder instructions(String name, String... rules) {
            return instructions(InstructionSet.of(name, rules));
        }

        /** Where retrieved context goes and how much of it (default {@link ContextPolicy#defaults()}). */
        public Builder contextPolicy(ContextPolicy policy) {
            this.contextPolicy = Objects.requireNonNull(policy, "contextPolicy");
            return this;
        }

        /** The retrieved context to place, best first. */
        public Builder context(List<ContextSnippet> snippets) {
            this.context = List.copyOf(snippets);
            return this;
        }

        /**
         * Builds the prompt, rendering a base template.
         *
         * @throws PaganticException {@code CONFIG_INVALID} when the base template misses a variable (naming it), when
         *                           there is neither a base nor an instruction set, or for duplicate instruction set
         *                           names
         */
        public SystemPrompt build() {
            String text = baseTemplate != null ? baseTemplate.render(baseValues) : base;
            return new SystemPrompt(text, instructionSets, contextPolicy, context);
        }
    }
}
