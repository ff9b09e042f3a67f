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
 * @param model          the GGUF model file; empty in scripted mode or with an endpoint
 * @param endpoint       the base URL of an OpenAI-compatible server; empty for none
 * @param modelName      the model's name at the endpoint; empty without an endpoint
 * @param contextSize    the model's context window; 0 for the engine's default
 * @param threads        the model's CPU threads; 0 for the engine's default
 * @param gpuLayers      the model's layers offloaded to a GPU; 0 for none
 * @param script         the scripted engine's steps, one per inference, in order; empty with a model
 * @param slowPerToken   scripted mode: the wait before each streamed word; zero for none
 * @param systemPrompt   the system prompt of new conversations; empty for none
 * @param maxTokens      the most tokens per reply ({@value #DEFAULT_MAX_TOKENS} unless given)
 * @param timeout        the deadline of each turn; zero for none
 * @param demoTools      whether the demo {@code get_weather} tool is registered (always in scripted mode)
 * @param mcpConfig      an {@code mcpServers} JSON file whose servers' tools the model is offered; empty for none
 * @param help           whether only the usage was asked for
 */
record TuiOptions(Optional<Path> model, Optional<String> endpoint, Optional<String> modelName, int contextSize,
                  int threads, int gpuLayers, List<ScriptStep> script, Duration slowPerToken,
                  Optional<String> systemPrompt, int maxTokens, Duration timeout, boolean demoTools,
                  Optional<Path> mcpConfig, boolean help) {

    /**
     * The default most tokens per reply: a reply of a chat, with room left in a small model's context window for the
     * conversation (the facade keeps the history within the window minus this reserve).
     */
    static final int DEFAULT_MAX_TOKENS = 256;

    /** The usage text of {@code --help} and of a bad command line. */
    static final String USAGE = """
            usage: pagantic tui (--model FILE.gguf [--ctx-size N] [--threads N] [--gpu-layers N]
                                 | --endpoint URL --model-name NAME
                                 | --scripted TEXT... [--scripted-tool NAME:JSON]... [--slow-ms N])
                                [--demo-tools] [--mcp-config FILE] [--system TEXT] [--max-tokens N]
                                [--timeout SECONDS]
              --model FILE         run this GGUF model in process (llama.cpp)
              --ctx-size N         the model's context window (default 2048)
              --threads N          CPU threads of the model (default: all cores)
              --gpu-layers N       the model's layers to offload to a GPU (default 0)
              --endpoint URL       chat with a model of an OpenAI-compatible server (llama-server, vLLM,
                                   Ollama, pagantic serve); the API key comes from $OPENAI_API_KEY
              --model-name NAME    the model's name at the endpoint
              --demo-tools         offer the demo get_weather tool to the model
              --mcp-config FILE    offer the model the tools of the MCP servers in this mcpServers
                                   JSON file (the Claude Desktop shape); they stop with the chat
              --scripted TEXT...   no model: answer these texts, one per model call, in order
              --scripted-tool NAME:JSON
                                   no model: the next model call asks for this tool, e.g.
                                   get_weather:{"city":"Paris"}; the tool runs and the next step answers
              --slow-ms N          scripted mode: wait N ms before each streamed word
              --system TEXT        the system prompt
              --max-tokens N       the most tokens per reply (default 256)
              --timeout SECONDS    the deadline of each reply (default: none)
              --help               this text
            In scripted mode the demo get_weather tool is registered. Type /help in the chat for its commands.
            """;

    TuiOptions {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(timeout, "timeout");
        script = List.copyOf(script);
        Objects.requireNonNull(slowPerToken, "slowPerToken");
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        Objects.requireNonNull(mcpConfig, "mcpConfig");
    }

    /** Whether the engine is the script rather than a model. */
    boolean scripted() {
        return model.isEmpty() && endpoint.isEmpty();
    }

    /**
     * Parses the command line.
     *
     * @throws PaganticException {@code CONFIG_INVALID} naming the offending argument
     */
    static TuiOptions parse(String... args) {
        Path model = null;
        String endpoint = null;
        String modelName = null;
        int contextSize = 0;
        int threads = 0;
        int gpuLayers = 0;
        Duration timeout = Duration.ZERO;
        List<ScriptStep> script = new ArrayList<>();
        Duration slow = Duration.ZERO;
        String system = null;
        int maxTokens = DEFAULT_MAX_TOKENS;
        boolean demoTools = false;
        Path mcpConfig = null;
        boolean help = false;
        int i = 0;
        while (i < args.length) {
            String option = args[i++];
            switch (option) {
                case "--model" -> model = Path.of(value(args, i++, option));
                case "--ctx-size" -> contextSize = positive(args, i++, option);
                case "--threads" -> threads = positive(args, i++, option);
                case "--gpu-layers" -> gpuLayers = nonNegative(args, i++, option);
                case "--endpoint" -> endpoint = value(args, i++, option);
                case "--model-name" -> modelName = value(args, i++, option);
                case "--timeout" -> timeout = seconds(args, i++, option);
                case "--demo-tools" -> demoTools = true;
                case "--mcp-config" -> mcpConfig = Path.of(value(args, i++, option));
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
            int engines = (model != null ? 1 : 0) + (endpoint != null ? 1 : 0) + (script.isEmpty() ? 0 : 1);
            if (engines == 0) {
                throw invalid("give a model (--model FILE.gguf), a server (--endpoint URL --model-name NAME) or a "
                        + "script (--scripted TEXT...)");
            }
            if (engines > 1) {
                throw invalid("--model, --endpoint and --scripted exclude each other");
            }
            if ((endpoint == null) != (modelName == null)) {
                throw invalid("--endpoint and --model-name go together");
            }
            if (script.isEmpty() && !slow.isZero()) {
                throw invalid("--slow-ms applies to scripted mode only");
            }
        }
        boolean scripted = model == null && endpoint == null;
        return new TuiOptions(Optional.ofNullable(model), Optional.ofNullable(endpoint), Optional.ofNullable(modelName),
                contextSize, threads, gpuLayers, script, slow, Optional.ofNullable(system), maxTokens, timeout,
                demoTools || scripted, Optional.ofNullable(mcpConfig), help);
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

    private static int nonNegative(String[] args, int index, String option) {
        String text = value(args, index, option);
        if (text.equals("0")) {
            return 0;
        }
        return positive(args, index, option);
    }

    private static Duration seconds(String[] args, int index, String option) {
        String text = value(args, index, option);
        try {
            double seconds = Double.parseDouble(text);
            if (Double.isFinite(seconds) && seconds > 0) {
                return Duration.ofNanos(Math.max(1, Math.round(seconds * 1e9)));
            }
        } catch (NumberFormatException notANumber) {
            // reported below, like a number out of range
        }
        throw invalid(option + " needs a positive number of seconds, not '" + text + "'");
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
