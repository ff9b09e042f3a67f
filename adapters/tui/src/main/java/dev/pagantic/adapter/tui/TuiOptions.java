package dev.pagantic.adapter.tui;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The command line of {@link TuiMain}: which engine to run (a GGUF model, or a script for trying the chat without one)
 * and the settings of the orchestrator.
 *
 * @param model          the GGUF model file; empty in scripted mode
 * @param contextSize    the model's context window; 0 for the engine's default
 * @param threads        the model's CPU threads; 0 for the engine's default
 * @param script         the scripted engine's steps, one per inference, in order; empty with a model
 * @param slowPerToken   scripted mode: the wait before each streamed word; zero for none
 * @param systemPrompt   the system prompt of new conversations; empty for none
 * @param maxTokens      the most tokens per inference; 0 for the orchestrator's default
 * @param demoTools      whether the demo {@code get_weather} tool is registered (always in scripted mode)
 * @param help           whether only the usage was asked for
 */
record TuiOptions(Optional<Path> model, int contextSize, int threads, List<ScriptStep> script,
                  Duration slowPerToken, Optional<String> systemPrompt, int maxTokens, boolean demoTools,
                  boolean help) {

    /** The usage text of {@code --help} and of a bad command line. */
    static final String USAGE = """
            usage: pagantic-tui (--model FILE.gguf [--ctx-size N] [--threads N] [--demo-tools]
                                 | --scripted TEXT... [--scripted-tool NAME:JSON]... [--slow-ms N])
                                [--system TEXT] [--max-tokens N]
              --model FILE         run this GGUF model in process (llama.cpp)
              --ctx-size N         the model's context window (default 2048)
              --threads N          CPU threads of the model (default: all cores)
              --demo-tools         offer the demo get_weather tool to the model
              --scripted TEXT...   no model: answer these texts, one per model call, in order
              --scripted-tool NAME:JSON
                                   no model: the next model call asks for this tool, e.g.
                                   get_weather:{"city":"Paris"}; the tool runs and the next step answers
              --slow-ms N          scripted mode: wait N ms before each streamed word
              --system TEXT        the system prompt
              --max-tokens N       the most tokens per reply
              --help               this text
            In scripted mode the demo get_weather tool is registered. Type /help in the chat for its commands.
            """;

    TuiOptions {
        Objects.requireNonNull(model, "model");
        script = List.copyOf(script);
        Objects.requireNonNull(slowPerToken, "slowPerToken");
        Objects.requireNonNull(systemPrompt, "systemPrompt");
    }

    /** Whether the engine is the script rather than a model. */
    boolean scripted() {
        return model.isEmpty();
    }

    /**
     * Parses the command line.
     *
     * @throws PaganticException {@code CONFIG_INVALID} naming the offending argument
     */
    static TuiOptions parse(String... args) {
        Path model = null;
        int contextSize = 0;
        int threads = 0;
        List<ScriptStep> script = new ArrayList<>();
        Duration slow = Duration.ZERO;
        String system = null;
        int maxTokens = 0;
        boolean demoTools = false;
        boolean help = false;
        int i = 0;
        while (i < args.length) {
            String option = args[i++];
            switch (option) {
                case "--model" -> model = Path.of(value(args, i++, option));
                case "--ctx-size" -> contextSize = positive(args, i++, option);
                case "--threads" -> threads = positive(args, i++, option);
                case "--demo-tools" -> demoTools = true;
                case "--scripted" -> {
                    int first = i;
                    while (i < args.length && !args[i].startsWith("--")) {
                        script.add(new ScriptStep.Reply(args[i++]));
                    }
                    if (i == first) {
                        throw invalid("--scripted needs at least one reply text");
                    }
                }
                case "--scripted-tool" -> script.add(ScriptStep.ToolCallStep.parse(value(args, i++, option)));
                case "--slow-ms" -> slow = Duration.ofMillis(positive(args, i++, option));
                case "--system" -> system = value(args, i++, option);
                case "--max-tokens" -> maxTokens = positive(args, i++, option);
                case "--help", "-h" -> help = true;
                default -> throw invalid("unknown argument '" + option + "'");
            }
        }
        if (!help) {
            if (model == null && script.isEmpty()) {
                throw invalid("give a model (--model FILE.gguf) or a script (--scripted TEXT...)");
            }
            if (model != null && !script.isEmpty()) {
                throw invalid("--model and --scripted exclude each other");
            }
            if (model != null && !slow.isZero()) {
                throw invalid("--slow-ms applies to scripted mode only");
            }
        }
        return new TuiOptions(Optional.ofNullable(model), contextSize, threads, script, slow,
                Optional.ofNullable(system), maxTokens, demoTools || model == null, help);
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw invalid(option + " needs a value");
        }
        return args[index];
    }

    private static int positive(String[] args, int index, String option) {
        String text = value(args, index, option);
        try {
            int number = Integer.parseInt(text);
            if (number > 0) {
                return number;
            }
        } catch (NumberFormatException notANumber) {
            // reported below, like a number out of range
        }
        throw invalid(option + " needs a positive whole number, not '" + text + "'");
    }

    static PaganticException invalid(String message) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, message);
    }

    /** One step of the scripted engine. */
    sealed interface ScriptStep {

        /** The model answers this text, word by word. */
        record Reply(String text) implements ScriptStep {
            public Reply {
                Objects.requireNonNull(text, "text");
            }
        }

        /**
         * The model asks for one tool call.
         *
         * @param tool      the tool's name
         * @param arguments its arguments, a JSON object
         */
        record ToolCallStep(String tool, Map<String, Object> arguments) implements ScriptStep {
            public ToolCallStep {
                Objects.requireNonNull(tool, "tool");
                arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments)); // JSON null allowed
            }

            /** Parses {@code NAME:JSON-OBJECT}, such as {@code get_weather:{"city":"Paris"}}. */
            static ToolCallStep parse(String text) {
                int colon = text.indexOf(':');
                if (colon <= 0) {
                    throw invalid("--scripted-tool needs NAME:JSON, such as get_weather:{\"city\":\"Paris\"}, not '"
                            + text + "'");
                }
                String json = text.substring(colon + 1).strip();
                return new ToolCallStep(text.substring(0, colon).strip(),
                        json.isEmpty() ? Map.of() : JsonText.object(json, "the arguments of --scripted-tool"));
            }
        }
    }
}
