package dev.pagantic.examples.patterns;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Runs every seed 000 example program and checks what it prints. */
class PatternExamplesTest {

    /** The lines an example program prints. */
    static List<String> run(Consumer<PrintStream> example) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            example.accept(out);
        }
        return buffer.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void agentLoopExampleUsesToolsAndKeepsBothTurnsInHistoryWithoutTheContext() {
        List<String> lines = run(AgentLoopExample::run);

        assertThat(lines).contains("turn 1: Paris is 18 degrees and sunny.",
                "turn 2: London is cooler than Paris today.",
                "history: tool Weather for Paris: 18 degrees and sunny");
        assertThat(lines).filteredOn(l -> l.startsWith("history: ")).first()
                .isEqualTo("history: system You are a helpful assistant with access to tools.");
        assertThat(lines).filteredOn(l -> l.startsWith("history: ")).noneMatch(l -> l.contains("Interfaces in Go"));
        assertThat(lines).contains("events: [context, tool, context]");
    }

    @Test
    void chatStructuredExampleRepairsAndNormalisesTheAnswer() {
        List<String> lines = run(ChatStructuredExample::run);

        assertThat(lines).contains("model said: 1 answer(s), temperature 0.3");
        assertThat(lines).anyMatch(l -> l.startsWith("structured: ") && l.contains("\"positive\"")
                && l.endsWith("}"));
    }

    @Test
    void specializedLoopExampleReturnsTheStructuredResult() {
        assertThat(run(SpecializedLoopExample::run)).containsExactly("result: {\"sentiment\":\"positive\"}");
    }

    @Test
    void specializedLoopWithToolsExampleRunsBothPhases() {
        assertThat(run(SpecializedLoopWithToolsExample::run)).containsExactly(
                "phase 1 tool: search -> Weather for quantum computing: 18 degrees and sunny",
                "phase 2 prompt: Produce your structured output now.",
                "result: {\"summary\":\"Error correction crossed the break-even point.\",\"sources\":[\"search\"]}");
    }

    @Test
    void ragPlanExampleChainsRetrieveRerankAndInfer() {
        assertThat(run(RagPlanExample::run)).containsExactly("retrieved: 1 message(s)", "reranked: 1 candidate(s)",
                "answer: Go interfaces are satisfied implicitly.");
    }

    @Test
    void planWithValidationExampleKeepsThePartialResultsOfTheFailedValidation() {
        List<String> lines = run(PlanWithValidationExample::run);

        assertThat(lines).contains("completed steps: 2", "failed step: validate");
        assertThat(lines).anyMatch(l -> l.startsWith("error: VALIDATION_RULE_FAILED") && l.contains("too short"));
    }

    @Test
    void customHandlerExampleRunsTheCustomStepType() {
        assertThat(run(CustomHandlerExample::run)).containsExactly(
                "summary: Go interfaces are satisfied implicitly, ...",
                "answer: A short take on the summary.");
    }

    @Test
    void redundantLoopExamplePrintsWinnerConfidenceAndCandidates() {
        List<String> lines = run(RedundantLoopExample::run);

        assertThat(lines).contains("Winner: {\"sentiment\":\"positive\"}", "Confidence: 67%");
        assertThat(lines).anyMatch(l -> l.startsWith("Candidates: [") && l.contains("neutral"));
    }

    @Test
    void composingPatternsExampleFeedsTheResearchIntoTheRedundantClassifier() {
        assertThat(run(ComposingPatternsExample::run)).containsExactly(
                "research: Q4 demand grew strongly across every region.",
                "classification: {\"sentiment\":\"positive\"}");
    }

    @Test
    void facadeExampleShowsEachModesResponseAndAFailureAsAValue() {
        List<String> lines = run(FacadeExample::run);

        assertThat(lines).contains("chat: Paris is 18 degrees and sunny. (tools: 1)", "chat: London is cooler.",
                "structured: {sentiment=positive} repaired=true",
                "redundant: {\"sentiment\":\"positive\"} confidence=0.6666666666666666 source=voting",
                "error: CONFIG_SCHEMA_REQUIRED retryable=false");
        assertThat(lines).anyMatch(l -> l.matches("events of the first request: \\d+")
                && Integer.parseInt(l.replaceAll("\\D", "")) >= 10);
    }
}
