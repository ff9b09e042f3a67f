package dev.pagantic.orchestrate.plan;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.orchestrate.ports.RerankInput;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StepHandlersTest {

    private static final CallContext CTX = CallContext.background();

    private static PaganticException failure(StepHandler handler, Step step) {
        try {
            handler.handle(CTX, step);
        } catch (PaganticException e) {
            return e;
        }
        throw new AssertionError("the handler did not fail");
    }

    @Test
    void inferWithANilEngineFailsWithTheSeedsMessage() {
        PaganticException error = failure(StepHandlers.infer((Engine) null), Step.of("infer", StepType.INFER,
                StepInput.text("q")));

        assertThat(error.code()).isEqualTo(ErrorCode.CONFIG_NO_ENGINE);
        assertThat(error.getMessage()).contains("infer handler: nil engine");
        assertThat(error.details()).containsEntry("step", "infer");
    }

    @Test
    void everyOtherBuiltInHandlerHasADescriptiveNilGuard() {
        Step step = Step.of("s", StepType.TOOL, StepInput.text("q"));

        assertThat(failure(StepHandlers.retrieve(null), step)).hasMessageContaining(
                "retrieve handler: nil context provider").extracting(PaganticException::code)
                .isEqualTo(ErrorCode.CONFIG_INVALID);
        assertThat(failure(StepHandlers.rerank(null), step)).hasMessageContaining("rerank handler: nil reranker");
        assertThat(failure(StepHandlers.validate(null), step)).hasMessageContaining("validate handler: nil check");
        assertThat(failure(StepHandlers.validateWith(null), step)).hasMessageContaining(
                "validate handler: nil check");
        assertThat(failure(StepHandlers.tool(null, ToolExecutor.create()), step)).hasMessageContaining(
                "tool handler: nil registry");
        assertThat(failure(StepHandlers.tool(ToolRegistry.empty(), null), step)).hasMessageContaining(
                "tool handler: nil tool executor");
    }

    @Test
    void aNilGuardFailsThePlanAtThatStepWithTheEarlierStepsKept() {
        PlanExecutor executor = PlanExecutor.of(Map.of(
                StepType.RETRIEVE, StepHandlers.retrieve((ctx, query) -> List.of(Message.system("ctx"))),
                StepType.INFER, StepHandlers.infer((Engine) null)));

        PlanResult result = executor.execute(CTX, ExecutionPlan.of(
                Step.of("retrieve", StepType.RETRIEVE, StepInput.text("q")), Step.of("infer", StepType.INFER)));

        assertThat(result.steps()).extracting(Step::name).containsExactly("retrieve");
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIG_NO_ENGINE);
    }

    @Test
    void inferTurnsTextIntoAUserMessageAndPassesARequestAsIs() {
        ScriptedEngine engine = ScriptedEngine.replying("one", "two");
        StepHandler infer = StepHandlers.infer(engine);
        Request request = Request.builder().addMessage(Message.system("sys")).addMessage(Message.user("u"))
                .build();

        Step fromText = infer.handle(CTX, Step.of("a", StepType.INFER, StepInput.text("hello")));
        Step fromRequest = infer.handle(CTX, Step.of("b", StepType.INFER, StepInput.request(request)));

        assertThat(fromText.requireOutput().result().content()).isEqualTo("one");
        assertThat(engine.requests().get(0).messages()).containsExactly(Message.user("hello"));
        assertThat(fromRequest.requireOutput().result().content()).isEqualTo("two");
        assertThat(engine.requests().get(1)).isEqualTo(request);
    }

    @Test
    void inferRejectsAnInputItCannotTurnIntoARequest() {
        PaganticException error = failure(StepHandlers.infer(ScriptedEngine.replying("x")),
                Step.of("infer", StepType.INFER, StepInput.custom(42)));

        assertThat(error.code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH);
        assertThat(error.details()).containsEntry("actual", "custom").containsEntry("step", "infer");
    }

    @Test
    void aBuiltInHandlerWithoutInputIsAStepMismatch() {
        PaganticException error = failure(StepHandlers.retrieve((ctx, q) -> List.of()),
                Step.of("retrieve", StepType.RETRIEVE));

        assertThat(error.code()).isEqualTo(ErrorCode.ORCHESTRATION_STEP_MISMATCH);
        assertThat(error.details()).containsEntry("actual", "none");
    }

    @Test
    void rerankTakesACustomRerankInputWithItsQuery() {
        StepHandler rerank = StepHandlers.rerank((ctx, input) -> input.candidates().stream()
                .filter(c -> c.content().contains(input.query())).toList());
        RerankInput input = new RerankInput("go", List.of(Candidate.of("go is fun", "a", 0.5),
                Candidate.of("rust", "b", 0.9)));

        Step done = rerank.handle(CTX, Step.of("rerank", StepType.RERANK, StepInput.custom(input)));

        assertThat(done.requireOutput().candidates()).containsExactly(Candidate.of("go is fun", "a", 0.5));
    }

    @Test
    void rerankTakesAContextWithItsQuery() {
        StepHandler rerank = StepHandlers.rerank((ctx, input) -> List.of(
                Candidate.of(input.query() + ":" + input.candidates().size(), "q", 1)));
        ContextIR context = new ContextIR("query", List.of(Candidate.of("c", "s", 0.1)));

        Step done = rerank.handle(CTX, Step.of("rerank", StepType.RERANK, StepInput.context(context)));

        assertThat(done.requireOutput().candidates()).extracting(Candidate::content).containsExactly("query:1");
    }

    @Test
    void validatePassesAnInferenceResultsContentThroughAsText() {
        ScriptedEngine engine = ScriptedEngine.replying("fine answer");
        Step inferred = StepHandlers.infer(engine).handle(CTX, Step.of("i", StepType.INFER, StepInput.text("q")));

        Step validated = StepHandlers.validate(text -> Optional.empty()).handle(CTX,
                Step.of("v", StepType.VALIDATE, inferred.requireOutput().toInput()));

        assertThat(validated.requireOutput().text()).isEqualTo("fine answer");
    }

    @Test
    void validateRejectsWithARetryableRuleFailureCarryingTheReason() {
        PaganticException error = failure(StepHandlers.validate(text -> Optional.of("empty output")),
                Step.of("v", StepType.VALIDATE, StepInput.text("")));

        assertThat(error.code()).isEqualTo(ErrorCode.VALIDATION_RULE_FAILED);
        assertThat(error.retryable()).isTrue();
        assertThat(error.details()).containsEntry("reason", "empty output");
    }

    @Test
    void toolExecutesTheCallsAndReturnsTheirResultsInOrder() {
        Tool add = Tool.builder(ToolDefinition.of("add", "adds", Schema.object().build()))
                .handler((ctx, args) -> "sum=" + args.size()).build();
        try (ToolExecutor executor = ToolExecutor.create()) {
            StepHandler tool = StepHandlers.tool(ToolRegistry.of(add), executor);

            Step done = tool.handle(CTX, Step.of("tool", StepType.TOOL, StepInput.toolCalls(List.of(
                    ToolCall.of("c1", "add", Map.of()), ToolCall.of("c2", "add", Map.of())))));

            assertThat(done.requireOutput().toolResults()).extracting(ToolResult::callId).containsExactly("c1", "c2");
            assertThat(done.requireOutput().toolResults()).allMatch(r -> !r.isError());
        }
    }

    @Test
    void aFailedToolCallFailsTheToolStepWithTheToolsCode() {
        try (ToolExecutor executor = ToolExecutor.create()) {
            StepHandler tool = StepHandlers.tool(ToolRegistry.empty(), executor);

            assertThatThrownBy(() -> tool.handle(CTX, Step.of("tool", StepType.TOOL, StepInput.toolCalls(List.of(
                    ToolCall.of("c1", "missing", Map.of()))))))
                    .isInstanceOfSatisfying(PaganticException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.TOOL_NOT_FOUND);
                        assertThat(e.details()).containsEntry("tool_call_id", "c1").containsEntry("step", "tool");
                    });
        }
    }
}
