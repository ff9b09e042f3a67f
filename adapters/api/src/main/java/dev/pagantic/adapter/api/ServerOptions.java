package dev.pagantic.adapter.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The command line of {@link ApiServerMain}.
 *
 * @param models        the GGUF models to serve with llama.cpp, the default one first; empty with {@code scripted}
 * @param scripted      the replies of a scripted engine, served in turn (to try the API without a model); empty with
 *                      {@code models}
 * @param host          the interface to bind
 * @param port          the port (0 for an ephemeral one)
 * @param token         the bearer token; empty for none
 * @param maxConcurrent the most requests in flight (and llama.cpp slots)
 * @param contextSize   the llama.cpp context size in tokens; 0 for the engine's default
 * @param threads       llama.cpp CPU threads; 0 for the engine's default
 * @param gpuLayers     layers to offload to a GPU; 0 for none
 * @param systemPrompt  the system prompt of conversations that bring none; empty for none
 * @param help          whether to print the usage and exit
 * @param idleTimeoutSeconds how long a connection may stay silent before it is closed (slow clients)
 * @param minRequestRate     the slowest request body rate in bytes per second (408 below it); 0 for none
 * @param queueSize          the most requests waiting for a slot (429 beyond)
 * @param queueTimeoutSeconds how long a request may wait for a slot (429 after)
 * @param aliases            other model names the served model answers to
 * @param mcpConfig          an {@code mcpServers} JSON file whose servers' tools the model is offered; empty for none
 */
record ServerOptions(List<Path> models, List<String> scripted, String host, int port, String token,
                     int maxConcurrent, int contextSize, int threads, int gpuLayers, String systemPrompt,
                     boolean help, int idleTimeoutSeconds, int minRequestRate, int queueSize,
                     int queueTimeoutSeconds, List<String> aliases, Optional<Path> mcpConfig) {

    /** The options without the slow-client settings, which take their defaults. */
    ServerOptions(List<Path> models, List<String> scripted, String host, int port, String token,
                  int maxConcurrent, int contextSize, int threads, int gpuLayers, String systemPrompt,
                  boolean help) {
        this(models, scripted, host, port, token, maxConcurrent, contextSize, threads, gpuLayers, systemPrompt, help,
                (int) ApiServer.DEFAULT_IDLE_TIMEOUT.toSeconds(), (int) ApiServer.DEFAULT_MIN_REQUEST_DATA_RATE,
                ApiServer.DEFAULT_QUEUE_SIZE, (int) ApiServer.DEFAULT_QUEUE_TIMEOUT.toSeconds(), List.of(),
                Optional.empty());
    }

    static final String USAGE = String.join("\n",
            "usage: pagantic serve (--model FILE.gguf | --scripted REPLY...) [options]",
            "  --model FILE          serve a GGUF model in process with llama.cpp; repeat it to serve several:",
            "                        the first answers requests naming no model, each other one is loaded",
            "                        when a request first names it (its file name without .gguf)",
            "  --scripted REPLY...   serve a scripted engine answering the replies in turn (no model needed)",
            "  --host HOST           interface to bind (default 127.0.0.1; 0.0.0.0 for all)",
            "  --port PORT           port (default 8080; 0 for an ephemeral one)",
            "  --token TOKEN         bearer token every /v1 request must carry (default: $PAGANTIC_API_TOKEN,",
            "                        none when unset)",
            "  --max-concurrent N    requests running at once (default 1 with --model, 4 with --scripted);",
            "                        with --model also the llama.cpp slots, each with context-size / N tokens",
            "  --queue-size N        requests waiting in order for a slot; 429 beyond (default 64; 0: none)",
            "  --queue-timeout SECS  how long a request may wait for a slot; 429 after (default 300)",
            "  --alias NAME          another name the default model answers to (repeatable), e.g. gpt-4o-mini;",
            "                        other names are answered 404 model_not_found",
            "  --context-size N      llama.cpp context size in tokens (default: the engine's)",
            "  --threads N           llama.cpp CPU threads (default: all processors)",
            "  --gpu-layers N        layers to offload to a GPU (default 0)",
            "  --system-prompt TEXT  system prompt of conversations that bring none",
            "  --mcp-config FILE     offer the model the tools of the MCP servers in this mcpServers JSON",
            "                        file (the Claude Desktop shape); they run server-side, like the",
            "                        orchestrator's own tools, and stop with the server",
            "  --idle-timeout SECS   close connections silent this long, e.g. slow clients (default 30)",
            "  --min-request-rate B  refuse request bodies arriving slower than B bytes/s with 408",
            "                        (default 1024; 0 for no minimum)",
            "  --help                print this and exit");

    ServerOptions {
        models = List.copyOf(models);
        scripted = List.copyOf(scripted);
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        aliases = List.copyOf(aliases);
        Objects.requireNonNull(mcpConfig, "mcpConfig");
    }

    /** The default model: the first one given; empty with {@code scripted}. */
    Optional<Path> model() {
        return models.stream().findFirst();
    }

    /**
     * Parses the arguments; the token defaults to the environment's {@code PAGANTIC_API_TOKEN}.
     *
     * @throws IllegalArgumentException with a message for the user, for arguments that do not make a server
     */
    static ServerOptions parse(List<String> args, Map<String, String> env) {
        List<Path> models = new ArrayList<>();
        List<String> scripted = new ArrayList<>();
        boolean scriptedGiven = false;
        String host = "127.0.0.1";
        int port = 8080;
        String token = env.getOrDefault("PAGANTIC_API_TOKEN", "");
        int maxConcurrent = 0;
        int contextSize = 0;
        int threads = 0;
        int gpuLayers = 0;
        String systemPrompt = "";
        int idleTimeout = (int) ApiServer.DEFAULT_IDLE_TIMEOUT.toSeconds();
        int minRequestRate = (int) ApiServer.DEFAULT_MIN_REQUEST_DATA_RATE;
        int queueSize = ApiServer.DEFAULT_QUEUE_SIZE;
        int queueTimeout = (int) ApiServer.DEFAULT_QUEUE_TIMEOUT.toSeconds();
        List<String> aliases = new ArrayList<>();
        Optional<Path> mcpConfig = Optional.empty();
        for (int i = 0; i < args.size(); i++) {
            String option = args.get(i);
            switch (option) {
                case "--help", "-h" -> {
                    return new ServerOptions(models, scripted, host, port, token, 1, 0, 0, 0, "", true);
                }
                case "--model" -> models.add(Path.of(value(args, ++i, option)));
                case "--scripted" -> {
                    scriptedGiven = true;
                    while (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                        scripted.add(args.get(++i));
                    }
                }
                case "--host" -> host = value(args, ++i, option);
                case "--port" -> port = number(args, ++i, option, 0, 65_535);
                case "--token" -> token = value(args, ++i, option);
                case "--max-concurrent" -> maxConcurrent = number(args, ++i, option, 1, 1024);
                case "--context-size" -> contextSize = number(args, ++i, option, 1, Integer.MAX_VALUE);
                case "--threads" -> threads = number(args, ++i, option, 1, 1024);
                case "--gpu-layers" -> gpuLayers = number(args, ++i, option, 0, 100_000);
                case "--system-prompt" -> systemPrompt = value(args, ++i, option);
                case "--idle-timeout" -> idleTimeout = number(args, ++i, option, 1, 86_400);
                case "--min-request-rate" -> minRequestRate = number(args, ++i, option, 0, Integer.MAX_VALUE);
                case "--queue-size" -> queueSize = number(args, ++i, option, 0, 100_000);
                case "--queue-timeout" -> queueTimeout = number(args, ++i, option, 0, 86_400);
                case "--alias" -> aliases.add(value(args, ++i, option));
                case "--mcp-config" -> mcpConfig = Optional.of(Path.of(value(args, ++i, option)));
                default -> throw new IllegalArgumentException("unknown option '" + option + "'");
            }
        }
        if (models.isEmpty() != scriptedGiven) {
            throw new IllegalArgumentException("give either --model FILE or --scripted REPLY...");
        }
        if (scriptedGiven && scripted.isEmpty()) {
            throw new IllegalArgumentException("--scripted needs at least one reply");
        }
        if (maxConcurrent == 0) {
            maxConcurrent = models.isEmpty() ? 4 : 1;
        }
        return new ServerOptions(models, scripted, host, port, token, maxConcurrent, contextSize, threads, gpuLayers,
                systemPrompt, false, idleTimeout, minRequestRate, queueSize, queueTimeout, aliases, mcpConfig);
    }

    private static String value(List<String> args, int index, String option) {
        if (index >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(index);
    }

    private static int number(List<String> args, int index, String option, int min, int max) {
        String text = value(args, index, option);
        try {
            int n = Integer.parseInt(text);
            if (n < min || n > max) {
                throw new IllegalArgumentException(option + " must be in " + min + ".." + max + ": " + text);
            }
            return n;
        } catch (NumberFormatException notNumber) {
            throw new IllegalArgumentException(option + " needs a number: " + text, notNumber);
        }
    }
}
