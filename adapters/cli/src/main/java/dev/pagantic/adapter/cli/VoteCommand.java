package dev.pagantic.adapter.cli;

import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code pagantic vote}: redundant mode. The prompt runs {@code -n} times with the schema; the structured outputs vote
 * and the command prints the winner and the confidence (the winner's share of the votes).
 */
@Command(name = "vote",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Redundant inference: runs the prompt N times with the schema, lets the structured outputs vote, and "
                    + "prints the winner and the confidence (its share of the votes; exit code 6 without consensus)."
        },
        footer = ExitCodes.FOOTER)
final class VoteCommand extends ModelCommand {

    @Option(names = {"-n", "--replicas"}, paramLabel = "N", defaultValue = "3", order = 1,
            description = "How many times the prompt runs (default: ${DEFAULT-VALUE}).")
    private int replicas;

    @Mixin
    SchemaOptions schema = new SchemaOptions();

    private OutputContract contract;

    VoteCommand(Invocation invocation) {
        super(invocation);
    }

    @Override
    void prepare() {
        contract = schema.contract();
    }

    @Override
    void configure(Orchestrator.Builder builder) {
        builder.replicas(replicas);
    }

    @Override
    void shape(SystemRequest.Builder req) {
        req.mode(Mode.REDUNDANT).output(contract);
    }

    @Override
    void render(SystemResponse response) {
        invocation.out().println(response.structuredOutput().map(Json::pretty).orElse(response.content()));
        if (response.confidence().isPresent()) {
            String source = response.confidenceSource().map(s -> " (" + s.wireName() + ")").orElse("");
            invocation.out().println(String.format(Locale.ROOT, "confidence: %.2f%s",
                    response.confidence().getAsDouble(), source));
        }
        ExtractCommand.warnAboutViolations(response, invocation);
    }
}
