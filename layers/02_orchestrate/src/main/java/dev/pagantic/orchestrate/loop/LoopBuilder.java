package dev.pagantic.orchestrate.loop;

import static dev.pagantic.core.Preconditions.require;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Preconditions;
import dev.pagantic.core.Role;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.ports.ContextPlacement;
import dev.pagantic.orchestrate.ports.ContextProvider;
import dev.pagantic.orchestrate.ports.PromptProvider;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Observer;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The setters every loop's builder shares, written once: the agent loop's, the specialized loop's, the redundant
 * loop's and the orchestrator's builders extend it and add only what is their own. {@code build()} of a subclass calls
 * {@link #loopSettings(String)}, which validates the settings and resolves them into one {@link LoopSettings}.
 *
 * @param <B> the concrete builder, returned by every setter so that calls chain
 */
public abstract class LoopBuilder<B extends LoopBuilder<B>> {

    private static final InferenceSettings DEFAULT_INFERENCE = InferenceSettings.builder()
            .maxTokens(LoopSettings.DEFAULT_MAX_TOKENS).build();

    private @Nullable Engine engine;
    private @Nullable ToolRegistry tools;
    private @Nullable ToolExecutor toolExecutor;
    private @Nullable String systemPrompt;
    private @Nullable PromptProvider promptProvider;
    private @Nullable Message systemMessage; // from shared settings
    private InferenceSettings inference = DEFAULT_INFERENCE;
    private int maxToolIterations = LoopSettings.DEFAULT_MAX_TOOL_ITERATIONS;
    private StreamHandler stream = StreamHandler.NOOP;
    private EventLog eventLog = EventLog.noOp();
    private @Nullable ContextProvider contextProvider;
    private @Nullable ContextPlacement contextPlacement;
    private Interceptor interceptor = Interceptor.NONE;
    private Observer observer = Observer.NONE;
    // whether the log and the interceptor, copied from resolved settings, include the observer already
    private boolean logObserved;
    private boolean interceptorObserved;
    private boolean createdExecutor;
    private @Nullable LoopSettings resolved; // set by loopSettings(value), forgotten by every setter after it

    /** For subclasses. */
    protected LoopBuilder() {
    }

    /** After a setter: the settings differ from any resolved ones. */
    @SuppressWarnings("unchecked")
    private B self() {
        resolved = null;
        return (B) this;
    }

    /** The inference backend (required). */
    public B engine(Engine value) {
        this.engine = value;
        return self();
    }

    /** The tools the model may call; none by default. */
    public B tools(@Nullable ToolRegistry value) {
        this.tools = value;
        return self();
    }

    /**
     * The executor that runs tool calls, usually shared by the application's loops and closed by it. When tools are
     * configured and no executor is given, one is created (recording its tool events in the event log) and closed
     * with the loop.
     */
    public B toolExecutor(@Nullable ToolExecutor value) {
        this.toolExecutor = value;
        return self();
    }

    /** The system prompt; none by default (a blank prompt means none). Exclusive with {@link #promptProvider}. */
    public B systemPrompt(@Nullable String value) {
        this.systemPrompt = value;
        return self();
    }

    /**
     * Where the system message comes from (the prompt layer's structured alternative to {@link #systemPrompt});
     * called once, when the loop is built, and must return a system message. Exclusive with {@link #systemPrompt}.
     */
    public B promptProvider(@Nullable PromptProvider value) {
        this.promptProvider = value;
        return self();
    }

    /**
     * The inference settings of every call (replacing the default, which is
     * {@value LoopSettings#DEFAULT_MAX_TOKENS} max tokens and the engine's defaults for the rest); a request's or a
     * step's settings are laid over them.
     */
    public B settings(InferenceSettings value) {
        this.inference = value;
        return self();
    }

    /** The most tokens per inference; {@value LoopSettings#DEFAULT_MAX_TOKENS} by default. */
    public B maxTokens(int value) {
        require(value > 0, "maxTokens must be positive: ", value);
        this.inference = inference.withMaxTokens(value);
        return self();
    }

    /** The most tool rounds per turn; {@value LoopSettings#DEFAULT_MAX_TOOL_ITERATIONS} by default. */
    public B maxToolIterations(int value) {
        this.maxToolIterations = value;
        return self();
    }

    /** Receives every inference's output as it is generated; none ({@link StreamHandler#NOOP}) by default. */
    public B stream(StreamHandler value) {
        this.stream = value;
        return self();
    }

    /** Where every event goes; a no-op log by default. */
    public B eventLog(EventLog value) {
        this.eventLog = value;
        this.logObserved = false;
        return self();
    }

    /** Retrieves context for each turn or call; none by default. */
    public B contextProvider(@Nullable ContextProvider value) {
        this.contextProvider = value;
        return self();
    }

    /**
     * Where the retrieved context goes, for example {@code ContextPlacement.of(contextPolicy)}; by default just before
     * the turn's user message (the specification's placement).
     */
    public B contextPlacement(@Nullable ContextPlacement value) {
        this.contextPlacement = value;
        return self();
    }

    /** Wraps every inference, tool call and plan step; {@link Interceptor#NONE} by default. */
    public B interceptor(Interceptor value) {
        this.interceptor = value;
        this.interceptorObserved = false;
        return self();
    }

    /**
     * Observes every request, agent turn, inference, tool call and plan step, and receives every event (the
     * OpenTelemetry and Micrometer adapters); {@link Observer#NONE} by default, which adds nothing to any call.
     * Set it before {@link #loopSettings(LoopSettings)} is copied from settings that have none.
     */
    public B observer(Observer value) {
        this.observer = value;
        return self();
    }

    /**
     * Every shared setting at once, from settings another loop or the orchestrator resolved; the setters called after
     * this one replace single values.
     */
    public B loopSettings(LoopSettings value) {
        this.engine = value.engine();
        this.tools = value.tools().orElse(null);
        this.toolExecutor = value.toolExecutor().orElse(null);
        this.systemPrompt = null;
        this.promptProvider = null;
        this.systemMessage = value.systemMessage().orElse(null);
        this.inference = value.inference();
        this.maxToolIterations = value.maxToolIterations();
        this.stream = value.stream();
        this.eventLog = value.eventLog();
        this.contextProvider = value.contextProvider().orElse(null);
        this.contextPlacement = value.contextPlacement().orElse(null);
        this.interceptor = value.interceptor();
        this.observer = value.observer();
        this.logObserved = true;
        this.interceptorObserved = true;
        B self = self();
        this.resolved = value; // already validated: a loop built on these settings alone takes them as they are
        return self;
    }

    /**
     * The validated settings; for subclasses' {@code build()}. A missing engine is {@code CONFIG_NO_ENGINE}, other
     * invalid settings {@code CONFIG_INVALID} naming the owner. Creates the tool executor when tools have none (see
     * {@link #createdExecutor()}).
     *
     * @param owner what is being built, for messages ("AgentLoop")
     */
    protected final LoopSettings loopSettings(String owner) {
        if (resolved != null) {
            createdExecutor = false;
            return resolved;
        }
        if (engine == null) {
            throw PaganticException.of(ErrorCode.CONFIG_NO_ENGINE, "a " + owner + " needs an inference engine");
        }
        check(inference != null, owner, "settings must not be null");
        if (maxToolIterations <= 0) {
            check(false, owner, "maxToolIterations must be positive: " + maxToolIterations);
        }
        check(stream != null, owner, "stream must not be null (use StreamHandler.NOOP)");
        check(eventLog != null, owner, "eventLog must not be null (use EventLog.noOp())");
        check(interceptor != null, owner, "interceptor must not be null (use Interceptor.NONE)");
        check(observer != null, owner, "observer must not be null (use Observer.NONE)");
        Optional<Message> system = systemMessage(owner);
        boolean observe = observer != Observer.NONE;
        EventLog log = !observe || logObserved || observer.eventLog() == EventLog.noOp() ? eventLog
                : EventLog.tee(eventLog, observer.eventLog());
        Interceptor intercepting = !observe || interceptorObserved ? interceptor
                : interceptor == Interceptor.NONE ? observer : Interceptor.chain(observer, interceptor);
        createdExecutor = tools != null && toolExecutor == null;
        ToolExecutor executor = createdExecutor ? ToolEvents.observedExecutor(log) : toolExecutor;
        return new LoopSettings(engine, Optional.ofNullable(tools), Optional.ofNullable(tools == null ? null
                : executor),
                system, inference, maxToolIterations, stream, log, Optional.ofNullable(contextProvider),
                Optional.ofNullable(contextPlacement), intercepting, observer);
    }

    /** Whether the last {@link #loopSettings(String)} created the tool executor, which the built loop then owns. */
    protected final boolean createdExecutor() {
        return createdExecutor;
    }

    /** {@code CONFIG_INVALID} "invalid {owner} configuration: {problem}" unless the condition holds. */
    private static void check(boolean condition, String owner, String problem) {
        if (!condition) {
            throw Preconditions.invalid("invalid " + owner + " configuration: " + problem);
        }
    }

    private Optional<Message> systemMessage(String owner) {
        boolean hasPrompt = systemPrompt != null && !systemPrompt.isBlank();
        check(!(hasPrompt && promptProvider != null), owner,
                "configure either a systemPrompt or a promptProvider, not both");
        if (hasPrompt) {
            return Optional.of(Message.system(systemPrompt));
        }
        if (promptProvider != null) {
            Message message = promptProvider.buildSystemPrompt();
            check(message != null && message.role() == Role.SYSTEM, owner,
                    "the promptProvider must return a system message");
            return Optional.of(message);
        }
        return Optional.ofNullable(systemMessage);
    }
}
