package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCommandTest {

    static final String TWO_INFER_STEPS = "{\"rationale\": \"outline, then write\", \"steps\": ["
            + "{\"name\": \"outline\", \"type\": \"infer\"},"
            + "{\"name\": \"story\", \"type\": \"infer\"}]}";

    @Test
    void aPlanOfTwoInferStepsPrintsEachStepAndTheFinalContent(@TempDir Path dir) throws IOException {
        Path plan = Files.writeString(dir.resolve("plan.json"), TWO_INFER_STEPS);
        ScriptedEngine engine = ScriptedEngine.replying("A cat. A hat. The end.", "Once a cat found a hat.");

        Cli.Run run = Cli.runWithEngine(engine, "", "plan", "--plan", plan.toString(), "Write about a cat");

        assertThat(run.code()).isZero();
        String nl = System.lineSeparator();
        assertThat(run.out()).isEqualTo("[outline] A cat. A hat. The end." + nl + "[story] Once a cat found a hat."
                + nl + nl + "Once a cat found a hat." + nl);
        // The first step answers the prompt; the second takes the first one's output.
        assertThat(engine.requests().get(0).messages()).extracting(Message::content).contains("Write about a cat");
        assertThat(engine.requests().get(1).messages()).extracting(Message::content)
                .anySatisfy(content -> assertThat(content).contains("A cat. A hat. The end."));
    }

    @Test
    void scriptedRepliesServeThePlanStepsInOrder(@TempDir Path dir) throws IOException {
        Path plan = Files.writeString(dir.resolve("plan.json"), TWO_INFER_STEPS);

        Cli.Run run = Cli.run("--scripted", "first", "--scripted", "second", "plan", "--plan", plan.toString(), "go");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("[outline] first", "[story] second").endsWith("second"
                + System.lineSeparator());
    }

    @Test
    void maxTokensBoundsEveryInferenceStepOfThePlanAsItDoesInChat(@TempDir Path dir) throws IOException {
        Path plan = Files.writeString(dir.resolve("plan.json"), TWO_INFER_STEPS);
        ScriptedEngine engine = ScriptedEngine.replying("one two three four five six seven",
                "eight nine ten eleven twelve thirteen");

        Cli.Run run = Cli.runWithEngine(engine, "", "plan", "--plan", plan.toString(), "--max-tokens", "3", "go");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(engine.requests()).allSatisfy(request -> assertThat(request.settings().maxTokens()).isEqualTo(3));
        assertThat(run.out()).contains("[outline] one two three" + System.lineSeparator(),
                "[story] eight nine ten" + System.lineSeparator());
    }

    @Test
    void theVerboseTimelineIsInTimeOrderWithOneFinishReasonPerInference(@TempDir Path dir) throws IOException {
        Path plan = Files.writeString(dir.resolve("plan.json"), TWO_INFER_STEPS);

        Cli.Run run = Cli.run("--scripted", "first", "--scripted", "second", "plan", "--plan", plan.toString(), "-v",
                "go");

        assertThat(run.code()).as(run.err()).isZero();
        List<String> events = run.err().lines().filter(line -> line.contains(" ms  ")).toList();
        List<Long> offsets = events.stream().map(line -> Long.parseLong(line.strip().split(" ")[0])).toList();
        assertThat(offsets).isSorted();
        assertThat(events.stream().filter(line -> line.contains("finish_reason="))).hasSize(2);
        // each step's inference starts inside the step: plan_step start, inference start and end, then the step event
        assertThat(run.err()).containsSubsequence("inference/inference_start", "step_name=outline",
                "inference/inference_end", "inference/inference_start", "step_name=story", "inference/inference_end");
    }

    @Test
    void aMissingPlanFileIsAConfigurationError(@TempDir Path dir) {
        Cli.Run run = Cli.run("--scripted", "x", "plan", "--plan", dir.resolve("none.json").toString(), "go");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("cannot read the plan file");
    }

    @Test
    void anInvalidPlanIsAConfigurationError(@TempDir Path dir) throws IOException {
        Path plan = Files.writeString(dir.resolve("plan.json"), "{\"steps\": []}");

        Cli.Run run = Cli.run("--scripted", "x", "plan", "--plan", plan.toString(), "go");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).startsWith("error: CONFIG_INVALID (ConfigurationFailure): ").contains("steps");
    }

    @Test
    void planNeedsAPlanFile() {
        Cli.Run run = Cli.run("--scripted", "x", "plan", "go");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--plan");
    }
}
