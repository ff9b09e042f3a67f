package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HelpTest {

    private static final String[] ENGINE_OPTIONS = {"--model", "--ctx-size", "--threads", "--gpu-layers",
        "--endpoint", "--model-name", "--scripted"};
    private static final String[] REQUEST_OPTIONS = {"--system", "--max-tokens", "--temperature", "--top-p",
        "--timeout", "--json", "--verbose"};
    private static final String[] SCHEMA_OPTIONS = {"--schema", "--schema-inline", "--grammar", "--no-repair",
        "--lenient"};

    @Test
    void theCommandsHelpListsTheCommandsTheEngineOptionsAndTheExitCodes() {
        Cli.Run run = Cli.run("--help");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("chat", "extract", "vote", "plan", "adversarial", "judge-vote", "refine")
                .contains(ENGINE_OPTIONS)
                .contains("Exit codes:", "130  Cancellation");
    }

    @Test
    void chatHelpMentionsItsOptions() {
        assertThat(help("chat")).contains("--session", "--session-dir", "--interactive", "PROMPT")
                .contains(ENGINE_OPTIONS).contains(REQUEST_OPTIONS);
    }

    @Test
    void extractHelpMentionsItsOptions() {
        assertThat(help("extract")).contains(SCHEMA_OPTIONS).contains(ENGINE_OPTIONS).contains(REQUEST_OPTIONS);
    }

    @Test
    void voteHelpMentionsItsOptions() {
        assertThat(help("vote")).contains("-n, --replicas", "default: 3").contains(SCHEMA_OPTIONS)
                .contains(ENGINE_OPTIONS).contains(REQUEST_OPTIONS);
    }

    @Test
    void planHelpMentionsItsOptions() {
        assertThat(help("plan")).contains("--plan=FILE.json", "\"steps\"").contains(ENGINE_OPTIONS)
                .contains(REQUEST_OPTIONS);
    }

    @Test
    void theMultiModelCommandsSayWhatTheyPrint() {
        assertThat(help("adversarial")).contains("critique", "refined plan").contains(ENGINE_OPTIONS);
        assertThat(help("judge-vote")).contains("judge", "selected").contains(REQUEST_OPTIONS);
        assertThat(help("refine")).contains("improves it").contains(ENGINE_OPTIONS);
    }

    @Test
    void withoutACommandTheUsageErrorNamesEveryCommand() {
        Cli.Run run = Cli.run("--scripted", "hi");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("missing command: one of chat, extract, vote, plan, adversarial, "
                + "judge-vote, refine");
    }

    @Test
    void everyCommandsHelpEndsWithTheExitCodes() {
        for (String command : new String[] {"chat", "extract", "vote", "plan", "adversarial", "judge-vote",
            "refine"}) {
            assertThat(help(command)).as(command).contains("Exit codes:", "error: CODE (Category): message");
        }
    }

    @Test
    void versionPrintsTheProjectVersion() {
        Cli.Run run = Cli.run("--version");

        assertThat(run.code()).isZero();
        assertThat(run.out()).startsWith("pagantic ").doesNotContain("unknown").doesNotContain("${");
    }

    private static String help(String command) {
        Cli.Run run = Cli.run(command, "--help");
        assertThat(run.code()).as(command + " --help").isZero();
        return run.out();
    }
}
