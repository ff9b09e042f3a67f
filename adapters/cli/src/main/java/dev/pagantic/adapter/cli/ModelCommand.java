package dev.pagantic.adapter.cli;

import dev.pagantic.core.Message;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.RequestTimelines;
import dev.pagantic.orchestrate.facade.SystemError;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What the model-using subcommands share: the engine, request and prompt options, opening the engine, building the
 * orchestrator and the request, and printing the response or its error. A subcommand says which mode it runs, adds
 * its own configuration and renders a successful response.
 */
abstract class ModelCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ParentCommand
    PaganticCommand root;

    @Mixin
    RequestOptions request = new RequestOptions();

    @Mixin
    EngineOptions engine = new EngineOptions();

    @Parameters(paramLabel = "PROMPT", arity = "0..*",
            description = "The prompt (the words are joined with spaces); none or '-' reads it from standard input.")
    List<String> prompt = new ArrayList<>();

    final Invocation invocation;

    private final List<AutoCloseable> owned = new ArrayList<>();

    ModelCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    /**
     * Runs the command: reads and checks the hints, the command's own input (files, schema) and the prompt before
     * anything is loaded, then opens the engine, builds the orchestrator and runs.
     */
    @Override
    public final Integer call() {
        prepare();
        ExecutionHints hints = hints(request.hints());
        String text = readsPromptItself() ? "" : promptText();
        RequestTimelines timeline = RequestTimelines.create(16);
        try {
            connect();
            try (Engine opened = invocation.engines().open(engine.orElse(root.engine()), invocation)) {
                Orchestrator.Builder builder = Orchestrator.builder()
                        .engine(opened)
                        .eventLog(timeline);
                request.system().ifPresent(builder::systemPrompt);
                configure(builder);
                try (Orchestrator orchestrator = builder.build()) {
                    return run(orchestrator, timeline, hints, text);
                }
            }
        } finally {
            closeOwned();
        }
    }

    /** Closes what {@link #configure} created for the orchestrator, after the orchestrator, last first. */
    private void closeOwned() {
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).close();
            } catch (Exception e) {
                invocation.err().println("warning: closing " + owned.get(i) + " failed: " + e);
            }
        }
        owned.clear();
    }

    /** Registers a resource created in {@link #configure} to be closed when the command ends. */
    final <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** Reads and checks the command's own input before the engine is opened; nothing by default. */
    void prepare() {
    }

    /** The hints of the requests: the shared options' ({@code shared}) with the command's own added. */
    ExecutionHints hints(ExecutionHints shared) {
        return shared;
    }

    /**
     * Connects to what the command needs besides the engine (MCP servers), before the engine is opened, so that a bad
     * configuration fails before a model loads; what it opens is {@linkplain #own owned}. Nothing by default.
     */
    void connect() {
    }

    /** Adds the command's settings to the orchestrator; nothing by default. */
    void configure(Orchestrator.Builder builder) {
    }

    /** Whether the command reads its prompts itself (interactive chat) rather than from the arguments or stdin. */
    boolean readsPromptItself() {
        return false;
    }

    /**
     * Runs the request and returns the exit code; interactive chat runs one request per line instead.
     *
     * @param prompt the prompt; empty when {@link #readsPromptItself()}
     */
    int run(Orchestrator orchestrator, RequestTimelines timeline, ExecutionHints hints, String prompt) {
        SystemRequest.Builder req = SystemRequest.builder().hints(hints).message(Message.user(prompt));
        shape(req);
        return respond(orchestrator, req.build(), timeline);
    }

    /** Sets the mode and the output contract of the request. */
    abstract void shape(SystemRequest.Builder req);

    /** Prints a successful response in the plain rendering. */
    abstract void render(SystemResponse response);

    /** Where streamed output goes; nowhere ({@link StreamHandler#NOOP}) by default, chat prints it as it comes. */
    StreamHandler stream() {
        return StreamHandler.NOOP;
    }

    /** Executes one request, prints its response or error, and the timeline with --verbose; returns the exit code. */
    final int respond(Orchestrator orchestrator, SystemRequest req, RequestTimelines timeline) {
        invocation.inFlight().lock();
        try {
            return respondLocked(orchestrator, req, timeline);
        } finally {
            invocation.inFlight().unlock();
        }
    }

    private int respondLocked(Orchestrator orchestrator, SystemRequest req, RequestTimelines timeline) {
        SystemResponse response = judge(orchestrator.execute(req, request.json() ? StreamHandler.NOOP : stream(),
                invocation.cancellation()));
        if (request.json()) {
            invocation.out().println(FacadeJson.toJson(response));
        } else if (response.error().isEmpty()) {
            render(response);
        } else {
            renderPartial(response);
        }
        invocation.out().flush();
        if (request.verbose()) {
            invocation.err().println("events of request " + response.requestId() + ":");
            EventTimeline.render(timeline.of(response.requestId())).forEach(invocation.err()::println);
        }
        if (response.error().isPresent()) {
            SystemError error = response.error().get();
            invocation.err().println(PaganticCli.errorLine(error.code(), error.message()));
            invocation.err().flush();
            return ExitCodes.of(error.category());
        }
        invocation.err().flush();
        return ExitCodes.SUCCESS;
    }

    /** The response as the command judges it; a command may turn a success into a failure (vote's quorum). */
    SystemResponse judge(SystemResponse response) {
        return response;
    }

    /** What a failed response still has to show; nothing by default (chat ends the line it streamed). */
    void renderPartial(SystemResponse response) {
    }

    /**
     * The prompt: the arguments joined, or standard input when there are none or the one argument is {@code -}.
     *
     * @throws ParameterException (a usage error) when there is no prompt at all
     */
    final String promptText() {
        String text;
        if (prompt.isEmpty() || prompt.equals(List.of("-"))) {
            try {
                text = new String(invocation.in().readAllBytes(), StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the prompt from standard input", e);
            }
        } else {
            text = String.join(" ", prompt).strip();
        }
        if (text.isEmpty()) {
            throw new ParameterException(spec.commandLine(),
                    "no prompt: give it as arguments or on standard input");
        }
        return text;
    }
}
