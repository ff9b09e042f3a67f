package dev.pagantic.adapter.cli;

import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code pagantic adversarial}, {@code judge-vote} and {@code refine}: the facade's multi-model modes on the selected
 * engine, which plays every part (planner and critic, voters and judge, writer and reviser). The command prints the
 * mode's answer (the refined plan, the selected response, the final refinement); {@code --json} prints the whole
 * response, whose structured output holds every phase.
 */
@Command(mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        footer = ExitCodes.FOOTER)
final class MultiModelCommand extends ModelCommand {

    /** The three modes, each a subcommand. */
    enum Kind {
        /** Plan, critique and refine. */
        ADVERSARIAL("adversarial", Mode.ADVERSARIAL,
                "Adversarial mode: a plan, a critique of it and a refined plan; prints the refined plan."),
        /** N voters and a judge. */
        JUDGE_VOTE("judge-vote", Mode.VOTE,
                "Judge vote: several answers to the prompt and a judge that selects one; prints the selected "
                        + "answer."),
        /** An answer improved by itself. */
        REFINE("refine", Mode.REFINE,
                "Refine: an answer, then rounds in which the model improves it; prints the final answer.");

        private final String command;
        private final Mode mode;
        private final String description;

        Kind(String command, Mode mode, String description) {
            this.command = command;
            this.mode = mode;
            this.description = description;
        }
    }

    private final Kind kind;

    MultiModelCommand(Invocation invocation, Kind kind) {
        super(invocation);
        this.kind = kind;
    }

    /** Names the subcommand after its kind: one class, three commands. */
    static CommandSpec spec(MultiModelCommand command) {
        CommandSpec spec = CommandSpec.forAnnotatedObject(command);
        spec.name(command.kind.command);
        spec.usageMessage().description(command.kind.description);
        return spec;
    }

    @Override
    void shape(SystemRequest.Builder req) {
        req.mode(kind.mode);
    }

    @Override
    void render(SystemResponse response) {
        invocation.out().println(response.content());
    }
}
