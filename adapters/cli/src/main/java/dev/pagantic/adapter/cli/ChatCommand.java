package dev.pagantic.adapter.cli;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.memory.FileConversationStore;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.tool.ToolRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code pagantic chat}: one prompt, its reply streamed to stdout token by token; with {@code --interactive}, one turn
 * per line of standard input, all in one session, until end of input or {@code /exit}.
 */
@Command(name = "chat",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Chat: the reply is streamed to stdout as it is generated.",
            "",
            "With --interactive, every line of standard input is one turn of one conversation, until end of input "
                    + "or a line '/exit'. With --session, the conversation is kept under that id (for the run, or in "
                    + "--session-dir across runs)."
        },
        footer = ExitCodes.FOOTER)
final class ChatCommand extends ModelCommand {

    static final String EXIT = "/exit";

    @Option(names = "--session", paramLabel = "ID", order = 1,
            description = "Keep the conversation under this id: each turn sees the earlier ones.")
    private @Nullable String session;

    @Option(names = "--session-dir", paramLabel = "DIR", order = 2,
            description = "Keep sessions in this directory (crash-safe journals), so that --session continues a "
                    + "conversation across runs; without it a session lasts as long as the run.")
    private @Nullable Path sessionDirectory;

    @Option(names = {"-i", "--interactive"}, order = 3,
            description = "Read prompts line by line from standard input, one turn each, in one session.")
    private boolean interactive;

    @Option(names = "--mcp-config", paramLabel = "FILE", order = 4,
            description = "Offer the model the tools of the MCP servers in this mcpServers JSON file (the Claude "
                    + "Desktop shape); the servers start before the model loads and stop when the command ends.")
    private Path mcpConfig;

    @Option(names = "--tools", paramLabel = "NAME", split = ",", order = 5,
            description = "Offer only these tools of --mcp-config (comma-separated); a name no server offers is an "
                    + "error.")
    private List<String> toolNames = new ArrayList<>();

    @Option(names = "--tool-choice", paramLabel = "CHOICE", order = 6,
            description = "auto (the model answers or calls a tool), required (it must call one first) or none "
                    + "(default: auto).")
    private ToolChoice toolChoice;

    /** The values of {@code --tool-choice}, as the engines' {@code tool_choice} option spells them. */
    enum ToolChoice { auto, required, none }

    /** The tools of {@code --mcp-config}; null without it. */
    private ToolRegistry mcpTools;

    /** Whether the current reply printed anything as it streamed (written on the generating thread). */
    private volatile boolean streamed;

    ChatCommand(Invocation invocation) {
        super(invocation);
    }

    @Override
    void prepare() {
        if (interactive && !prompt.isEmpty()) {
            throw new ParameterException(spec.commandLine(),
                    "--interactive reads the prompts from standard input: give no prompt argument");
        }
        if (sessionDirectory != null && session == null) {
            throw new ParameterException(spec.commandLine(), "--session-dir needs --session ID");
        }
        if ((toolChoice != null || !toolNames.isEmpty()) && mcpConfig == null) {
            throw new ParameterException(spec.commandLine(), (toolChoice != null ? "--tool-choice" : "--tools")
                    + " needs tools: give --mcp-config FILE");
        }
    }

    @Override
    ExecutionHints hints(ExecutionHints shared) {
        return toolChoice == null ? shared : shared.toBuilder().option("tool_choice", toolChoice.name()).build();
    }

    @Override
    void connect() {
        if (mcpConfig != null) {
            ToolRegistry.Builder tools = ToolRegistry.builder();
            Set<String> wanted = new LinkedHashSet<>(toolNames);
            Runnable disconnect = invocation.mcpTools().apply(mcpConfig, (definition, tool) -> {
                if (toolNames.isEmpty() || wanted.remove(definition.name())) {
                    tools.add(tool);
                }
            });
            own(disconnect::run);
            if (!wanted.isEmpty()) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "--tools names " + wanted
                        + ", which no server of " + mcpConfig + " offers").detail("tools", List.copyOf(wanted)).build();
            }
            mcpTools = tools.build();
        }
    }

    @Override
    boolean readsPromptItself() {
        return interactive;
    }

    @Override
    void configure(Orchestrator.Builder builder) {
        if (mcpTools != null) {
            builder.tools(mcpTools);
        }
        if (sessionDirectory != null) {
            // A store given to the orchestrator is not closed by it; the command closes it after the orchestrator.
            builder.conversationStore(own(FileConversationStore.builder().directory(sessionDirectory).build()));
        }
    }

    @Override
    int run(Orchestrator orchestrator, RequestTimelines timeline, ExecutionHints hints, String prompt) {
        if (!interactive) {
            return super.run(orchestrator, timeline, hints, prompt);
        }
        String id = session != null ? session : "cli-" + UUID.randomUUID();
        BufferedReader lines = new BufferedReader(new InputStreamReader(invocation.in(), StandardCharsets.UTF_8));
        int code = ExitCodes.SUCCESS;
        while (!invocation.cancellation().isCancelled()) {
            if (invocation.terminal()) {
                invocation.err().print("> ");
                invocation.err().flush();
            }
            String line = readLine(lines);
            if (line == null || line.strip().equals(EXIT)) {
                break;
            }
            if (line.isBlank()) {
                continue;
            }
            SystemRequest turn = SystemRequest.builder().sessionId(id).hints(hints).user(line.strip()).build();
            int turnCode = respond(orchestrator, turn, timeline);
            if (turnCode != ExitCodes.SUCCESS) {
                // A failed turn is reported and the conversation goes on; the run's exit code is the last failure's.
                code = turnCode;
            }
        }
        return code;
    }

    private static @Nullable String readLine(BufferedReader lines) {
        try {
            return lines.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read standard input", e);
        }
    }

    @Override
    void shape(SystemRequest.Builder req) {
        if (session != null) {
            req.sessionId(session);
        }
    }

    @Override
    StreamHandler stream() {
        streamed = false;
        return new StreamHandler() {
            @Override
            public void onContent(String delta) {
                if (!delta.isEmpty()) {
                    streamed = true;
                    invocation.out().print(delta);
                    invocation.out().flush();
                }
            }
        };
    }

    @Override
    void render(SystemResponse response) {
        if (streamed) {
            invocation.out().println();
        } else if (!response.content().isEmpty()) {
            invocation.out().println(response.content());
        }
    }

    @Override
    void renderPartial(SystemResponse response) {
        if (streamed) {
            invocation.out().println();
        }
    }
}
