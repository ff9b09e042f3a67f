package dev.pagantic.adapter.cli;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.util.Locale;
import java.util.OptionalDouble;
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
                    + "prints the winner and the confidence (its share of the votes). A winner below --quorum is no "
                    + "consensus: exit code 6."
        },
        footer = ExitCodes.FOOTER)
final class VoteCommand extends ModelCommand {

    @Option(names = {"-n", "--replicas"}, paramLabel = "N", defaultValue = "3", order = 1,
            description = "How many times the prompt runs (default: ${DEFAULT-VALUE}).")
    private int replicas;

    @Option(names = "--quorum", paramLabel = "SHARE", order = 2,
            description = "The least share of the votes the winner needs, in (0, 1]; below it the command fails "
                    + "with ORCHESTRATION_NO_CONSENSUS and exit code 6 (default: ${DEFAULT-VALUE}, a strict "
                    + "majority).", defaultValue = "0.51")
    private double quorum;

    @Mixin
    SchemaOptions schema = new SchemaOptions();

    private OutputContract contract;

    VoteCommand(Invocation invocation) {
        super(invocation);
    }

    @Override
    void prepare() {
        if (!(quorum > 0 && quorum <= 1)) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "--quorum must be in (0, 1]: " + quorum);
        }
        contract = schema.contract();
    }

    /** A vote whose winner has less than the quorum is no consensus: the response becomes that failure. */
    @Override
    SystemResponse judge(SystemResponse response) {
        OptionalDouble confidence = response.confidence();
        if (response.error().isPresent() || confidence.isEmpty() || confidence.getAsDouble() >= quorum) {
            return response;
        }
        String message = String.format(Locale.ROOT, "no consensus: the winner has %.2f of the votes, the quorum is "
                + "%.2f", confidence.getAsDouble(), quorum);
        return response.toBuilder()
                .error(SystemError.of(ErrorCode.ORCHESTRATION_NO_CONSENSUS, message))
                .finishReason(FinishReason.ERROR)
                .build();
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
