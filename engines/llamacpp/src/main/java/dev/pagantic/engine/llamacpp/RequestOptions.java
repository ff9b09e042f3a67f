package dev.pagantic.engine.llamacpp;

import de.kherud.llama.InferenceParameters;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The engine-specific options a request may carry, checked in Java: each known option is applied to the sampler or
 * the chat template, and anything else is refused rather than passed to native code, where some parameters abort the
 * JVM ({@code n_probs} does in java-llama.cpp 4.2.0, at any value: a JSON lookup of a missing key fails an
 * assertion in native code once the first token is sampled; measured in {@code NativeAbortTest}).
 *
 * <ul>
 *   <li>{@code top_k} (a whole number), {@code min_p}, {@code repeat_penalty}, {@code presence_penalty},
 *       {@code frequency_penalty} (numbers within the float range), {@code repeat_last_n} (a whole number, at least
 *       -1): sampling;</li>
 *   <li>{@code logit_bias}: a map from token id (its decimal text, as in OpenAI's JSON object) to a number within
 *       the float range, added to that token's logit (-100 all but bans it). Ids outside the vocabulary are ignored,
 *       as llama-server does. A NaN or infinite bias is refused: the binding writes it into its JSON parameters as
 *       {@code NaN} or {@code Infinity}, and the native JSON parser's uncaught error aborts the JVM (measured in
 *       {@code NativeAbortTest});</li>
 *   <li>{@code cache_prompt} (boolean, default true): reuse the evaluated prompt prefix of the slot's previous
 *       request;</li>
 *   <li>{@code tool_choice}: {@code auto} (default: answer or call a tool), {@code required} (call a tool in answer to
 *       anything but tool results, after which the model may answer, so that a tool loop can end), {@code none} (offer
 *       no tools), or a named tool in OpenAI's shape, {@code {"type": "function", "function": {"name": "..."}}} (call
 *       that tool, under the same rule as {@code required});</li>
 *   <li>{@code parallel_tool_calls} (boolean, default true): false allows one tool call per answer;</li>
 *   <li>{@code tool_grammar} (boolean, default true): false leaves a tool-calling answer unconstrained (the prompt is
 *       the same, the answer is still read in the model's format, a call that cannot be read is
 *       {@code INFERENCE_MALFORMED_RESPONSE}, and no call is checked against its schema): for measuring what the
 *       grammar adds;</li>
 *   <li>{@code enable_thinking} (boolean): a chat-template switch, passed to the template.</li>
 * </ul>
 */
record RequestOptions(Map<String, Object> sampling, Map<Integer, Float> logitBias, boolean cachePrompt,
                      ToolChoice toolChoice, boolean parallelToolCalls, boolean toolGrammar, Map<String, Object> templateSwitches) {

    /**
     * How a request with tools may answer.
     *
     * @param mode  auto, required or none; a named tool is required
     * @param named the tool a call must name, empty for any
     */
    record ToolChoice(Mode mode, String named) {

        /** The choices {@code tool_choice} names. */
        enum Mode { AUTO, REQUIRED, NONE }

        static final ToolChoice AUTO = new ToolChoice(Mode.AUTO, "");
    }

    private static final Set<String> TEMPLATE_SWITCHES = Set.of("enable_thinking");
    private static final Set<String> SAMPLING = Set.of("top_k", "min_p", "repeat_penalty", "presence_penalty",
            "frequency_penalty", "repeat_last_n");
    private static final Set<String> INTEGERS = Set.of("top_k", "repeat_last_n");

    static RequestOptions of(Map<String, Object> options) {
        Map<String, Object> sampling = new LinkedHashMap<>();
        Map<String, Object> switches = new LinkedHashMap<>();
        Map<Integer, Float> logitBias = Map.of();
        boolean cachePrompt = true;
        boolean parallelToolCalls = true;
        boolean toolGrammar = true;
        ToolChoice toolChoice = ToolChoice.AUTO;
        for (Map.Entry<String, Object> option : options.entrySet()) {
            String key = option.getKey();
            Object value = option.getValue();
            if (INTEGERS.contains(key)) {
                sampling.put(key, integer(key, value));
            } else if (SAMPLING.contains(key)) {
                sampling.put(key, number(key, value));
            } else if (TEMPLATE_SWITCHES.contains(key)) {
                switches.put(key, value);
            } else if (key.equals("logit_bias")) {
                logitBias = logitBias(value);
            } else if (key.equals("cache_prompt")) {
                cachePrompt = bool(key, value);
            } else if (key.equals("tool_choice")) {
                toolChoice = toolChoice(value);
            } else if (key.equals("parallel_tool_calls")) {
                parallelToolCalls = bool(key, value);
            } else if (key.equals("tool_grammar")) {
                toolGrammar = bool(key, value);
            } else {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "the llama.cpp engine does not know option '"
                                + key + "'; known: " + known())
                        .detail("option", key).build();
            }
        }
        return new RequestOptions(Map.copyOf(sampling), logitBias, cachePrompt, toolChoice, parallelToolCalls,
                toolGrammar, Map.copyOf(switches));
    }

    void applyTo(InferenceParameters parameters) {
        sampling.forEach((key, value) -> {
            Number n = (Number) value;
            switch (key) {
                case "top_k" -> parameters.setTopK(n.intValue());
                case "min_p" -> parameters.setMinP(n.floatValue());
                case "repeat_penalty" -> parameters.setRepeatPenalty(n.floatValue());
                case "presence_penalty" -> parameters.setPresencePenalty(n.floatValue());
                case "frequency_penalty" -> parameters.setFrequencyPenalty(n.floatValue());
                case "repeat_last_n" -> parameters.setRepeatLastN(n.intValue());
                default -> throw new IllegalStateException(key);
            }
        });
        if (!logitBias.isEmpty()) {
            parameters.setTokenIdBias(logitBias);
        }
        parameters.setCachePrompt(cachePrompt);
    }

    /** OpenAI's {@code logit_bias}: token ids (decimal text, as options are JSON) to biases in the float range. */
    private static Map<Integer, Float> logitBias(Object value) {
        if (!(value instanceof Map<?, ?> entries)) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option 'logit_bias' must map token ids to "
                    + "biases: " + value).detail("option", "logit_bias").build();
        }
        Map<Integer, Float> biases = new LinkedHashMap<>();
        entries.forEach((token, bias) -> biases.put(tokenId(token), number("logit_bias", bias).floatValue()));
        return Map.copyOf(biases);
    }

    private static int tokenId(Object token) {
        try {
            if (token instanceof String text && Integer.parseInt(text) >= 0) {
                return Integer.parseInt(text);
            }
        } catch (NumberFormatException notANumber) {
            // refused below
        }
        throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option 'logit_bias' has the key '" + token
                + "', which is not a token id (a whole number from 0)").detail("option", "logit_bias").build();
    }

    /**
     * A number the sampler's float can hold: a larger one becomes an infinite float, which the binding writes into
     * its JSON parameters as {@code Infinity}, and the native JSON parser's uncaught error aborts the JVM.
     */
    private static Number number(String key, Object value) {
        if (value instanceof Number n && Float.isFinite(n.floatValue())) {
            return n;
        }
        throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option '" + key + "' must be a number within "
                + "the float range: " + value).detail("option", key).build();
    }

    /**
     * A whole number in the int range (a larger one would wrap around); {@code repeat_last_n} also at least -1 (the
     * context size), since llama.cpp refuses less with an error of its own.
     */
    private static Number integer(String key, Object value) {
        double minimum = key.equals("repeat_last_n") ? -1 : Integer.MIN_VALUE;
        if (value instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isFinite(d) && d == Math.rint(d) && d >= minimum && d <= Integer.MAX_VALUE) {
                return n.intValue();
            }
        }
        throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option '" + key + "' must be a whole number "
                + (key.equals("repeat_last_n") ? "from -1" : "in the int range") + ": " + value)
                .detail("option", key).build();
    }

    private static boolean bool(String key, Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option '" + key + "' must be a boolean: " + value)
                .detail("option", key).build();
    }

    private static ToolChoice toolChoice(Object value) {
        if (value instanceof Map<?, ?> named && "function".equals(named.get("type"))
                && named.get("function") instanceof Map<?, ?> function && function.get("name") instanceof String name
                && !name.isBlank()) {
            return new ToolChoice(ToolChoice.Mode.REQUIRED, name);
        }
        try {
            return new ToolChoice(ToolChoice.Mode.valueOf(String.valueOf(value).toUpperCase(Locale.ROOT)), "");
        } catch (IllegalArgumentException unknown) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "option 'tool_choice' must be auto, required, "
                            + "none or {\"type\": \"function\", \"function\": {\"name\": ...}}: " + value)
                    .detail("option", "tool_choice").build();
        }
    }

    private static String known() {
        return "top_k, min_p, repeat_penalty, presence_penalty, frequency_penalty, repeat_last_n, logit_bias, "
                + "cache_prompt, tool_choice, parallel_tool_calls, tool_grammar, enable_thinking";
    }
}
