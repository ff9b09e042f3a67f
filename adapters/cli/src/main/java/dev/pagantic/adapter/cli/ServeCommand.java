package dev.pagantic.adapter.cli;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code pagantic serve}: present so that the command names every way of running pagantic, but the HTTP server is
 * the api adapter's own program. Adapters do not depend on each other, so this command cannot start it: it says where
 * the server is and exits with the configuration-error code.
 */
@Command(name = "serve",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "The HTTP API (OpenAI-compatible chat completions and the native SystemRequest endpoint) is not started "
                    + "by this command: run the api adapter's main class, dev.pagantic.adapter.api.ApiServerMain "
                    + "(mvn -q -pl adapters/api exec:java -Dexec.args=\"--model model.gguf --port 8080\"). This "
                    + "command only says so, with exit code 2."
        },
        footer = ExitCodes.FOOTER)
final class ServeCommand implements Callable<Integer> {

    static final String MESSAGE = "the pagantic command does not start the HTTP server: run the api adapter's main "
            + "class dev.pagantic.adapter.api.ApiServerMain (mvn -q -pl adapters/api exec:java -Dexec.args=\"--model "
            + "model.gguf --port 8080\"); adapters do not depend on each other, so the CLI cannot start it";

    /** Whatever server options were given: the answer is the same. */
    @Unmatched
    private List<String> ignored = new ArrayList<>();

    @Override
    public Integer call() {
        throw PaganticException.of(ErrorCode.CONFIG_INVALID, MESSAGE);
    }
}
