package dev.pagantic.orchestrate.agent;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.core.ToolResult;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.orchestrate.internal.InferenceCall;
import dev.pagantic.orchestrate.internal.Phases;
import dev.pagantic.tool.ToolExecution;
import dev.pagantic.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Steps 3 to 6 of one chat turn (see {@link AgentLoop}): infer, run the requested tools, infer again, until the model
 * answers, hands caller-tool calls back, or exceeds the tool rounds; with the steering and follow-up queues of seed
 * 004.
 * One instance per turn, confined to the turn's thread.
 */
final class ToolLoop {

    private final CallContext ctx;
    private final ConversationBuffer memory;
    private final InferenceCall inference;
    private final InferenceSettings settings;
    private final TurnOptions options;
    private final ToolRound round;
    private final @Nullable ToolRegistry registry;
    private final ContextInjection context;
    private final int maxToolIterations;
    private final StreamHandler stream;
    private final TurnEvents events;
    private final List<Message> added = new ArrayList<>();
    private final List<ToolExecution> executed = new ArrayList<>();

    ToolLoop(CallContext ctx, ConversationBuffer memory, InferenceCall inference, InferenceSettings settings,
             TurnOptions options, ToolRound round, @Nullable ToolRegistry registry, ContextInjection context,
             int maxToolIterations, StreamHandler stream) {
        this.ctx = ctx;
        this.memory = memory;
        this.inference = inference;
        this.settings = settings;
        this.options = options;
        this.round = round;
        this.registry = registry;
        this.context = context;
        this.maxToolIterations = maxToolIterations;
        this.stream = options.stream().orElse(stream);
        this.events = TurnEvents.of(options, ctx);
    }

    AgentTurn run(Phases phases) {
        List<ToolDefinition> definitions = new ArrayList<>(registry == null ? List.of() : registry.definitions());
        definitions.addAll(options.callerTools());
        Set<String> callerNames = new HashSet<>();
        options.callerTools().forEach(tool -> callerNames.add(tool.name()));
        // one call at a time when the caller watches each call or may interrupt between them
        boolean oneByOne = events.active() || options.steering().isPresent();
        phases.execute("running the tool loop");
        events.turnStart(ctx);
        TokenUsage usage = TokenUsage.ZERO;
        int rounds = 0;
        while (true) {
            Request request = Request.builder().messages(context.place(memory.messages(), added.size()))
                    .tools(definitions).settings(settings).build();
            Result result = infer(request);
            usage = usage.plus(result.usage());
            if (!result.hasToolCalls()) {
                Message answer = append(Message.assistant(result.content()));
                events.turnEnd(ctx, answer);
                List<Message> followUps = drain(options.followUp());
                if (!followUps.isEmpty()) {
                    // the caller continues the turn: the answer stays, the follow-up messages come after it
                    followUps.forEach(this::append);
                    events.turnStart(ctx);
                    continue;
                }
                phases.complete("final answer after " + rounds + " tool round(s)");
                return new AgentTurn(result.toBuilder().messages(added).usage(usage).build(), executed, List.of());
            }
            if (rounds >= maxToolIterations) {
                throw PaganticException.builder(ErrorCode.ORCHESTRATION_ITERATION_LIMIT,
                                "the model still calls tools after " + maxToolIterations
                                        + " tool rounds (maxToolIterations)")
                        .detail("max_tool_iterations", maxToolIterations)
                        .detail("request_id", ctx.requestId()).build();
            }
            ctx.throwIfDone();
            Message call = append(Message.assistant(result.content(), result.toolCalls()));
            List<ToolCall> serverCalls = new ArrayList<>();
            List<ToolCall> callerCalls = new ArrayList<>();
            result.toolCalls().forEach(c -> (callerNames.contains(c.name()) ? callerCalls : serverCalls).add(c));
            if (!oneByOne) {
                round.run(ctx, registry, serverCalls).forEach(this::record);
            } else if (runOneByOne(serverCalls, callerCalls)) {
                rounds++;
                continue;
            }
            if (!callerCalls.isEmpty()) {
                events.turnEnd(ctx, call);
                phases.complete("handing " + callerCalls.size() + " caller tool call(s) back");
                return new AgentTurn(result.toBuilder().messages(added).usage(usage).build(), executed, callerCalls);
            }
            rounds++;
        }
    }

    /** One inference, its output watched when the caller listens to the turn's events. */
    private Result infer(Request request) {
        if (!events.active()) {
            return inference.infer(ctx, request, stream);
        }
        TurnEvents.Inference watched = events.inference(stream);
        Result result = inference.infer(ctx, request, watched);
        watched.finish(result);
        return result;
    }

    /**
     * Runs the server calls one at a time, reporting each and polling the steering queue after each; whether the
     * caller steered (the round is then over: every call that did not run gets a result, so that the history stays
     * well-formed, and caller calls are not handed back).
     */
    private boolean runOneByOne(List<ToolCall> serverCalls, List<ToolCall> callerCalls) {
        List<Message> steering = List.of();
        int next = 0;
        while (next < serverCalls.size() && steering.isEmpty()) {
            ToolCall toolCall = serverCalls.get(next++);
            events.toolCall(toolCall);
            ToolExecution execution = round.run(ctx, registry, List.of(toolCall)).get(0);
            events.toolResult(execution.result());
            record(execution);
            steering = drain(options.steering());
        }
        if (steering.isEmpty()) {
            return false;
        }
        List<ToolCall> skipped = new ArrayList<>(serverCalls.subList(next, serverCalls.size()));
        skipped.addAll(callerCalls);
        for (ToolCall skip : skipped) {
            append(ToolResult.error(skip.id(), skip.name(), AgentLoop.SKIPPED_FOR_STEERING).toMessage());
        }
        steering.forEach(this::append);
        events.interrupted(steering.size());
        return true;
    }

    private void record(ToolExecution execution) {
        append(execution.result().toMessage());
        executed.add(execution);
    }

    private Message append(Message message) {
        memory.append(message);
        added.add(message);
        return message;
    }

    private static List<Message> drain(Optional<MessageQueue> queue) {
        if (queue.isEmpty()) {
            return List.of();
        }
        List<Message> messages = queue.get().drain();
        return messages == null ? List.of() : List.copyOf(messages);
    }
}
