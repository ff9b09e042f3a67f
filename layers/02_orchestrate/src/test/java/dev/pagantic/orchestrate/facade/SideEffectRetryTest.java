package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanResult;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepHandlers;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.SideEffect;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import dev.pagantic.tool.ToolSafety;
import dev.pagantic.validate.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every place where pagantic repeats work on its own (the structured retry policy, redundant replicas, plan step
 * retries, the tool loop after a failure) runs a tool with side effects (not idempotent) at most once per model request
 * for it, while an idempotent read-only tool may run again. Each tool counts its invocations.
 */
class SideEffectRetryTest {

    private static final Schema SENTIMENT = Schema.object()
            .required("sentiment", Schema.enumOf("positive", "negative", "neutral")).build();
    private static final String POSITIVE = "{\"sentiment\":\"positive\"}";

    private final AtomicInteger emailRuns = new AtomicInteger();
    private final AtomicInteger lookupRuns = new AtomicInteger();

    private Tool sendEmail() {
        return Tool.builder(ToolDefinition.of("send_email", "Sends an email", Schema.object().build()))
                .safety(ToolSafety.of(SideEffect.EXTERNAL, false))
                .handler((ctx, args) -> {
                    emailRuns.incrementAndGet();
                    return "sent";
                }).build();
    }

    private Tool lookup() {
        return Tool.builder(ToolDefinition.of("lookup", "Reads a record", Schema.object().build()))
                .safety(ToolSafety.READ_ONLY)
                .handler((ctx, args) -> {
                    lookupRuns.incrementAndGet();
                    return "record";
                }).build();
    }

    /**
     * A model for structured calls with tools: in the tool phase it calls the given tools once, then says it has
     * gathered enough; in the structured phase it answers the outputs in turn (the last one repeatedly).
     */
    private static Function<Request, Result> model(List<String> toolNames, AtomicInteger structuredCalls,
                                                   String... structuredOutputs) {
        return request -> {
            if (!request.tools().isEmpty()) {
                if (request.messages().get(request.messages().size() - 1).role() == Role.TOOL) {
                    return Result.builder().content("gathered").build();
                }
                List<ToolCall> calls = toolNames.stream()
                        .map(name -> ToolCall.of("call_" + name, name, Map.of())).toList();
                return Result.builder().toolCalls(calls).build();
            }
            int n = structuredCalls.getAndIncrement();
            return Result.builder().content(structuredOutputs[Math.min(n, structuredOutputs.length - 1)]).build();
        };
    }

    private static ScriptedEngine engine(Function<Request, Result> model, int steps) {
        ScriptedEngine.Builder engine = ScriptedEngine.builder();
        for (int i = 0; i < steps; i++) {
            engine.replyWith(model);
        }
        return engine.build();
    }

    private static SystemRequest structured(Mode mode, String... whitelist) {
        return SystemRequest.builder().user("How does the customer feel?").mode(mode)
                .output(OutputContract.of(SENTIMENT)).tools(whitelist).build();
    }

    @Test
    void aStructuredRetryAfterInvalidOutputDoesNotRunASideEffectToolAgain() {
        AtomicInteger structuredCalls = new AtomicInteger();
        ScriptedEngine engine = engine(model(List.of("send_email"), structuredCalls,
                "no json here", "still no json", POSITIVE), 12);
        try (Orchestrator facade = Orchestrator.builder().engine(engine).tools(ToolRegistry.of(sendEmail()))
                .build()) {
            SystemResponse response = facade.execute(structured(Mode.STRUCTURED));

            assertThat(response.error()).isEmpty();
            assertThat(response.structuredOutput()).contains(Map.of("sentiment", "positive"));
            assertThat(structuredCalls).hasValue(3); // three attempts of the structured turn ...
            assertThat(emailRuns).hasValue(1);       // ... and the email went out once
            assertThat(response.toolCallsMade()).extracting(ToolCallRecord::name).containsExactly("send_email");
            // every retry still sees the tool's result
            assertThat(engine.lastRequest().orElseThrow().messages()).anyMatch(m -> m.role() == Role.TOOL
                    && m.content().equals("sent"));
        }
    }

    @Test
    void aStructuredCallThatExhaustsItsRetriesRanTheSideEffectToolOnce() {
        AtomicInteger structuredCalls = new AtomicInteger();
        ScriptedEngine engine = engine(model(List.of("send_email"), structuredCalls, "never json"), 12);
        try (Orchestrator facade = Orchestrator.builder().engine(engine).tools(ToolRegistry.of(sendEmail()))
                .build()) {
            SystemResponse response = facade.execute(structured(Mode.STRUCTURED));

            assertThat(response.error()).get().extracting(SystemError::category)
                    .isEqualTo(FailureCategory.CONSTRAINT);
            assertThat(structuredCalls).hasValue(3);
            assertThat(emailRuns).hasValue(1);
        }
    }

    @Test
    void redundantReplicasAreOfferedOnlyIdempotentToolsSoASideEffectToolNeverRunsPerReplica() {
        AtomicInteger structuredCalls = new AtomicInteger();
        ScriptedEngine engine = engine(model(List.of("send_email", "lookup"), structuredCalls, POSITIVE), 20);
        try (Orchestrator facade = Orchestrator.builder().engine(engine)
                .tools(ToolRegistry.of(sendEmail(), lookup())).replicas(3).build()) {
            SystemResponse response = facade.execute(structured(Mode.REDUNDANT));

            assertThat(response.error()).isEmpty();
            assertThat(response.confidence()).hasValue(1.0);
            assertThat(emailRuns).hasValue(0);
            assertThat(lookupRuns).hasValue(3); // an idempotent read-only tool may run once per replica
            assertThat(engine.requests().get(0).tools()).extracting(ToolDefinition::name).containsExactly("lookup");
            assertThat(response.toolCallsMade()).filteredOn(record -> record.name().equals("send_email"))
                    .hasSize(3).allSatisfy(record ->
                            assertThat(record.errorCode()).contains(ErrorCode.TOOL_NOT_FOUND));
        }
    }

    @Test
    void aRedundantRequestWhitelistingASideEffectToolIsRefusedBeforeAnyInference() {
        ScriptedEngine engine = ScriptedEngine.builder().reply(POSITIVE).build();
        try (Orchestrator facade = Orchestrator.builder().engine(engine)
                .tools(ToolRegistry.of(sendEmail(), lookup())).build()) {
            SystemResponse response = facade.execute(structured(Mode.REDUNDANT, "send_email", "lookup"));

            assertThat(response.error()).get().satisfies(error -> {
                assertThat(error.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                assertThat(error.message()).contains("not idempotent").contains("send_email");
            });
            assertThat(engine.callCount()).isZero();
            assertThat(emailRuns).hasValue(0);
        }
    }

    @Test
    void aFailingSideEffectToolInTheChatLoopRunsOnceAndTheModelIsToldItIsNotRetryable() {
        AtomicInteger attempts = new AtomicInteger();
        Tool flaky = Tool.builder(ToolDefinition.of("charge_card", "Charges a card", Schema.object().build()))
                .safety(ToolSafety.of(SideEffect.EXTERNAL, false))
                .handler((ctx, args) -> {
                    attempts.incrementAndGet();
                    throw new IllegalStateException("gateway hiccup");
                }).build();
        ScriptedEngine engine = ScriptedEngine.builder().replyCallingTool("charge_card", Map.of())
                .reply("The payment failed.").build();
        try (Orchestrator facade = Orchestrator.builder().engine(engine).tools(ToolRegistry.of(flaky)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().user("pay").build());

            assertThat(response.error()).isEmpty();
            assertThat(attempts).hasValue(1);
            assertThat(response.toolCallsMade()).singleElement().satisfies(record ->
                    assertThat(record.errorCode()).contains(ErrorCode.TOOL_EXECUTION_FAILED));
            assertThat(engine.callCount()).isEqualTo(2);
        }
    }

    @Test
    void aPlanToolStepIsNeverRetriedEvenUnderAPolicyThatRetriesToolFailures() {
        AtomicInteger sideEffectRuns = new AtomicInteger();
        AtomicInteger readRuns = new AtomicInteger();
        Tool charge = Tool.builder(ToolDefinition.of("charge", "Charges", Schema.object().build()))
                .safety(ToolSafety.of(SideEffect.EXTERNAL, false))
                .handler((ctx, args) -> {
                    sideEffectRuns.incrementAndGet();
                    throw new IllegalStateException("declined");
                }).build();
        Tool read = Tool.builder(ToolDefinition.of("read", "Reads", Schema.object().build()))
                .safety(ToolSafety.READ_ONLY)
                .handler((ctx, args) -> {
                    readRuns.incrementAndGet();
                    throw new IllegalStateException("busy");
                }).build();
        RetryPolicy eager = RetryPolicy.builder().maxAttempts(5).initialDelay(Duration.ZERO).jitter(0)
                .retryOn(FailureCategory.TOOL).build();
        try (ToolExecutor executor = ToolExecutor.create()) {
            PlanExecutor plans = PlanExecutor.builder()
                    .handler(StepType.TOOL, StepHandlers.tool(ToolRegistry.of(charge, read), executor))
                    .retryPolicy(eager).build();

            PlanResult charged = plans.execute(CallContext.background(), ExecutionPlan.of(Step.of("pay",
                    StepType.TOOL, StepInput.toolCalls(List.of(ToolCall.of("c1", "charge", Map.of()))))));
            PlanResult read1 = plans.execute(CallContext.background(), ExecutionPlan.of(Step.of("look",
                    StepType.TOOL, StepInput.toolCalls(List.of(ToolCall.of("r1", "read", Map.of()))))));

            assertThat(charged.error()).get().satisfies(error -> {
                assertThat(error.code()).isEqualTo(ErrorCode.TOOL_EXECUTION_FAILED);
                assertThat(error.retryable()).isFalse();
            });
            assertThat(sideEffectRuns).hasValue(1);
            // the idempotent tool's failure is marked retryable for the caller, but the plan does not retry it
            assertThat(read1.error()).get().satisfies(error -> assertThat(error.retryable()).isTrue());
            assertThat(readRuns).hasValue(1);
        }
    }

    @Test
    void aFacadePlanToolStepWithASideEffectToolRunsItOnceWhenItFails() {
        AtomicInteger runs = new AtomicInteger();
        Tool charge = Tool.builder(ToolDefinition.of("charge", "Charges", Schema.object().build()))
                .safety(ToolSafety.of(SideEffect.EXTERNAL, false))
                .handler((ctx, args) -> {
                    runs.incrementAndGet();
                    throw new IllegalStateException("declined");
                }).build();
        ExecutionPlan plan = ExecutionPlan.of(Step.of("pay", StepType.TOOL,
                StepInput.toolCalls(List.of(ToolCall.of("c1", "charge", Map.of())))));
        try (Orchestrator facade = Orchestrator.builder().engine(ScriptedEngine.replying())
                .tools(ToolRegistry.of(charge)).planner(StaticPlanner.of(plan)).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.PLAN).user("pay").build());

            assertThat(response.error()).get().extracting(SystemError::code)
                    .isEqualTo(ErrorCode.TOOL_EXECUTION_FAILED);
            assertThat(runs).hasValue(1);
        }
    }
}
