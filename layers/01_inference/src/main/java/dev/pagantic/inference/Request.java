package dev.pagantic.inference;

import static dev.pagantic.core.Preconditions.require;
import static dev.pagantic.core.Preconditions.requireNonNull;

import dev.pagantic.core.Message;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One inference call: the conversation, the tools the model may call, the output constraint (a JSON Schema and a GBNF
 * grammar, both optional) and how to sample ({@link InferenceSettings}). Immutable; build one with {@link #builder()}
 * or derive one with {@link #toBuilder()}.
 *
 * @param messages the conversation; never empty
 * @param tools    the tools the model may call; names are unique
 * @param schema   the JSON Schema the output must follow, if any
 * @param grammar  the GBNF grammar constraining the output at the decoder, if any; already parsed and checked, so a
 *                 malformed grammar never reaches an engine
 * @param settings how to sample: token limit, temperature, top-p, seed, stop strings, engine options
 */
public record Request(List<Message> messages, List<ToolDefinition> tools, Optional<Schema> schema,
                      Optional<GbnfGrammar> grammar, InferenceSettings settings) {

    public Request {
        messages = Preconditions.requireElements(messages, "messages");
        tools = Preconditions.requireElements(tools, "tools");
        requireNonNull(schema, "schema");
        requireNonNull(grammar, "grammar");
        requireNonNull(settings, "settings");
        require(!messages.isEmpty(), "a request needs at least one message");
        if (tools.size() > 1) {
            Set<String> names = new HashSet<>();
            for (ToolDefinition tool : tools) {
                require(names.add(tool.name()), "duplicate tool name: ", tool.name());
            }
        }
    }

    /** A request with a single user message and engine defaults for everything else. */
    public static Request of(String userMessage) {
        return builder().addMessage(Message.user(userMessage)).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder initialised with this request's values. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.messages = messages;
        builder.tools = tools;
        builder.schema = schema.orElse(null);
        builder.grammar = grammar.orElse(null);
        builder.settings = settings;
        return builder;
    }

    /** Whether a grammar is set. */
    public boolean hasGrammar() {
        return grammar.isPresent();
    }

    /**
     * Builds a {@link Request}; {@link #build()} validates it and throws {@code CONFIG_INVALID} if it is not. Lists
     * given whole are copied at once into immutable lists, which the request then keeps without copying again. The
     * sampling methods ({@link #maxTokens}, {@link #temperature}, ...) set the request's {@link InferenceSettings} one
     * value at a time; {@link #settings} replaces them whole.
     */
    public static final class Builder {
        private List<Message> messages = List.of(); // immutable, or an ArrayList of this builder's own
        private List<ToolDefinition> tools = List.of(); // likewise
        private @Nullable Schema schema;
        private @Nullable GbnfGrammar grammar;
        private InferenceSettings settings = InferenceSettings.DEFAULTS;
        private InferenceSettings.@Nullable Builder edited; // only once a single setting is set: most calls set none

        private Builder() {
        }

        /** Replaces the conversation. */
        public Builder messages(List<Message> list) {
            messages = List.copyOf(list);
            return this;
        }

        public Builder addMessage(Message message) {
            requireNonNull(message, "message");
            if (!(messages instanceof ArrayList)) {
                messages = new ArrayList<>(messages);
            }
            messages.add(message);
            return this;
        }

        /** Replaces the tools. */
        public Builder tools(List<ToolDefinition> list) {
            tools = List.copyOf(list);
            return this;
        }

        public Builder addTool(ToolDefinition tool) {
            requireNonNull(tool, "tool");
            if (!(tools instanceof ArrayList)) {
                tools = new ArrayList<>(tools);
            }
            tools.add(tool);
            return this;
        }

        /** The schema the output must follow; null clears it. */
        public Builder schema(@Nullable Schema value) {
            this.schema = value;
            return this;
        }

        /** The grammar constraining the output at the decoder; null clears it. */
        public Builder grammar(@Nullable GbnfGrammar value) {
            this.grammar = value;
            return this;
        }

        /**
         * A grammar given as GBNF text, parsed here: a convenience for {@code grammar(GbnfGrammar.parse(text))}, so a
         * malformed grammar fails with {@code CONFIG_GRAMMAR_INVALID} (line and column in the details) before any
         * request exists.
         */
        public Builder grammar(String text) {
            this.grammar = GbnfGrammar.parse(text);
            return this;
        }

        /** Replaces the sampling settings whole. */
        public Builder settings(InferenceSettings value) {
            this.settings = requireNonNull(value, "settings");
            this.edited = null;
            return this;
        }

        /** The most tokens to generate; 0 for the engine's default. */
        public Builder maxTokens(int value) {
            edit().maxTokens(value);
            return this;
        }

        /** The sampling temperature; 0.0 is greedy. */
        public Builder temperature(double value) {
            edit().temperature(value);
            return this;
        }

        /** Back to the engine's default temperature. */
        public Builder defaultTemperature() {
            edit().defaultTemperature();
            return this;
        }

        /** The nucleus sampling threshold. */
        public Builder topP(double value) {
            edit().topP(value);
            return this;
        }

        /** The sampling seed. */
        public Builder seed(long value) {
            edit().seed(value);
            return this;
        }

        /** Adds a string that ends generation. */
        public Builder addStop(String value) {
            edit().addStop(value);
            return this;
        }

        /** An engine-specific option (a JSON value). */
        public Builder option(String key, Object value) {
            edit().option(key, value);
            return this;
        }

        private InferenceSettings.Builder edit() {
            if (edited == null) {
                edited = settings.toBuilder();
            }
            return edited;
        }

        public Request build() {
            return new Request(messages, tools, Optional.ofNullable(schema), Optional.ofNullable(grammar),
                    edited == null ? settings : edited.build());
        }
    }
}
