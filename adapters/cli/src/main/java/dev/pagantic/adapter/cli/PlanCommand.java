package dev.pagantic.adapter.cli;

import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.StaticPlanner;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pagantic plan}: plan mode with a plan file ({@link StaticPlanner#fromJson}); prints each step's output and
 * then the final content.
 */
@Command(name = "plan",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Runs a plan file: {\"rationale\": \"...\", \"steps\": [{\"name\": \"outline\", \"type\": \"infer\", "
                    + "\"input\": \"...\"}, {\"name\": \"answer\", \"type\": \"infer\"}]}. A step without input takes "
                    + "the previous step's output, the first one the prompt. Prints each step's output as "
                    + "'[name] output', then the final content."
        },
        footer = ExitCodes.FOOTER)
final class PlanCommand extends ModelCommand {

    @Option(names = "--plan", paramLabel = "FILE.json", required = true, order = 1,
            description = "The plan file.")
    private Path plan;

    private StaticPlanner planner;

    PlanCommand(Invocation invocation) {
        super(invocation);
    }

    @Override
    void prepare() {
        planner = StaticPlanner.fromJson(Json.readFile(plan, "plan"));
    }

    @Override
    void configure(Orchestrator.Builder builder) {
        builder.planner(planner);
    }

    @Override
    void shape(SystemRequest.Builder req) {
        req.mode(Mode.PLAN);
    }

    @Override
    void render(SystemResponse response) {
        // Plan mode's structured output is each step's output as text, by step name, in the order the steps ran.
        if (response.structuredOutput().orElse(null) instanceof Map<?, ?> steps) {
            steps.forEach((name, output) -> invocation.out().println("[" + name + "] " + output));
            invocation.out().println();
        }
        invocation.out().println(response.content());
    }
}
