package dev.pagantic.examples.patterns;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Runs every seed 003 multi-model example program and checks what it prints. */
class MultiModelExamplesTest {

    private static List<String> run(Consumer<PrintStream> example) {
        return PatternExamplesTest.run(example);
    }

    @Test
    void adversarialExamplePlansCritiquesAndRefinesWithSummedUsageAndCost() {
        assertThat(run(AdversarialExample::run)).containsExactly(
                "initial plan: 1. Freeze writes. 2. Copy the data.",
                "critique (critic): No verification step and no user notice.",
                "refined plan: 1. Announce a window. 2. Freeze writes. 3. Copy and verify the data.",
                // planner: 130*0.10/1000 + 26*0.20/1000 = 0.0182; critic: 60*1/1000 + 8*3/1000 = 0.084
                "usage: 190 prompt, 34 output tokens; cost 0.10220",
                "reason: adversarial-orchestration");
    }

    @Test
    void judgeVoteExampleReportsTheFailedVoterAndTheJudgesChoice() {
        assertThat(run(JudgeVoteExample::run)).containsExactly(
                "voter fast: Use a cache.",
                "voter offline: failed INFERENCE_MODEL_UNAVAILABLE",
                "voter careful: Use a cache with a short TTL: staleness vs load. [selected]",
                "judge judge: it names the trade-off",
                "selected: 2 -> Use a cache with a short TTL: staleness vs load.",
                "judge grammar sent: true",
                "reason: vote-orchestration");
    }

    @Test
    void refineExampleKeepsTheBestSoFarWhenARoundFails() {
        assertThat(run(RefineExample::run)).containsExactly(
                "refined: Roses are red, violets are blue, sugar is sweet.",
                "iterations: 2 of 3",
                "stopped by: INFERENCE_ENGINE_ERROR",
                "calls: 3",
                "reason: refine-orchestration");
    }

    @Test
    void planningProfileExampleUsesTheEngineOfTheRequiredWeight() {
        assertThat(run(PlanningProfileExample::run)).containsExactly(
                "engine: planner",
                "plan: 1. Gather requirements. 2. Design. 3. Build. 4. Test.",
                "reason: planning-orchestration");
    }
}
