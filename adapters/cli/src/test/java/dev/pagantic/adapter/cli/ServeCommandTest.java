package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServeCommandTest {

    @Test
    void serveSaysTheServerIsTheApiModulesProgramAndExitsWithTheConfigurationCode() {
        Cli.Run run = Cli.run("serve");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("error: CONFIG_INVALID (ConfigurationFailure): ")
                .contains("dev.pagantic.adapter.api.ApiServerMain");
    }

    @Test
    void serverOptionsGetTheSameAnswerRatherThanAUsageError() {
        Cli.Run run = Cli.run("serve", "--port", "8080");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("dev.pagantic.adapter.api.ApiServerMain");
    }
}
