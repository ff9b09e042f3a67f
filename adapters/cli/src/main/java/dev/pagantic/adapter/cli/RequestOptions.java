package dev.pagantic.adapter.cli;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The options every model-using subcommand shares: the system prompt, the hints, and how the result is shown. */
public final class RequestOptions {

    @Option(names = "--system", paramLabel = "TEXT", order = 10,
            description = "The system prompt.")
    private @Nullable String system;

    @Option(names = "--max-tokens", paramLabel = "N", order = 11,
            description = "The most tokens per model call (default: the orchestrator's, 2048).")
    private int maxTokens;

    @Option(names = "--temperature", paramLabel = "T", order = 12,
            description = "The sampling temperature; 0 is greedy (default: the engine's).")
    private @Nullable Double temperature;

    @Option(names = "--top-p", paramLabel = "P", order = 13,
            description = "The nucleus sampling threshold in (0, 1] (default: the engine's).")
    private @Nullable Double topP;

    @Option(names = "--seed", paramLabel = "N", order = 14,
            description = "The sampling seed, for reproducible sampling (default: none).")
    private @Nullable Long seed;

    @Option(names = "--stop", paramLabel = "TEXT", order = 14,
            description = "A string that ends the answer when the model writes it; repeatable (default: none).")
    private List<String> stop = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "SECONDS", order = 14,
            description = "The deadline of each request, in seconds (fractions allowed); exit code 130 when it "
                    + "passes (default: none).")
    private @Nullable Double timeoutSeconds;

    @Option(names = "--option", paramLabel = "KEY=VALUE", order = 14,
            description = "An engine option of the request, repeatable: llama.cpp's top_k, min_p, repeat_penalty, "
                    + "tool_choice, parallel_tool_calls, ...; true, false and numbers are read as such (default: "
                    + "none).")
    private Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--json", order = 15,
            description = "Print the whole response as JSON (the facade's wire form) instead of the plain rendering.")
    private boolean json;

    @Option(names = {"-v", "--verbose"}, order = 16,
            description = "Print the request's event timeline on stderr after the response.")
    private boolean verbose;

    /** No options given; picocli fills the fields. */
    public RequestOptions() {
    }

    /** The system prompt, if given. */
    Optional<String> system() {
        return Optional.ofNullable(system).filter(s -> !s.isBlank());
    }

    /** Whether the response is printed as JSON. */
    boolean json() {
        return json;
    }

    /** Whether the event timeline is printed. */
    boolean verbose() {
        return verbose;
    }

    /**
     * The execution hints of the options.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for a value out of range
     */
    ExecutionHints hints() {
        ExecutionHints.Builder hints = ExecutionHints.builder().maxTokens(maxTokens);
        if (temperature != null) {
            hints.temperature(temperature);
        }
        if (topP != null) {
            hints.topP(topP);
        }
        if (seed != null) {
            hints.seed(seed);
        }
        hints.stop(stop);
        options.forEach((key, value) -> hints.option(key, scalar(value)));
        if (timeoutSeconds != null) {
            if (!Double.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                        "--timeout must be a positive number of seconds: " + timeoutSeconds);
            }
            hints.timeout(Duration.ofNanos(Math.max(1, Math.round(timeoutSeconds * 1e9))));
        }
        return hints.build();
    }

    /** An option's value as its JSON scalar: a boolean, a whole or decimal number, else the text itself. */
    static Object scalar(String value) {
        if (value.equals("true") || value.equals("false")) {
            return Boolean.valueOf(value);
        }
        try {
            return Long.valueOf(value);
        } catch (NumberFormatException notWhole) {
            try {
                double number = Double.parseDouble(value);
                return Double.isFinite(number) && !value.endsWith("d") && !value.endsWith("f") ? number : value;
            } catch (NumberFormatException notANumber) {
                return value;
            }
        }
    }
}
