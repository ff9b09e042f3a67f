package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.testkit.ScriptedEngine;
import org.junit.jupiter.api.Test;

class VoteCommandTest {

    static final String SENTIMENT = "{\"type\":\"object\",\"properties\":{\"sentiment\":{\"type\":\"string\","
            + "\"enum\":[\"positive\",\"negative\"]}},\"required\":[\"sentiment\"]}";
    static final String POSITIVE = "{\"sentiment\": \"positive\"}";
    static final String NEGATIVE = "{\"sentiment\": \"negative\"}";

    @Test
    void threeReplicasVoteAndTheWinnerIsPrintedWithItsConfidence() {
        Cli.Run run = Cli.run("vote", "-n", "3", "--scripted", POSITIVE, "--scripted", NEGATIVE, "--scripted",
                POSITIVE, "--schema-inline", SENTIMENT, "I love this product!");

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("{" + System.lineSeparator() + "  \"sentiment\" : \"positive\""
                + System.lineSeparator() + "}" + System.lineSeparator() + "confidence: 0.67 (voting)"
                + System.lineSeparator());
    }

    @Test
    void theNumberOfReplicasIsTheNumberOfModelCalls() {
        ScriptedEngine engine = ScriptedEngine.replying(POSITIVE, POSITIVE, POSITIVE, POSITIVE, NEGATIVE);

        Cli.Run run = Cli.runWithEngine(engine, "", "vote", "--replicas", "5", "--schema-inline", SENTIMENT, "hi");

        assertThat(run.code()).isZero();
        assertThat(engine.requests()).hasSize(5);
        assertThat(run.out()).contains("confidence: 0.80 (voting)");
    }

    @Test
    void jsonCarriesTheConfidenceAndItsSource() {
        Cli.Run run = Cli.run("vote", "--json", "--scripted", POSITIVE, "--scripted", POSITIVE, "--scripted",
                POSITIVE, "--schema-inline", SENTIMENT, "hi");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("\"confidence\":1.0").contains("\"confidence_source\":\"voting\"");
    }

    @Test
    void aNonPositiveReplicaCountIsAConfigurationError() {
        Cli.Run run = Cli.run("vote", "-n", "0", "--scripted", POSITIVE, "--schema-inline", SENTIMENT, "hi");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("replicas must be positive");
    }

    @Test
    void voteNeedsASchema() {
        Cli.Run run = Cli.run("vote", "--scripted", POSITIVE, "hi");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void threeDifferentAnswersAreNoConsensusAndExitWithTheOrchestrationCode() {
        Cli.Run run = Cli.run("vote", "--scripted", POSITIVE, "--scripted", NEGATIVE, "--scripted", NEUTRAL,
                "--schema-inline", SENTIMENT_WITH_NEUTRAL, "hi");

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.ORCHESTRATION).isEqualTo(6);
        assertThat(run.err()).contains("error: ORCHESTRATION_NO_CONSENSUS (OrchestrationFailure): no consensus: the "
                + "winner has 0.33 of the votes, the quorum is 0.51");
    }

    @Test
    void aQuorumOfOneDemandsUnanimityAndJsonCarriesTheError() {
        Cli.Run run = Cli.run("vote", "--quorum", "1", "--json", "--scripted", POSITIVE, "--scripted", POSITIVE,
                "--scripted", NEGATIVE, "--schema-inline", SENTIMENT, "hi");

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.ORCHESTRATION);
        assertThat(run.out()).contains("\"code\":\"ORCHESTRATION_NO_CONSENSUS\"").contains("\"confidence\":0.6");
    }

    @Test
    void aQuorumOutsideZeroToOneIsAConfigurationError() {
        Cli.Run run = Cli.run("vote", "--quorum", "1.5", "--scripted", POSITIVE, "--schema-inline", SENTIMENT, "hi");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(run.err()).contains("--quorum must be in (0, 1]");
    }

    static final String NEUTRAL = "{\"sentiment\": \"neutral\"}";
    static final String SENTIMENT_WITH_NEUTRAL = SENTIMENT.replace("\"negative\"]", "\"negative\",\"neutral\"]");
}
