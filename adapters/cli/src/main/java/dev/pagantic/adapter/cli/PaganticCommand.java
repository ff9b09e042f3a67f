package dev.pagantic.adapter.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The {@code pagantic} command itself: the subcommands, and the engine options that may precede them. */
@Command(name = "pagantic",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Runs prompts through pagantic's orchestration facade: chat, structured extraction with a JSON Schema, "
                    + "redundant inference with voting, plans and the multi-model modes.",
            "",
            "The engine options (--model, --scripted, ...) may come before or after the command name."
        },
        footer = ExitCodes.FOOTER)
final class PaganticCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    EngineOptions engine = new EngineOptions();

    /** The engine options given before the subcommand name. */
    EngineOptions engine() {
        return engine;
    }

    /** Without a subcommand there is nothing to do: a usage error. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(),
                "missing command: one of " + String.join(", ", spec.subcommands().keySet()));
    }
}
