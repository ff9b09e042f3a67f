package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ExitCodesTest {

    @Test
    void everyFailureCategoryHasItsDocumentedExitCode() {
        Map<FailureCategory, Integer> documented = Map.of(
                FailureCategory.CONFIGURATION, 2,
                FailureCategory.INFERENCE, 3,
                FailureCategory.TOOL, 4,
                FailureCategory.CONSTRAINT, 5,
                FailureCategory.VALIDATION, 5,
                FailureCategory.ORCHESTRATION, 6,
                FailureCategory.CANCELLATION, 130);

        assertThat(documented).containsOnlyKeys(FailureCategory.values());
        documented.forEach((category, code) -> assertThat(ExitCodes.of(category)).as(category.name()).isEqualTo(code));
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void everyErrorCodeExitsWithItsCategorysCode(ErrorCode code) {
        assertThat(ExitCodes.of(code)).isEqualTo(ExitCodes.of(code.category()));
    }

    @Test
    void theHelpFooterListsEveryCode() {
        assertThat(ExitCodes.FOOTER).contains("0    success", "1    usage error", "2    ConfigurationFailure",
                "3    InferenceFailure", "4    ToolFailure", "5    ConstraintFailure or ValidationFailure",
                "6    OrchestrationFailure", "130  Cancellation");
    }

    @Test
    void anEngineErrorExitsWithTheInferenceCode() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "the GPU fell off")
                .build();

        Cli.Run run = Cli.runWithEngine(engine, "", "chat", "hello");

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.err()).isEqualTo("error: INFERENCE_ENGINE_ERROR (InferenceFailure): the GPU fell off"
                + System.lineSeparator());
    }

    @Test
    void aFailedResponseInJsonStillSetsTheExitCode() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down").build();

        Cli.Run run = Cli.runWithEngine(engine, "", "chat", "--json", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.INFERENCE);
        assertThat(run.out()).contains("\"error\":{").contains("INFERENCE_ENGINE_ERROR");
        assertThat(run.err()).contains("error: INFERENCE_ENGINE_ERROR");
    }

    @Test
    void aRequestPastItsTimeoutExitsWithTheCancellationCode() {
        SlowEngine slow = SlowEngine.builder()
                .delegate(ScriptedEngine.replying("one two three four five six seven eight nine ten"))
                .delayPerToken(Duration.ofMillis(100))
                .build();

        Cli.Run run = Cli.runWithEngine(slow, "", "chat", "--timeout", "0.2", "hello");

        assertThat(run.code()).isEqualTo(130);
        assertThat(run.err()).contains("error: CANCELLED_TIMEOUT (Cancellation): ");
        // What streamed before the deadline stays, with its line ended.
        assertThat(run.out()).startsWith("one").endsWith(System.lineSeparator());
    }

    @Test
    void ctrlCCancelsTheRequestInFlightWithTheCancellationCode() throws Exception {
        SlowEngine slow = SlowEngine.builder()
                .delegate(ScriptedEngine.replying("one two three four five six seven eight nine ten"))
                .delayPerToken(Duration.ofMillis(100))
                .build();
        Cancellation ctrlC = new Cancellation();

        CompletableFuture<Cli.Run> running = CompletableFuture.supplyAsync(() ->
                Cli.run((options, invocation) -> slow, "", ctrlC, "chat", "hello"));
        Thread.sleep(250);
        ctrlC.cancel("interrupted (Ctrl-C)");
        Cli.Run run = running.get(10, TimeUnit.SECONDS);

        assertThat(run.code()).isEqualTo(130);
        assertThat(run.err()).contains("error: CANCELLED_SIGNAL (Cancellation): ");
    }

    @Test
    void aNegativeTimeoutIsAConfigurationError() {
        Cli.Run run = Cli.run("chat", "--scripted", "x", "--timeout", "-1", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("--timeout must be a positive number of seconds");
    }

    @Test
    void aHintOutOfRangeIsAConfigurationError() {
        Cli.Run run = Cli.run("chat", "--scripted", "x", "--top-p", "1.5", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: CONFIG_INVALID (ConfigurationFailure): ").contains("topP");
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        Cli.Run run = Cli.run("chat", "--no-such-option", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("Unknown option: '--no-such-option'", "pagantic chat --help");
    }

    @Test
    void noCommandIsAUsageError() {
        Cli.Run run = Cli.run();

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("missing command");
    }
}
