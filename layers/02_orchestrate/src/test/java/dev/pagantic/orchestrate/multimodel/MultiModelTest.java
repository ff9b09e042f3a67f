package dev.pagantic.orchestrate.multimodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.constraint.ConstraintPipeline;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.testkit.FailingEngine;
import dev.pagantic.testkit.ScriptedEngine;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class MultiModelTest {

    private static final CallContext CTX = CallContext.background();

    private static ScriptedEngine.Builder scripted() {
        return ScriptedEngine.builder();
    }

    private static Result result(String content, int prompt, int output) {
        return Result.of(content, TokenUsage.of(prompt, output));
    }

    private static MultiModel modes(EngineCatalogue catalogue) {
        return MultiModel.builder().catalogue(catalogue).build();
    }

    @Test
    void adversarialPlansCritiquesWithTheReviewEngineAndRefines() {
        ScriptedEngine small = scripted().reply(result("plan one", 10, 2)).reply(result("plan two", 20, 2)).build();
        ScriptedEngine large = scripted().reply(result("too vague", 30, 2)).build();
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("small", small, 1, new BigDecimal("1.0"), new BigDecimal("2.0"))
                .add("large", large, 9, new BigDecimal("10.0"), new BigDecimal("20.0"))
                .build();

        AdversarialResult result = modes(catalogue).adversarial(CTX, "ship the release", Directive.NONE);

        assertThat(result.initialPlan()).isEqualTo("plan one");
        assertThat(result.critique()).isEqualTo("too vague");
        assertThat(result.refinedPlan()).isEqualTo("plan two");
        assertThat(result.primary()).isEqualTo("small");
        assertThat(result.review()).as("the judge defaults to the highest weight").isEqualTo("large");
        assertThat(result.calls()).extracting(PhaseCall::phase).containsExactly("plan", "critique", "refine");
        assertThat(small.requests().get(0).messages().get(0).content()).contains("Create a detailed plan")
                .contains("ship the release");
        assertThat(large.requests().get(0).messages().get(0).content()).contains("Critique this plan")
                .contains("plan one");
        assertThat(small.requests().get(1).messages().get(0).content()).contains("Refine the plan")
                .contains("too vague");
        assertThat(result.usage().promptTokens()).isEqualTo(60);
        assertThat(result.usage().outputTokens()).isEqualTo(6);
        // small: (10+20)*1.0/1000 + 4*2.0/1000 = 0.038; large: 30*10/1000 + 2*20/1000 = 0.34
        assertThat(result.cost()).isEqualByComparingTo("0.378");
        assertThat(result.reason()).isEqualTo("adversarial-orchestration");
        assertThat(result.toMap()).containsKeys("initial_plan", "critique", "refined_plan");
    }

    @Test
    void adversarialRepeatsCritiqueAndRefineForEachIterationWithEnginesChosenById() {
        ScriptedEngine a = ScriptedEngine.replying("critique 1", "critique 2");
        ScriptedEngine b = ScriptedEngine.replying("p0", "p1", "p2");
        EngineCatalogue catalogue = EngineCatalogue.builder().add("a", a, 9).add("b", b, 1).build();

        AdversarialResult result = modes(catalogue).adversarial(CTX, "task",
                Directive.builder().iterations(2).primary("b").review("a").build());

        assertThat(result.calls()).extracting(PhaseCall::phase)
                .containsExactly("plan", "critique", "refine", "critique", "refine");
        assertThat(result.calls()).extracting(PhaseCall::engine).containsExactly("b", "a", "b", "a", "b");
        assertThat(result.critique()).isEqualTo("critique 2");
        assertThat(result.refinedPlan()).isEqualTo("p2");
        assertThat(a.requests().get(1).messages().get(0).content()).contains("p1");
        assertThat(result.iterations()).isEqualTo(2);
    }

    @Test
    void everyEngineCallPassesThroughTheInterceptorNamedByItsCatalogueId() {
        ScriptedEngine small = ScriptedEngine.replying("plan", "better plan");
        ScriptedEngine large = ScriptedEngine.replying("critique");
        EngineCatalogue catalogue = EngineCatalogue.builder().add("small", small, 1).add("large", large, 9).build();
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.pagantic.orchestrate.spi.Interceptor recording = new dev.pagantic.orchestrate.spi.Interceptor() {
            @Override
            public <T> T intercept(dev.pagantic.orchestrate.spi.Invocation<T> invocation) {
                seen.add(invocation.kind() + " " + invocation.name());
                return invocation.proceed();
            }
        };

        MultiModel.builder().catalogue(catalogue).interceptor(recording).build()
                .adversarial(CTX, "task", Directive.NONE);

        assertThat(seen).containsExactly("INFERENCE small", "INFERENCE large", "INFERENCE small");
    }

    @Test
    void selectionByWeightHonoursTheFloorAndSkipsUnhealthyEngines() {
        Engine e = ScriptedEngine.replying("x");
        EngineCatalogue catalogue = EngineCatalogue.builder().add("low", e, 1).add("mid", e, 5)
                .add(new EngineEntry("top", e, 10, BigDecimal.ZERO, BigDecimal.ZERO, false)).add("high", e, 8)
                .build();

        assertThat(catalogue.primary(java.util.Optional.empty(), 4).id()).isEqualTo("mid");
        assertThat(catalogue.review(java.util.Optional.empty(), 0).id()).isEqualTo("high");
        assertThat(catalogue.voters(List.of(), 5, 3)).extracting(EngineEntry::id).containsExactly("mid", "high");
        assertCode(() -> catalogue.require("top"), ErrorCode.CONFIG_INVALID);
        assertCode(() -> catalogue.require("nope"), ErrorCode.CONFIG_INVALID);
        assertCode(() -> catalogue.primary(java.util.Optional.empty(), 11), ErrorCode.CONFIG_INVALID);
        assertCode(() -> catalogue.voters(List.of("low", "low"), 0, 3), ErrorCode.CONFIG_INVALID);
    }

    @Test
    void theCatalogueBuilderRefusesEmptyCataloguesDuplicateIdsAndBadEntries() {
        Engine e = ScriptedEngine.replying("x");
        assertCode(() -> EngineCatalogue.builder().build(), ErrorCode.CONFIG_INVALID);
        assertCode(() -> EngineCatalogue.builder().add("a", e, 1).add("a", e, 2).build(), ErrorCode.CONFIG_INVALID);
        assertCode(() -> EngineEntry.of("a", e, -1), ErrorCode.CONFIG_INVALID);
        assertCode(() -> EngineEntry.of(" ", e, 1), ErrorCode.CONFIG_INVALID);
        assertCode(() -> new EngineEntry("a", e, 1, new BigDecimal("-1"), BigDecimal.ZERO, true),
                ErrorCode.CONFIG_INVALID);
        assertCode(() -> MultiModel.builder().build(), ErrorCode.CONFIG_INVALID);
    }

    @Test
    void voteAsksEveryVoterThenTheJudgeWhoseJsonValidatesAndSelectsInRange() {
        ScriptedEngine v1 = scripted().reply(result("answer one", 5, 1)).build();
        ScriptedEngine v2 = scripted().reply(result("answer two", 6, 2)).build();
        ScriptedEngine judge = scripted().capabilities(Capability.GRAMMAR, Capability.SCHEMA)
                .reply(result("{\"selected\": 1, \"reason\": \"clearer\"}", 40, 8)).build();
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("v1", v1, 1, BigDecimal.ONE, BigDecimal.ONE).add("v2", v2, 2, BigDecimal.ONE, BigDecimal.ONE)
                .add("judge", judge, 9, BigDecimal.ONE, BigDecimal.ONE).build();

        VoteResult result = modes(catalogue).vote(CTX, "which?",
                Directive.builder().voters("v1", "v2").build(),
                InferenceSettings.builder().maxTokens(8).build());

        assertThat(result.responses()).extracting(VoteResult.Response::model).containsExactly("v1", "v2");
        assertThat(result.responses()).extracting(VoteResult.Response::selected).containsExactly(false, true);
        assertThat(result.selected()).isEqualTo(1);
        assertThat(result.content()).isEqualTo("answer two");
        assertThat(result.judge()).isEqualTo("judge");
        assertThat(result.judgeReason()).isEqualTo("clearer");
        Request judged = judge.lastRequest().orElseThrow();
        assertThat(judged.schema()).contains(MultiModel.JUDGE_SCHEMA);
        assertThat(judged.hasGrammar()).isTrue();
        assertThat(judged.settings().maxTokens()).as("a small budget never cuts the judge's JSON")
                .isGreaterThanOrEqualTo(MultiModel.JUDGE_MIN_TOKENS);
        GbnfGrammar grammar = judged.grammar().orElseThrow();
        assertThat(grammar.accepts("{\"selected\": 1, \"reason\": \"ok\"}")).isTrue();
        assertThat(grammar.accepts("{\"selected\": 2, \"reason\": \"ok\"}"))
                .as("the grammar narrows selected to the responses' indices").isFalse();
        assertThat(judged.messages().get(0).content()).contains("Response 0:\nanswer one")
                .contains("Response 1:\nanswer two");
        assertThat(result.usage()).isEqualTo(TokenUsage.of(51, 11));
        assertThat(result.cost()).isEqualByComparingTo("0.062");
        assertThat(result.reason()).isEqualTo("vote-orchestration");
        assertThat(ConstraintPipeline.builder().schema(MultiModel.JUDGE_SCHEMA).strict(true).build()
                .process("{\"selected\": 0, \"reason\": \"r\"}").valid()).isTrue();
    }

    @Test
    void aJudgeSelectionOutOfRangeIsASchemaFailure() {
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("v", ScriptedEngine.replying("only answer"), 1)
                .add("judge", ScriptedEngine.replying("{\"selected\": 3, \"reason\": \"x\"}"), 9).build();

        assertCode(() -> modes(catalogue).vote(CTX, "q", Directive.builder().voters("v").build()),
                ErrorCode.CONSTRAINT_SCHEMA_INVALID);
    }

    @Test
    void aJudgeAnswerThatIsNotTheSchemasJsonFails() {
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("v", ScriptedEngine.replying("only answer"), 1)
                .add("judge", ScriptedEngine.replying("the first one"), 9).build();

        assertThatThrownBy(() -> modes(catalogue).vote(CTX, "q", Directive.builder().voters("v").build()))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code().name()).startsWith("CONSTRAINT_"));
    }

    @Test
    void failedVotersAreReportedAndTheJudgeIndexesTheSuccessfulOnes() {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            ScriptedEngine judge = ScriptedEngine.replying("{\"selected\": 1, \"reason\": \"better\"}");
            EngineCatalogue catalogue = EngineCatalogue.builder()
                    .add("a", ScriptedEngine.replying("alpha"), 1)
                    .add("broken", FailingEngine.builder().failAlways().code(ErrorCode.INFERENCE_MODEL_UNAVAILABLE)
                            .build(), 2)
                    .add("c", ScriptedEngine.replying("gamma"), 3)
                    .add("judge", judge, 9).build();
            MultiModel modes = MultiModel.builder().catalogue(catalogue).executor(pool).build();

            VoteResult result = modes.vote(CTX, "q", Directive.builder().voters("a", "broken", "c").build());

            assertThat(result.responses()).hasSize(3);
            assertThat(result.responses().get(1).failure()).get()
                    .extracting(PaganticException::code).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
            assertThat(result.selected()).as("judge's 1 is the second successful response, c").isEqualTo(2);
            assertThat(result.content()).isEqualTo("gamma");
            assertThat(judge.lastRequest().orElseThrow().messages().get(0).content())
                    .contains("Response 1:\ngamma").doesNotContain("Response 2");
            assertThat(result.toMap().get("responses").toString()).contains("INFERENCE_MODEL_UNAVAILABLE");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void whenEveryVoterFailsTheVoteFails() {
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("broken", FailingEngine.builder().failAlways().build(), 1)
                .add("judge", ScriptedEngine.replying("{}"), 9).build();

        assertCode(() -> modes(catalogue).vote(CTX, "q", Directive.builder().voters("broken").build()),
                ErrorCode.INFERENCE_ENGINE_ERROR);
    }

    @Test
    void refineImprovesTwiceByDefaultAndSumsUsage() {
        ScriptedEngine engine = scripted().reply(result("v0", 1, 1)).reply(result("v1", 2, 1))
                .reply(result("v2", 3, 1)).build();
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("m", engine, 1, new BigDecimal("1000"), BigDecimal.ZERO).build();

        RefineResult result = modes(catalogue).refine(CTX, "write", Directive.NONE);

        assertThat(result.refinedResponse()).isEqualTo("v2");
        assertThat(result.iterations()).isEqualTo(2);
        assertThat(result.failure()).isEmpty();
        assertThat(engine.requests().get(0).messages().get(0).content()).isEqualTo("write");
        assertThat(engine.requests().get(2).messages().get(0).content()).contains("Review and improve")
                .contains("v1");
        assertThat(result.usage()).isEqualTo(TokenUsage.of(6, 3));
        assertThat(result.cost()).isEqualByComparingTo("6");
        assertThat(result.reason()).isEqualTo("refine-orchestration");
    }

    @Test
    void aFailedRefineRoundKeepsTheBestSoFarAndReportsTheRoundsDone() {
        ScriptedEngine engine = scripted().reply("v0").reply("v1").fail(ErrorCode.INFERENCE_ENGINE_ERROR, "down")
                .build();
        EngineCatalogue catalogue = EngineCatalogue.builder().add("m", engine, 1).build();

        RefineResult result = modes(catalogue).refine(CTX, "write", Directive.builder().iterations(3).build());

        assertThat(result.refinedResponse()).isEqualTo("v1");
        assertThat(result.iterations()).isEqualTo(1);
        assertThat(result.requested()).isEqualTo(3);
        assertThat(result.failure()).get().extracting(PaganticException::code)
                .isEqualTo(ErrorCode.INFERENCE_ENGINE_ERROR);
        assertThat(result.toMap()).containsEntry("iterations", 1).containsKey("stopped_by");
    }

    @Test
    void planningIsOneCallOnThePlanningEngine() {
        ScriptedEngine planner = ScriptedEngine.replying("the plan");
        EngineCatalogue catalogue = EngineCatalogue.builder().add("chat", ScriptedEngine.replying("no"), 1)
                .add("planner", planner, 7).build();

        PlanningResult result = modes(catalogue).planning(CTX, "plan it", Directive.builder().minWeight(5).build());

        assertThat(result.content()).isEqualTo("the plan");
        assertThat(result.call().engine()).isEqualTo("planner");
        assertThat(planner.callCount()).isEqualTo(1);
    }

    private static void assertCode(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(code));
    }
}
