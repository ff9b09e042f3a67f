package dev.pagantic.distribution;

import dev.pagantic.adapter.api.ApiServerMain;
import dev.pagantic.adapter.cli.PaganticCli;
import dev.pagantic.adapter.mcp.server.McpServerCommand;
import dev.pagantic.adapter.tui.TuiMain;
import java.util.List;
import picocli.CommandLine;

/**
 * The {@code pagantic} command of the distribution ({@code bin/pagantic}): the command line's commands ({@code chat},
 * {@code extract}, {@code vote}, {@code plan}, {@code adversarial}, {@code judge-vote}, {@code refine}) plus the
 * programs of the other adapters, which only this module may put together: {@code tui} (the terminal chat),
 * {@code serve} (the HTTP server) and {@code mcp} (the MCP server). It also hands the MCP client to {@code chat},
 * {@code tui} and {@code serve} for their {@code --mcp-config} ({@link McpConfigTools}).
 */
public final class Pagantic {

    private Pagantic() {
    }

    /** Runs the command and exits with its exit code. */
    public static void main(String[] args) {
        PaganticCli.main(args, subcommands(), McpConfigTools::open);
    }

    /** The commands this module adds to the command line's. */
    static List<Object> subcommands() {
        CommandLine tui = ProgramCommand.of("tui", List.of(
                "A chat in the terminal: replies stream as they are generated, tool calls and their results show as "
                        + "they happen, Ctrl-C cancels a reply, /help lists the chat's commands.",
                "Its options: pagantic tui --help."),
                args -> TuiMain.run(args.toArray(String[]::new), System.out, System.err, McpConfigTools::open));
        CommandLine serve = ProgramCommand.of("serve", List.of(
                "Serves a model over HTTP until Ctrl-C: OpenAI-compatible /v1/chat/completions, the native "
                        + "/v1/requests, /v1/models, /health and the playground page at /.",
                "Its options: pagantic serve --help."),
                args -> ApiServerMain.serve(args, System.out, System.err, McpConfigTools::open));
        return List.of(tui, serve, new McpServerCommand());
    }
}
