package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.multimodel.Directive;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MultiModelFacadeTest {

    private static Orchestrator orchestrator(EngineCatalogue catalogue) {
        return Orchestrator.builder().engine(ScriptedEngine.replying("unused")).catalogue(catalogue).build();
    }

    @Test
    void adversarialModeAnswersWithTheRefinedPlanAndTheWholeResult() {
        ScriptedEngine primary = ScriptedEngine.builder().reply(Result.of("draft", TokenUsage.of(3, 1)))
                .reply(Result.of("final", TokenUsage.of(5, 1))).build();
        ScriptedEngine critic = ScriptedEngine.builder().reply(Result.of("missing tests", TokenUsage.of(4, 2)))
                .build();
        EngineCatalogue catalogue = EngineCatalogue.builder().add("p", primary, 1).add("c", critic, 2).build();

        SystemResponse response = orchestrator(catalogue).execute(SystemRequest.builder().mode(Mode.ADVERSARIAL)
                .user("release plan").directive(Directive.builder().primary("p").review("c").build()).build());

        assertThat(response.error()).isEmpty();
        assertThat(response.content()).isEqualTo("final");
        assertThat(response.structuredOutput()).get().asInstanceOf(
                        org.assertj.core.api.InstanceOfAssertFactories.map(String.class, Object.class))
                .containsEntry("initial_plan", "draft").containsEntry("critique", "missing tests")
                .containsEntry("refined_plan", "final").containsEntry("reason", "adversarial-orchestration");
        assertThat(response.tokenUsage()).isEqualTo(TokenUsage.of(12, 4));
    }

    @Test
    void voteModeAnswersWithTheSelectedResponse() {
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("a", ScriptedEngine.replying("first"), 1).add("b", ScriptedEngine.replying("second"), 2)
                .add("judge", ScriptedEngine.replying("{\"selected\": 0, \"reason\": \"shorter\"}"), 9).build();

        SystemResponse response = orchestrator(catalogue).execute(SystemRequest.builder().mode(Mode.VOTE)
                .user("pick").directive(Directive.builder().voters("a", "b").build()).build());

        assertThat(response.error()).isEmpty();
        assertThat(response.content()).isEqualTo("first");
        assertThat(response.structuredOutput().orElseThrow().toString()).contains("vote-orchestration")
                .contains("judge");
    }

    @Test
    void refineModeRunsTheDirectivesIterations() {
        ScriptedEngine engine = ScriptedEngine.replying("v0", "v1", "v2", "v3");
        EngineCatalogue catalogue = EngineCatalogue.builder().add("m", engine, 1).build();

        SystemResponse response = orchestrator(catalogue).execute(SystemRequest.builder().mode(Mode.REFINE)
                .user("poem").directive(Directive.builder().iterations(3).build()).build());

        assertThat(response.content()).isEqualTo("v3");
        assertThat(engine.callCount()).isEqualTo(4);
        assertThat(engine.requests()).allSatisfy(r -> assertThat(r.messages().toString())
                .doesNotContain("iterations"));
    }

    @Test
    void withoutACatalogueTheMultiModelModesRunOnTheOrchestratorsOwnEngine() {
        ScriptedEngine engine = ScriptedEngine.replying("first", "better", "best");
        Orchestrator orchestrator = Orchestrator.builder().engine(engine).build();

        SystemResponse response = orchestrator.execute(SystemRequest.builder().mode(Mode.REFINE).user("q")
                .directive(Directive.builder().iterations(2).build()).build());

        assertThat(response.isSuccess()).as("%s", response.error()).isTrue();
        assertThat(response.content()).isEqualTo("best");
        assertThat(engine.callCount()).isEqualTo(3);
    }

    @Test
    void anUnknownEngineInTheDirectiveIsAConfigurationError() {
        EngineCatalogue catalogue = EngineCatalogue.builder().add("m", ScriptedEngine.replying("x"), 1).build();

        SystemResponse response = orchestrator(catalogue).execute(SystemRequest.builder().mode(Mode.REFINE)
                .user("q").directive(Directive.builder().primary("ghost").build()).build());

        assertThat(response.error()).get().extracting(SystemError::code).isEqualTo(ErrorCode.CONFIG_INVALID);
    }

    @Test
    void theDirectiveRoundTripsThroughTheWireFormat() {
        Directive directive = Directive.builder().iterations(2).primary("small").review("large")
                .voters("a", "b").minWeight(3).build();
        SystemRequest request = SystemRequest.builder().mode(Mode.VOTE).user("q").directive(directive).build();

        String json = FacadeJson.toJson(request);
        SystemRequest back = FacadeJson.requestFromJson(json);

        assertThat(json).contains("\"directive\"").contains("\"min_weight\":3");
        assertThat(back.directive()).isEqualTo(directive);
        assertThat(back.mode()).isEqualTo(Mode.VOTE);
        assertThat(FacadeJson.requestFromJson("{\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}")
                .directive()).isEqualTo(Directive.NONE);
    }

    @Test
    void aMalformedDirectiveIsAConfigurationError() {
        FacadeAssertions.assertConfigInvalid(() -> FacadeJson.requestFromJson(
                "{\"messages\":[],\"directive\":{\"iterations\":\"two\"}}"));
        FacadeAssertions.assertConfigInvalid(() -> FacadeJson.requestFromJson(
                "{\"messages\":[],\"directive\":{\"voters\":[\"a\",\"a\"]}}"));
        FacadeAssertions.assertConfigInvalid(() -> Directive.builder().iterations(-1).build());
        assertThat(Map.of()).isEmpty();
    }
}
