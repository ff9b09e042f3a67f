package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolResult;
import dev.pagantic.orchestrate.loop.LoopSettings;
import dev.pagantic.orchestrate.plan.ExecutionPlan;
import dev.pagantic.orchestrate.plan.PlanExecutor;
import dev.pagantic.orchestrate.plan.PlanPolicy;
import dev.pagantic.orchestrate.plan.PlanResult;
import dev.pagantic.orchestrate.plan.Step;
import dev.pagantic.orchestrate.plan.StepData;
import dev.pagantic.orchestrate.plan.StepHandler;
import dev.pagantic.orchestrate.plan.StepHandlers;
import dev.pagantic.orchestrate.plan.StepInput;
import dev.pagantic.orchestrate.plan.StepOutput;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.tool.ToolRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * {@link Mode#PLAN}: the configured {@link Planner} (in PLAN) and a {@link PlanExecutor}. The response carries the last
 * step's output as text as content, each step's output as text by step name as structured output, the tool calls of
 * tool steps, and the usage.
 *
 * <p>The built-in handlers are those of what the orchestrator has (infer on its engine, tool on its tools, retrieve on
 * its context provider); configured handlers replace built-in ones of their type. The built-in infer handler runs on
 * the orchestrator's settings with the request's execution hints laid over them, through the one inference path, so the
 * hints apply to every inference step and every one is intercepted and recorded. With a tool whitelist the built-in
 * tool handler runs on the whitelisted view of the registry, so that a tool step can no more run a hidden tool than a
 * chat turn can ({@code TOOL_NOT_FOUND}); a configured tool handler is the application's own and is left as it is.
 */
final class PlanMode implements ModeRunner {

    private final LoopSettings settings;
    private final @Nullable Planner planner;
    private final Map<StepType, StepHandler> configured;
    private final PlanPolicy policy;

    PlanMode(LoopSettings settings, @Nullable Planner planner, Map<StepType, StepHandler> configured,
             PlanPolicy policy) {
        this.settings = settings;
        this.planner = planner;
        this.configured = Map.copyOf(configured);
        this.policy = policy;
    }

    @Override
    public SystemResponse run(RequestCall call) {
        if (planner == null) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "plan mode needs a planner (Builder.planner)");
        }
        SystemRequest req = call.request();
        call.lifecycle().plan("creating the plan");
        ExecutionPlan plan = planner.createPlan(call.ctx(), req);
        PlanExecutor executor = PlanExecutor.builder().handlers(handlers(req)).policy(policy)
                .interceptor(settings.interceptor()).eventLog(settings.eventLog()).build();
        PlanResult result = executor.execute(call.ctx(), plan, call.lifecycle());
        Map<String, Object> outputs = new LinkedHashMap<>();
        List<ToolCallRecord> toolCalls = new ArrayList<>();
        for (Step step : result.steps()) {
            step.output().ifPresent(output -> outputs.put(step.name(), render(output)));
            step.output().filter(output -> output.is(StepData.Kind.CANDIDATES))
                    .ifPresent(output -> call.execution().candidates(output.candidates()));
            toolCalls.addAll(toolCallsOf(step));
        }
        if (result.error().isPresent()) {
            SystemResponse failed = call.failed(result.error().get(), result.usage(), List.of());
            return failed.toBuilder().structuredOutput(outputs).toolCallsMade(toolCalls).build();
        }
        return call.response()
                .content(result.lastOutput().map(PlanMode::render).orElse(""))
                .structuredOutput(outputs)
                .toolCallsMade(toolCalls)
                .tokenUsage(result.usage())
                .build();
    }

    /** The handlers of one request: the built-in ones for it (see the class comment), then the configured ones. */
    private Map<StepType, StepHandler> handlers(SystemRequest req) {
        Map<StepType, StepHandler> handlers = new LinkedHashMap<>();
        handlers.put(StepType.INFER, StepHandlers.infer(settings.overriddenWith(req.hints().settings())));
        settings.tools().ifPresent(tools -> handlers.put(StepType.TOOL,
                StepHandlers.tool(whitelisted(tools, req), settings.toolExecutor().orElseThrow())));
        settings.contextProvider().ifPresent(provider -> handlers.put(StepType.RETRIEVE,
                StepHandlers.retrieve(provider)));
        handlers.putAll(configured);
        return handlers;
    }

    private static ToolRegistry whitelisted(ToolRegistry tools, SystemRequest req) {
        return req.tools().isEmpty() ? tools
                : tools.allowOnly(tools.names().stream().filter(req::allowsTool).toList());
    }

    /**
     * The tool calls a completed tool step made: its input's calls paired with its output's results. A step records
     * no per-call duration (its {@code step} event has the step's), so the records say zero.
     */
    private static List<ToolCallRecord> toolCallsOf(Step step) {
        if (!step.hasOutput() || !step.requireOutput().is(StepData.Kind.TOOL_RESULTS) || !step.hasInput()) {
            return List.of();
        }
        StepInput input = step.requireInput();
        List<ToolCall> calls = input.is(StepData.Kind.TOOL_CALLS) ? input.toolCalls()
                : input.is(StepData.Kind.RESULT) ? input.result().toolCalls() : List.of();
        List<ToolResult> results = step.requireOutput().toolResults();
        List<ToolCallRecord> records = new ArrayList<>();
        for (int i = 0; i < Math.min(calls.size(), results.size()); i++) {
            ToolCall call = calls.get(i);
            ToolResult toolResult = results.get(i);
            records.add(new ToolCallRecord(call.id(), call.name(), call.arguments(), toolResult.content(),
                    toolResult.isError(), Optional.empty(), Duration.ZERO));
        }
        return records;
    }

    /** A step's output as text: the text, the inference's content, or the contents of its parts. */
    private static String render(StepOutput output) {
        return switch (output.kind()) {
            case TEXT -> output.text();
            case RESULT -> output.result().content();
            case MESSAGES -> output.messages().stream().map(Message::content).collect(Collectors.joining("\n"));
            case CANDIDATES -> output.candidates().stream().map(Candidate::content)
                    .collect(Collectors.joining("\n"));
            case TOOL_RESULTS -> output.toolResults().stream().map(ToolResult::content)
                    .collect(Collectors.joining("\n"));
            case GROUP -> output.group().stream().map(PlanMode::render).collect(Collectors.joining("\n"));
            default -> String.valueOf(output.value());
        };
    }
}
