package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.orchestrate.multimodel.AdversarialResult;
import dev.pagantic.orchestrate.multimodel.Directive;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.orchestrate.multimodel.MultiModel;
import dev.pagantic.orchestrate.multimodel.PhaseCall;
import dev.pagantic.orchestrate.multimodel.VoteResult;
import java.math.BigDecimal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seed 003's multi-model modes on the real model: two llama.cpp engines on stories260K (one runtime) as the catalogue.
 * The model writes children's stories, so only the structure is asserted: every phase ran, the judge's
 * grammar-constrained selection is in range, and usage and cost are the sums over the phases.
 */
class MultiModelRealModelTest {

    private static MultiModel modes;

    @BeforeAll
    static void loadTwoEngines() {
        LlamaRuntime runtime = LlamaRuntime.create();
        LlamaCppEngine small = LlamaCppEngine.builder().runtime(runtime).modelPath(Models.stories())
                .contextSize(2048).threads(2).build();
        LlamaCppEngine large = LlamaCppEngine.builder().runtime(runtime).modelPath(Models.stories())
                .contextSize(2048).threads(2).build();
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("small", small, 1, new BigDecimal("0.5"), new BigDecimal("1.5"))
                .add("large", large, 9, new BigDecimal("5"), new BigDecimal("15"))
                .build();
        // The runtime stays open, as in RealChainTest: the JVM's exit ends the native threads.
        modes = MultiModel.builder().catalogue(catalogue).maxTokens(12).build();
    }

    private static InferenceSettings settings() {
        return InferenceSettings.builder().temperature(0).build();
    }

    @Test
    void adversarialRunsPlanCritiqueAndRefineOnTheRealModel() {
        AdversarialResult result = modes.adversarial(CallContext.background(), "Once upon a time", Directive.NONE,
                settings());

        assertThat(result.calls()).extracting(PhaseCall::phase).containsExactly("plan", "critique", "refine");
        assertThat(result.calls()).extracting(PhaseCall::engine).containsExactly("small", "large", "small");
        assertThat(result.initialPlan()).isNotBlank();
        assertThat(result.critique()).isNotBlank();
        assertThat(result.refinedPlan()).isNotBlank();
        assertSums(result.usage(), result.cost(), result.calls());
        assertThat(result.usage().outputTokens()).isBetween(3, 36);
    }

    @Test
    void aJudgeVoteSelectsAnInRangeResponseThroughTheGrammar() {
        VoteResult result = modes.vote(CallContext.background(), "The little dog", Directive.NONE, settings());

        assertThat(result.responses()).extracting(VoteResult.Response::model).containsExactly("small", "large");
        assertThat(result.responses()).allMatch(VoteResult.Response::succeeded);
        assertThat(result.judge()).isEqualTo("large");
        assertThat(result.selected()).isBetween(0, 1);
        assertThat(result.responses()).filteredOn(VoteResult.Response::selected).hasSize(1);
        assertThat(result.calls()).extracting(PhaseCall::phase).containsExactly("vote", "vote", "judge");
        assertSums(result.usage(), result.cost(), result.calls());
    }

    private static void assertSums(TokenUsage usage, BigDecimal cost, java.util.List<PhaseCall> calls) {
        assertThat(usage.promptTokens()).isPositive()
                .isEqualTo(calls.stream().mapToInt(c -> c.usage().promptTokens()).sum());
        assertThat(usage.outputTokens()).isEqualTo(calls.stream().mapToInt(c -> c.usage().outputTokens()).sum());
        assertThat(cost).isPositive()
                .isEqualByComparingTo(calls.stream().map(PhaseCall::cost).reduce(BigDecimal.ZERO, BigDecimal::add));
    }
}
