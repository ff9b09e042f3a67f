package dev.pagantic.adapter.cli;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ValidationViolation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code pagantic extract}: structured mode. The model's output is repaired, normalised and validated against the JSON
 * Schema behind the facade; the command prints the validated JSON.
 */
@Command(name = "extract",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Structured output: prints the model's answer as JSON validated against the schema (repaired first "
                    + "unless --no-repair; exit code 5 when it does not conform, unless --lenient, and when the "
                    + "answer was cut off at the token limit)."
        },
        footer = ExitCodes.FOOTER)
final class ExtractCommand extends ModelCommand {

    @Mixin
    SchemaOptions schema = new SchemaOptions();

    private OutputContract contract;

    ExtractCommand(Invocation invocation) {
        super(invocation);
    }

    @Override
    void prepare() {
        contract = schema.contract();
    }

    @Override
    void shape(SystemRequest.Builder req) {
        req.mode(Mode.STRUCTURED).output(contract);
    }

    /**
     * An answer cut off at the token limit is no JSON of the schema, whatever {@code --lenient} says: the facade
     * reports it as a success with finish reason {@code LENGTH} and no structured output, and a script reading
     * standard output must not take the partial text for the answer.
     */
    @Override
    SystemResponse judge(SystemResponse response) {
        if (response.error().isPresent() || response.finishReason() != FinishReason.LENGTH
                || response.structuredOutput().isPresent()) {
            return response;
        }
        String message = "the answer was cut off at the token limit before its JSON was complete ("
                + response.tokenUsage().outputTokens() + " output tokens in all, retries included): raise "
                + "--max-tokens, or close the schema's objects (\"additionalProperties\": false) so that the model "
                + "cannot go on adding properties";
        return response.toBuilder().error(SystemError.of(ErrorCode.CONSTRAINT_JSON_INVALID, message))
                .finishReason(FinishReason.ERROR).build();
    }

    @Override
    void render(SystemResponse response) {
        invocation.out().println(response.structuredOutput().map(Json::pretty).orElse(response.content()));
        warnAboutViolations(response, invocation);
    }

    /** With --lenient, output may still violate the schema: say so on stderr. */
    static void warnAboutViolations(SystemResponse response, Invocation invocation) {
        response.validationResult().ifPresent(result -> {
            for (ValidationViolation violation : result.violations()) {
                invocation.err().println("warning: the output violates the schema: " + violation);
            }
        });
    }
}
