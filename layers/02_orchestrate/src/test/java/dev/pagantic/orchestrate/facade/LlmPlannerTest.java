package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.grammar.GbnfGrammar;
import dev.pagantic.orchestrate.internal.StructuredOutput;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanPolicy;
import dev.pagantic.orchestrate.plan.PlanTrace;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.testkit.ScriptedEngine;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LlmPlannerTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final CallContext CTX = CallContext.builder().clock(InstantSource.fixed(NOW)).build();
    private static final List<StepType> REGISTERED = List.of(StepType.RETRIEVE, StepType.RERANK, StepType.INFER);
    private static final SystemRequest REQUEST = SystemRequest.builder()
            .mode(Mode.PLAN)
            .system("Answer as a Go expert.")
            .user("Hello")
            .user("How do Go interfaces work?")
            .build();

    private static final String RAG_PLAN = "{\"rationale\": \"look it up, keep the best, then answer\", \"steps\": ["
            + "{\"name\": \"retrieve\", \"type\": \"retrieve\", \"input\": \"go interfaces\"},"
            + "{\"name\": \"rerank\", \"type\": \"rerank\"},"
            + "{\"name\": \"answer\", \"type\": \"infer\"}]}";

    private static LlmPlanner.Builder planner(ScriptedEngine engine) {
        return LlmPlanner.builder().engine(engine).registeredStepTypes(REGISTERED);
    }

    private static ScriptedEngine replying(String reply, Capability... capabilities) {
        return ScriptedEngine.builder().capabilities(capabilities).reply(reply).build();
    }

    private static ErrorCode failureCode(Runnable call) {
        try {
            call.run();
        } catch (PaganticException e) {
            return e.code();
        }
        throw new AssertionError("expected a PaganticException");
    }

    @Test
    void llmPlannerParsesAValidJsonPlanIntoStepsWithTypesInputsAndATraceCarryingTheRationale() {
        ScriptedEngine engine = replying(RAG_PLAN);

        ExecutionPlan plan = planner(engine).build().createPlan(CTX, REQUEST);

        assertThat(plan.steps()).containsExactly(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("go interfaces")),
                Step.of("rerank", StepType.RERANK),
                Step.of("answer", StepType.INFER));
        assertThat(plan.isLinear()).isTrue();
        assertThat(plan.trace()).contains(new PlanTrace("llm", "look it up, keep the best, then answer", NOW, 3));
    }

    @Test
    void theFirstStepWithoutInputGetsTheUsersLastMessage() {
        ScriptedEngine engine = replying("{\"rationale\": \"direct\", \"steps\": ["
                + "{\"name\": \"answer\", \"type\": \"infer\"}, {\"name\": \"check\", \"type\": \"infer\"}]}");

        ExecutionPlan plan = planner(engine).build().createPlan(CTX, REQUEST);

        assertThat(plan.steps().get(0).input()).contains(StepInput.text("How do Go interfaces work?"));
        assertThat(plan.steps().get(1).input()).isEmpty();
    }

    @Test
    void aBlankInputCountsAsNoInput() {
        ScriptedEngine engine = replying("{\"rationale\": \"r\", \"steps\": ["
                + "{\"name\": \"a\", \"type\": \"infer\", \"input\": \"q\"}, {\"name\": \"b\", \"type\": \"infer\","
                + " \"input\": \" \"}]}");

        ExecutionPlan plan = planner(engine).build().createPlan(CTX, REQUEST);

        assertThat(plan.steps().get(1).hasInput()).isFalse();
    }

    @Test
    void theTracesCreatedAtComesFromTheContextsClock() {
        Instant later = Instant.parse("2030-12-31T23:59:59Z");
        CallContext ctx = CallContext.builder().clock(InstantSource.fixed(later)).build();

        ExecutionPlan plan = planner(replying(RAG_PLAN)).plannerId("planner-7").build().createPlan(ctx, REQUEST);

        assertThat(plan.trace().orElseThrow().createdAt()).isEqualTo(later);
        assertThat(plan.trace().orElseThrow().plannerId()).isEqualTo("planner-7");
    }

    @Test
    void itSendsTheSchemaAndTheGrammarWhenTheEngineSupportsBoth() {
        ScriptedEngine engine = replying(RAG_PLAN, Capability.SCHEMA, Capability.GRAMMAR);
        LlmPlanner planner = planner(engine).build();

        planner.createPlan(CTX, REQUEST);

        Request sent = engine.lastRequest().orElseThrow();
        assertThat(sent.schema()).contains(planner.planSchema());
        assertThat(sent.grammar()).contains(GbnfGrammar.fromSchema(planner.planSchema()));
    }

    @Test
    void itSendsOnlyTheGrammarToAnEngineThatSupportsGrammarsButNotSchemas() {
        ScriptedEngine engine = replying(RAG_PLAN, Capability.GRAMMAR);
        LlmPlanner planner = planner(engine).build();

        planner.createPlan(CTX, REQUEST);

        Request sent = engine.lastRequest().orElseThrow();
        assertThat(sent.schema()).isEmpty();
        assertThat(sent.grammar()).contains(GbnfGrammar.fromSchema(planner.planSchema()));
    }

    @Test
    void itSendsOnlyTheSchemaToAnEngineThatSupportsSchemasButNotGrammars() {
        ScriptedEngine engine = replying(RAG_PLAN, Capability.SCHEMA);
        LlmPlanner planner = planner(engine).build();

        planner.createPlan(CTX, REQUEST);

        Request sent = engine.lastRequest().orElseThrow();
        assertThat(sent.schema()).contains(planner.planSchema());
        assertThat(sent.hasGrammar()).isFalse();
    }

    @Test
    void itSendsNeitherToAnEngineWithoutConstraintSupportAndStillValidatesTheAnswer() {
        ScriptedEngine engine = replying(RAG_PLAN, Capability.TOOLS);

        ExecutionPlan plan = planner(engine).build().createPlan(CTX, REQUEST);

        Request sent = engine.lastRequest().orElseThrow();
        assertThat(sent.schema()).isEmpty();
        assertThat(sent.hasGrammar()).isFalse();
        assertThat(plan.stepCount()).isEqualTo(3);
    }

    @Test
    void thePlanningCallIsSampledAtLowTemperatureWithTheConfiguredTokenLimit() {
        ScriptedEngine engine = replying(RAG_PLAN);

        planner(engine).maxTokens(512).build().createPlan(CTX, REQUEST);

        Request sent = engine.lastRequest().orElseThrow();
        assertThat(sent.settings().temperature()).hasValue(LlmPlanner.TEMPERATURE);
        assertThat(LlmPlanner.TEMPERATURE).isEqualTo(0.2);
        assertThat(sent.settings().maxTokens()).isEqualTo(512);
        assertThat(sent.settings().options()).containsEntry(StructuredOutput.ENABLE_THINKING_OPTION, false);
    }

    @Test
    void theModelSeesThePromptThePermittedTypesTheLimitAndTheConversation() {
        ScriptedEngine engine = replying(RAG_PLAN);

        planner(engine).systemPrompt("Plan carefully.").policy(PlanPolicy.builder().maxSteps(4).build()).build()
                .createPlan(CTX, REQUEST);

        Request sent = engine.lastRequest().orElseThrow();
        assertThat(sent.messages()).extracting(m -> m.role()).containsExactly(Role.SYSTEM, Role.USER);
        assertThat(sent.messages().get(0).content())
                .startsWith("Plan carefully.")
                .contains("Step types: infer, rerank, retrieve.")
                .contains("At most 4 steps.");
        assertThat(sent.messages().get(1).content())
                .contains("system: Answer as a Go expert.")
                .contains("user: Hello")
                .endsWith("user: How do Go interfaces work?");
    }

    @Test
    void theSchemaOffersOnlyTheRegisteredTypesThePolicyAllows() {
        LlmPlanner planner = planner(replying(RAG_PLAN))
                .policy(PlanPolicy.builder().allowedStepTypes(StepType.INFER, StepType.RETRIEVE, StepType.TOOL).build())
                .build();

        assertThat(planner.permittedStepTypes()).containsExactly(StepType.INFER, StepType.RETRIEVE);
        @SuppressWarnings("unchecked")
        Map<String, Object> steps = (Map<String, Object>) ((Map<String, Object>) planner.planSchema().toJsonSchema()
                .get("properties")).get("steps");
        assertThat(steps).containsEntry("minItems", 1).containsEntry("maxItems", PlanPolicy.DEFAULT_MAX_STEPS);
        assertThat(steps.toString()).contains("[infer, retrieve]");
    }

    @Test
    void aStepTypeOutsideThePermittedSetIsRejected() {
        ScriptedEngine engine = replying("{\"rationale\": \"r\", \"steps\": [{\"name\": \"s\", \"type\": \"summarize\"}]}");

        assertThat(failureCode(() -> planner(engine).build().createPlan(CTX, REQUEST)))
                .isEqualTo(ErrorCode.CONSTRAINT_ENUM_UNRECOGNIZED);
    }

    @Test
    void aRegisteredTypeThePolicyForbidsIsRejected() {
        ScriptedEngine engine = replying(RAG_PLAN);
        LlmPlanner planner = planner(engine)
                .policy(PlanPolicy.builder().allowedStepTypes(StepType.INFER, StepType.RETRIEVE).build()).build();

        assertThat(failureCode(() -> planner.createPlan(CTX, REQUEST)))
                .isEqualTo(ErrorCode.CONSTRAINT_ENUM_UNRECOGNIZED);
    }

    @Test
    void enumValuesInTheWrongCaseAreNormalised() {
        ScriptedEngine engine = replying("{\"rationale\": \"r\", \"steps\": [{\"name\": \"s\", \"type\": \"Infer\"}]}");

        ExecutionPlan plan = planner(engine).build().createPlan(CTX, REQUEST);

        assertThat(plan.steps().get(0).type()).isEqualTo(StepType.INFER);
    }

    @Test
    void tooManyStepsAreRejected() {
        ScriptedEngine engine = replying(RAG_PLAN);
        LlmPlanner planner = planner(engine).policy(PlanPolicy.builder().maxSteps(2).build()).build();

        assertThat(failureCode(() -> planner.createPlan(CTX, REQUEST)))
                .isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
    }

    @Test
    void aPlanWithoutStepsIsRejected() {
        ScriptedEngine engine = replying("{\"rationale\": \"nothing to do\", \"steps\": []}");

        assertThat(failureCode(() -> planner(engine).build().createPlan(CTX, REQUEST)))
                .isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
    }

    @Test
    void duplicateStepNamesAreRejected() {
        ScriptedEngine engine = replying("{\"rationale\": \"r\", \"steps\": ["
                + "{\"name\": \"step\", \"type\": \"infer\"}, {\"name\": \" step \", \"type\": \"infer\"}]}");

        assertThatThrownBy(() -> planner(engine).build().createPlan(CTX, REQUEST))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
                    assertThat(e.retryable()).isTrue();
                    assertThat(e.details()).containsEntry("path", "/steps/1/name");
                });
    }

    @Test
    void malformedJsonIsRepairedWhenRepairable() {
        ScriptedEngine engine = replying("{\"rationale\": \"r\", \"steps\": ["
                + "{\"name\": \"answer\", \"type\": \"infer\", \"input\": \"hi\"},]}");

        ExecutionPlan plan = planner(engine).build().createPlan(CTX, REQUEST);

        assertThat(plan.steps()).containsExactly(Step.of("answer", StepType.INFER, StepInput.text("hi")));
    }

    @Test
    void malformedJsonIsRepairedUnderAGrammarToo() {
        ScriptedEngine engine = replying("{\"rationale\": \"r\", \"steps\": ["
                + "{\"name\": \"answer\", \"type\": \"infer\"},]}", Capability.GRAMMAR);

        assertThat(planner(engine).build().createPlan(CTX, REQUEST).stepCount()).isEqualTo(1);
    }

    @Test
    void malformedJsonThatCannotBeRepairedIsRejected() {
        ScriptedEngine engine = replying("First retrieve, then answer.");

        assertThat(failureCode(() -> planner(engine).build().createPlan(CTX, REQUEST)))
                .isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
    }

    @Test
    void anAnswerCutOffAfterItsLastStepIsRepairedByClosingIt() {
        ScriptedEngine engine = replying(RAG_PLAN.substring(0, RAG_PLAN.length() - 2));

        assertThat(planner(engine).build().createPlan(CTX, REQUEST).stepCount()).isEqualTo(3);
    }

    @Test
    void anAnswerCutOffBeforeItsStepsIsRepairedIntoJsonButRejectedAsNoPlan() {
        ScriptedEngine engine = replying("{\"rationale\": \"r\", \"st");

        assertThat(failureCode(() -> planner(engine).build().createPlan(CTX, REQUEST)))
                .isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
    }

    @Test
    void thePlanningCallPassesThroughTheInterceptor() {
        List<InvocationKind> seen = new ArrayList<>();
        Interceptor recording = new Interceptor() {
            @Override
            public <T> T intercept(Invocation<T> invocation) {
                seen.add(invocation.kind());
                return invocation.proceed();
            }
        };

        planner(replying(RAG_PLAN)).interceptor(recording).build().createPlan(CTX, REQUEST);

        assertThat(seen).containsExactly(InvocationKind.INFERENCE);
    }

    @Test
    void engineFailuresPropagateUnchanged() {
        ScriptedEngine engine = ScriptedEngine.builder().fail(ErrorCode.INFERENCE_MODEL_UNAVAILABLE, "down").build();

        assertThat(failureCode(() -> planner(engine).build().createPlan(CTX, REQUEST)))
                .isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
    }

    @Test
    void anExpiredContextFailsBeforeTheEngineIsCalled() {
        ScriptedEngine engine = replying(RAG_PLAN);
        CallContext expired = CallContext.builder().deadline(Instant.now().minus(Duration.ofSeconds(1))).build();

        assertThat(failureCode(() -> planner(engine).build().createPlan(expired, REQUEST)))
                .isEqualTo(ErrorCode.CANCELLED_TIMEOUT);
        assertThat(engine.callCount()).isZero();
    }

    @Test
    void aPlannerWithoutAnEngineIsAConfigurationError() {
        assertThat(failureCode(() -> LlmPlanner.builder().registeredStepTypes(REGISTERED).build()))
                .isEqualTo(ErrorCode.CONFIG_NO_ENGINE);
    }

    @Test
    void aPlannerNeedsRegisteredTypesThePolicyAllows() {
        ScriptedEngine engine = replying(RAG_PLAN);

        assertThat(failureCode(() -> LlmPlanner.builder().engine(engine).build()))
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failureCode(() -> planner(engine)
                .policy(PlanPolicy.builder().allowedStepTypes(StepType.TOOL).build()).build()))
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failureCode(() -> planner(engine).maxTokens(-1).build())).isEqualTo(ErrorCode.CONFIG_INVALID);
    }

    @Test
    void aRequestWithoutMessagesCannotBePlanned() {
        ScriptedEngine engine = replying(RAG_PLAN);
        SystemRequest empty = SystemRequest.builder().mode(Mode.PLAN).build();

        assertThat(failureCode(() -> planner(engine).build().createPlan(CTX, empty)))
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(engine.callCount()).isZero();
        assertThat(Optional.of(engine.remaining())).contains(1);
    }
}
