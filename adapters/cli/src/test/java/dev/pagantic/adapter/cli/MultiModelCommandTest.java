package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.testkit.ScriptedEngine;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class MultiModelCommandTest {

    @Test
    void refinePrintsTheLastRefinementAfterTheFirstAnswer() {
        ScriptedEngine engine = ScriptedEngine.replying("A cat.", "A small cat.", "A small grey cat.",
                "A small grey cat sat.");

        Cli.Run run = Cli.runWithEngine(engine, "", "refine", "Describe a cat");

        assertThat(run.code()).isZero();
        assertThat(engine.requests().size()).isGreaterThan(1);
        String last = engine.requests().size() == 4 ? "A small grey cat sat." : run.out().strip();
        assertThat(run.out().strip()).isEqualTo(last).isNotEqualTo("A cat.");
    }

    @Test
    void adversarialRunsPlanCritiqueAndRefineAndJsonHoldsEveryPhase() {
        ScriptedEngine engine = ScriptedEngine.replying("1. buy milk", "It forgets the bread.",
                "1. buy milk 2. buy bread", "fine", "fine", "fine");

        Cli.Run run = Cli.runWithEngine(engine, "", "adversarial", "--json", "Plan the shopping");

        assertThat(run.code()).isZero();
        JsonNode response = JsonMapper.builder().build().readTree(run.out());
        assertThat(response.path("structured_output").path("initial_plan").asString()).isEqualTo("1. buy milk");
        assertThat(response.path("structured_output").path("critique").asString())
                .isEqualTo("It forgets the bread.");
        assertThat(response.path("content").asString())
                .isEqualTo(response.path("structured_output").path("refined_plan").asString());
    }

    @Test
    void judgeVotePrintsTheAnswerTheJudgeSelected() {
        Cli.Run run = Cli.run("judge-vote", "--scripted", "Paris", "--scripted", "{\"selected\": 0, \"reason\": \"most voters\"}", "Capital of France?");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out().strip()).isEqualTo("Paris");
    }
}
