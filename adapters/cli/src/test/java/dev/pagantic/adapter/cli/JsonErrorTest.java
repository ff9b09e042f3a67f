package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JsonErrorTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aCommandThatFailsBeforeAnyResponsePrintsAnErrorObjectWithJson() {
        Cli.Run run = Cli.run("chat", "--json", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        JsonNode error = JSON.readTree(run.out());
        assertThat(error.path("error").path("code").asString()).isEqualTo("CONFIG_NO_ENGINE");
        assertThat(error.path("error").path("category").asString()).isEqualTo("ConfigurationFailure");
        assertThat(error.path("error").path("message").asString()).contains("--model");
        assertThat(error.path("exit_code").asInt()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: CONFIG_NO_ENGINE");
    }

    @Test
    void aUsageErrorPrintsAnErrorObjectWithJson() {
        Cli.Run run = Cli.run("extract", "--json", "--scripted", "{}", "--no-such-option", "hi");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        JsonNode error = JSON.readTree(run.out());
        assertThat(error.path("error").path("code").asString()).isEqualTo("USAGE");
        assertThat(error.path("error").path("message").asString()).contains("--no-such-option");
        assertThat(error.path("exit_code").asInt()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aFailedResponsePrintsTheResponseWithItsErrorAsOneJsonDocument() {
        Cli.Run run = Cli.run("extract", "--json", "--scripted", "not json at all", "--no-repair",
                "--schema-inline", "{\"type\":\"object\"}", "hi");

        assertThat(run.code()).isEqualTo(ExitCodes.CONSTRAINT);
        JsonNode response = JSON.readTree(run.out());
        assertThat(response.path("error").path("category").asString()).isEqualTo("ConstraintFailure");
        assertThat(run.out()).doesNotContain("\u001b[");
    }

    @Test
    void withoutJsonAnEarlyFailurePrintsNothingOnStdout() {
        Cli.Run run = Cli.run("chat", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.out()).isEmpty();
    }
}
