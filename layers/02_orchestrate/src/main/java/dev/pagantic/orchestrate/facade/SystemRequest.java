package dev.pagantic.orchestrate.facade;

import static dev.pagantic.core.Preconditions.invalid;
import static dev.pagantic.core.Preconditions.requireElements;
import static dev.pagantic.core.Preconditions.requireNonNull;
import static dev.pagantic.core.Preconditions.requireText;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FinishReason;
import dev.pagantic.core.IdGenerator;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.orchestrate.multimodel.Directive;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one way into pagantic (seed 001's {@code SystemRequest}): adapters build it from external input (HTTP, CLI
 * arguments, terminal input) and hand it to the facade.
 *
 * <ul>
 *   <li>{@code requestId}: unique per request; correlates every event, log and span. Empty means "generate one":
 *       the facade assigns it at INIT ({@link #withMissingIds(IdGenerator)}).</li>
 *   <li>{@code sessionId}: stable per conversation. With one, the facade keeps the AgentLoop and appends the
 *       request's new messages to the stored history; empty means single-shot (the messages are the whole history
 *       and nothing is kept), so it is never generated.</li>
 *   <li>{@code traceId}: the distributed tracing root, propagated from the caller; empty means "generate one" at
 *       INIT.</li>
 *   <li>{@code messages}: the ordered conversation (or, with a session, the new turn).</li>
 *   <li>{@code mode}: which pattern runs ({@link Mode}); the builder defaults to {@link Mode#CHAT}.</li>
 *   <li>{@code hints}: tuning knobs ({@link ExecutionHints}); defaults to none.</li>
 *   <li>{@code output}: the output contract ({@link OutputContract}); defaults to {@link OutputContract#none()}.</li>
 *   <li>{@code tools}: the per-request whitelist of tool names; empty means every registered tool (and every
 *       caller tool). It applies to registered and caller tools alike: a model asking for a tool outside it gets
 *       {@code TOOL_NOT_FOUND} and nothing runs.</li>
 *   <li>{@code callerTools}: beyond the seed, definitions of tools the <em>caller</em> executes (what
 *       OpenAI-protocol clients send). When the model calls one, the response hands the calls back
 *       ({@link FinishReason#TOOL_CALLS}, {@link SystemResponse#toolCallsRequested()}) and the caller's next request
 *       carries the results as tool messages.</li>
 *   <li>{@code directive}: the knobs of the multi-model modes (iterations, primary/review engine, voters, weight
 *       floor): a side channel read by the orchestrator, never forwarded to any model.</li>
 *   <li>{@code traceContext}: beyond the seed, the caller's trace-context headers as received (the W3C
 *       {@code traceparent} and {@code tracestate}, lower-case names), so that an observer (the OpenTelemetry adapter)
 *       continues the caller's trace; empty by default. Never forwarded to a model.</li>
 * </ul>
 *
 * <p><b>Where validation happens.</b> Construction ({@link Builder#build()} and the canonical constructor) checks
 * structure only, with {@code CONFIG_INVALID}: no nulls, no blank or duplicate tool names, no two caller tools with
 * one name. The envelope rules of seed 001's INIT state are in {@link #validate()}, which the facade calls at INIT
 * so that the failure is reported through the lifecycle (an ERROR transition and a {@link SystemError}) rather than
 * thrown from an adapter's builder call. Adapters may call it early too.
 *
 * @param requestId   the request id; empty until assigned at INIT
 * @param sessionId   the conversation id; empty for a single-shot request
 * @param traceId     the tracing root; empty until assigned at INIT
 * @param messages    the conversation messages
 * @param mode        the orchestration mode
 * @param hints       the execution hints
 * @param output      the output contract
 * @param tools       the tool whitelist; empty for all
 * @param callerTools the tools the caller executes itself
 * @param directive   the multi-model modes' knobs ({@link Directive}); never forwarded to a model
 * @param traceContext the caller's trace-context headers ({@code traceparent}, {@code tracestate}); empty for none
 */
public record SystemRequest(String requestId, String sessionId, String traceId, List<Message> messages, Mode mode,
                            ExecutionHints hints, OutputContract output, List<String> tools,
                            List<ToolDefinition> callerTools, Directive directive, Map<String, String> traceContext) {

    /** The request without trace-context headers. */
    public SystemRequest(String requestId, String sessionId, String traceId, List<Message> messages, Mode mode,
                         ExecutionHints hints, OutputContract output, List<String> tools,
                         List<ToolDefinition> callerTools, Directive directive) {
        this(requestId, sessionId, traceId, messages, mode, hints, output, tools, callerTools, directive, Map.of());
    }

    /** The request without a directive ({@link Directive#NONE}) and trace-context headers. */
    public SystemRequest(String requestId, String sessionId, String traceId, List<Message> messages, Mode mode,
                         ExecutionHints hints, OutputContract output, List<String> tools,
                         List<ToolDefinition> callerTools) {
        this(requestId, sessionId, traceId, messages, mode, hints, output, tools, callerTools, Directive.NONE);
    }

    public SystemRequest {
        requireNonNull(requestId, "requestId");
        requireNonNull(sessionId, "sessionId");
        requireNonNull(traceId, "traceId");
        messages = requireElements(messages, "messages");
        requireNonNull(mode, "mode");
        requireNonNull(hints, "hints");
        requireNonNull(output, "output");
        tools = requireElements(tools, "tools");
        Set<String> seen = new HashSet<>();
        for (String name : tools) {
            requireText(name, "tool name");
            if (!seen.add(name)) {
                throw invalid("tool '" + name + "' is listed twice in the whitelist");
            }
        }
        callerTools = requireElements(callerTools, "callerTools");
        seen.clear();
        for (ToolDefinition tool : callerTools) {
            if (!seen.add(tool.name())) {
                throw invalid("caller tool '" + tool.name() + "' is defined twice");
            }
        }
        requireNonNull(directive, "directive");
        traceContext = Map.copyOf(requireNonNull(traceContext, "traceContext"));
    }

    /** A builder: chat mode, no hints, no output contract, all tools. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this request. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.requestId = requestId;
        builder.sessionId = sessionId;
        builder.traceId = traceId;
        builder.messages.addAll(messages);
        builder.mode = mode;
        builder.hints = hints;
        builder.output = output;
        builder.tools.addAll(tools);
        builder.callerTools.addAll(callerTools);
        builder.directive = directive;
        builder.traceContext = traceContext;
        return builder;
    }

    /**
     * Seed 001's INIT envelope check, which the facade runs before anything else.
     *
     * @return this request
     * @throws PaganticException {@code CONFIG_INVALID} when there are no messages; {@code CONFIG_SCHEMA_REQUIRED}
     *                           when the mode needs a schema ({@link Mode#requiresSchema()}) and the output contract
     *                           has none
     */
    public SystemRequest validate() {
        if (messages.isEmpty()) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "a request needs at least one message")
                    .detail("mode", mode.wireName()).build();
        }
        if (mode.requiresSchema() && !output.hasSchema()) {
            throw PaganticException.builder(ErrorCode.CONFIG_SCHEMA_REQUIRED,
                            "mode '" + mode.wireName() + "' needs a schema in the output contract")
                    .detail("mode", mode.wireName()).build();
        }
        return this;
    }

    /**
     * This request with an empty request id and trace id replaced by generated ones (seed 001: "assign correlation
     * ids if missing" at INIT). The session id is left as it is: empty means single-shot.
     */
    public SystemRequest withMissingIds(IdGenerator ids) {
        requireNonNull(ids, "ids");
        String request = requestId.isEmpty() ? requireText(ids.nextId(), "generated request id") : requestId;
        String trace = traceId.isEmpty() ? requireText(ids.nextId(), "generated trace id") : traceId;
        if (request.equals(requestId) && trace.equals(traceId)) {
            return this;
        }
        return new SystemRequest(request, sessionId, trace, messages, mode, hints, output, tools, callerTools,
                directive, traceContext);
    }

    /** Whether this request belongs to a conversation the facade keeps. */
    public boolean hasSession() {
        return !sessionId.isEmpty();
    }

    /** Whether the tool is allowed by the whitelist (an empty whitelist allows every tool). */
    public boolean allowsTool(String name) {
        return tools.isEmpty() || tools.contains(name);
    }

    /** Collects a request; {@link #build()} checks its structure. */
    public static final class Builder {
        private String requestId = "";
        private String sessionId = "";
        private String traceId = "";
        private final List<Message> messages = new ArrayList<>();
        private Mode mode = Mode.CHAT;
        private ExecutionHints hints = ExecutionHints.DEFAULTS;
        private OutputContract output = OutputContract.none();
        private final List<String> tools = new ArrayList<>();
        private final List<ToolDefinition> callerTools = new ArrayList<>();
        private Directive directive = Directive.NONE;
        private Map<String, String> traceContext = Map.of();

        private Builder() {
        }

        /** The request id; empty (the default) to have one generated at INIT. */
        public Builder requestId(String value) {
            this.requestId = requireNonNull(value, "requestId");
            return this;
        }

        /** The conversation id; empty (the default) for a single-shot request. */
        public Builder sessionId(String value) {
            this.sessionId = requireNonNull(value, "sessionId");
            return this;
        }

        /** The tracing root; empty (the default) to have one generated at INIT. */
        public Builder traceId(String value) {
            this.traceId = requireNonNull(value, "traceId");
            return this;
        }

        /** Appends a message. */
        public Builder message(Message value) {
            messages.add(requireNonNull(value, "message"));
            return this;
        }

        /** Appends a user message. */
        public Builder user(String content) {
            return message(Message.user(content));
        }

        /** Appends a system message. */
        public Builder system(String content) {
            return message(Message.system(content));
        }

        /** Appends messages. */
        public Builder messages(List<Message> values) {
            requireNonNull(values, "messages").forEach(this::message);
            return this;
        }

        /** The orchestration mode; {@link Mode#CHAT} by default. */
        public Builder mode(Mode value) {
            this.mode = requireNonNull(value, "mode");
            return this;
        }

        /** The execution hints; none by default. */
        public Builder hints(ExecutionHints value) {
            this.hints = requireNonNull(value, "hints");
            return this;
        }

        /** The output contract; {@link OutputContract#none()} by default. */
        public Builder output(OutputContract value) {
            this.output = requireNonNull(value, "output");
            return this;
        }

        /** Adds tool names to the whitelist (an empty whitelist allows every tool). */
        public Builder tools(String... names) {
            for (String name : requireNonNull(names, "tools")) {
                tools.add(requireNonNull(name, "tool name"));
            }
            return this;
        }

        /** Adds tool names to the whitelist. */
        public Builder tools(List<String> names) {
            return tools(requireNonNull(names, "tools").toArray(String[]::new));
        }

        /** Adds a tool the caller executes itself. */
        public Builder callerTool(ToolDefinition value) {
            callerTools.add(requireNonNull(value, "caller tool"));
            return this;
        }

        /** Adds tools the caller executes itself. */
        public Builder callerTools(List<ToolDefinition> values) {
            requireNonNull(values, "callerTools").forEach(this::callerTool);
            return this;
        }

        /** The multi-model modes' knobs; {@link Directive#NONE} by default. Never forwarded to a model. */
        public Builder directive(Directive value) {
            this.directive = requireNonNull(value, "directive");
            return this;
        }

        /**
         * The caller's trace-context headers as received (W3C {@code traceparent}, {@code tracestate}); none by
         * default. Never forwarded to a model.
         */
        public Builder traceContext(Map<String, String> headers) {
            this.traceContext = Map.copyOf(requireNonNull(headers, "traceContext"));
            return this;
        }

        /**
         * The request. Structural checks only; the envelope rules are {@link SystemRequest#validate()}.
         *
         * @throws PaganticException {@code CONFIG_INVALID} for a blank or duplicate tool name
         */
        public SystemRequest build() {
            return new SystemRequest(requestId, sessionId, traceId, messages, mode, hints, output, tools,
                    callerTools, directive, traceContext);
        }
    }
}
