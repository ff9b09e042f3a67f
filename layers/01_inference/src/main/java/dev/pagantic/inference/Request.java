package dev.pagantic.inference;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.core.internal.JsonValues;
import dev.pagantic.inference.grammar.GbnfGrammar;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One inference call: the conversation, what the model may use, and how to sample. Immutable; build one with
 * {@link #builder()} or derive one with {@link #toBuilder()}.
 *
 * <p>Sampling parameters are optional: an unset temperature or top-p means the engine's default, while {@code 0.0}
 * means greedy decoding. A {@code maxTokens} of 0 means the engine's default.
 *
 * @param messages    the conversation; never empty
 * @param tools       the tools the model may call
 * @param schema      the JSON Schema the output must follow, if any
 * @param grammar     a GBNF grammar constraining the output at the decoder; empty for none. It is parsed when the
 *                    request is built, so a malformed grammar fails there with {@code CONFIG_GRAMMAR_INVALID} (line and
 *                    column in the details) and never reaches an engine
 * @param maxTokens   the most tokens to generate; 0 for the engine's default
 * @param temperature the sampling temperature; empty for the engine's default; 0 is greedy
 * @param topP        the nucleus sampling threshold in [0, 1]; empty for the engine's default
 * @param seed        the sampling seed, for reproducible sampling where the engine supports it
 * @param stop        strings that end generation when produced
 * @param options     engine-specific options, passed through unchanged (a JSON object)
 */
public record Request(List<Message> messages, List<ToolDefinition> tools, Optional<Schema> schema, String grammar,
                      int maxTokens, OptionalDouble temperature, OptionalDouble topP, OptionalLong seed,
                      List<String> stop, Map<String, Object> options) {

    public Request {
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(grammar, "grammar");
        Objects.requireNonNull(temperature, "temperature");
        Objects.requireNonNull(topP, "topP");
        Objects.requireNonNull(seed, "seed");
        stop = List.copyOf(stop);
        try {
            options = JsonValues.copyObject(options);
        } catch (IllegalArgumentException notJson) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "invalid request: options must be a JSON object: " + notJson.getMessage(), notJson);
        }
        check(!messages.isEmpty(), "a request needs at least one message");
        check(maxTokens >= 0, "maxTokens must not be negative: ", maxTokens);
        temperature.ifPresent(t -> check(Double.isFinite(t) && t >= 0, "temperature must be >= 0: ", t));
        topP.ifPresent(p -> check(p >= 0 && p <= 1, "topP must be within [0, 1]: ", p));
        for (String text : stop) {
            check(!text.isEmpty(), "stop strings must not be empty");
        }
        if (!grammar.isEmpty()) {
            GbnfGrammar.parse(grammar); // fail closed: a malformed grammar must never reach a decoder
        }
        if (tools.size() > 1) {
            Set<String> names = new HashSet<>();
            for (ToolDefinition tool : tools) {
                check(names.add(tool.name()), "duplicate tool name: ", tool.name());
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
        builder.grammar = grammar;
        builder.maxTokens = maxTokens;
        builder.temperature = temperature;
        builder.topP = topP;
        builder.seed = seed;
        builder.stop.addAll(stop);
        builder.options = options.isEmpty() ? null : new LinkedHashMap<>(options);
        return builder;
    }

    /** Whether a grammar is set. */
    public boolean hasGrammar() {
        return !grammar.isEmpty();
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "invalid request: " + message);
        }
    }

    /** Like {@link #check(boolean, String)}; the value is appended to the message only when the check fails. */
    private static void check(boolean condition, String message, Object value) {
        if (!condition) {
            check(false, message + value);
        }
    }

    /**
     * Builds a {@link Request}; {@link #build()} validates it and throws {@code CONFIG_INVALID} if it is not. Lists
     * given whole are copied at once into immutable lists, which the request then keeps without copying again.
     */
    public static final class Builder {
        private List<Message> messages = List.of(); // immutable, or an ArrayList of this builder's own
        private List<ToolDefinition> tools = List.of(); // likewise
        private Schema schema;
        private String grammar = "";
        private int maxTokens;
        private OptionalDouble temperature = OptionalDouble.empty();
        private OptionalDouble topP = OptionalDouble.empty();
        private OptionalLong seed = OptionalLong.empty();
        private final List<String> stop = new ArrayList<>();
        private Map<String, Object> options; // null: none

        private Builder() {
        }

        /** Replaces the conversation. */
        public Builder messages(List<Message> list) {
            messages = List.copyOf(list);
            return this;
        }

        public Builder addMessage(Message message) {
            Objects.requireNonNull(message, "message");
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
            Objects.requireNonNull(tool, "tool");
            if (!(tools instanceof ArrayList)) {
                tools = new ArrayList<>(tools);
            }
            tools.add(tool);
            return this;
        }

        /** The schema the output must follow; null clears it. */
        public Builder schema(Schema value) {
            this.schema = value;
            return this;
        }

        /** A GBNF grammar; empty clears it. */
        public Builder grammar(String value) {
            this.grammar = Objects.requireNonNull(value, "grammar");
            return this;
        }

        public Builder maxTokens(int value) {
            this.maxTokens = value;
            return this;
        }

        public Builder temperature(double value) {
            this.temperature = OptionalDouble.of(value);
            return this;
        }

        /** Back to the engine's default temperature. */
        public Builder defaultTemperature() {
            this.temperature = OptionalDouble.empty();
            return this;
        }

        public Builder topP(double value) {
            this.topP = OptionalDouble.of(value);
            return this;
        }

        public Builder seed(long value) {
            this.seed = OptionalLong.of(value);
            return this;
        }

        public Builder addStop(String value) {
            stop.add(Objects.requireNonNull(value, "stop"));
            return this;
        }

        /** An engine-specific option (a JSON value). */
        public Builder option(String key, Object value) {
            if (options == null) {
                options = new LinkedHashMap<>();
            }
            options.put(Objects.requireNonNull(key, "key"), value);
            return this;
        }

        public Request build() {
            return new Request(messages, tools, Optional.ofNullable(schema), grammar, maxTokens, temperature, topP,
                    seed, stop, options == null ? Map.of() : options);
        }
    }
}
