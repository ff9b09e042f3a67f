package dev.pagantic.adapter.tui;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ToolCallRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jspecify.annotations.Nullable;

/**
 * The terminal chat: reads lines from a JLine {@link Terminal}, sends each message to the {@link Orchestrator} in chat
 * mode (one session per run, until {@code /reset} or {@code /load}), or in structured mode after {@code /schema FILE},
 * and renders the reply as it streams ({@link TurnPrinter}). Lines starting with {@code /} are commands; {@code /help}
 * lists them.
 *
 * <p>Keys: Ctrl-C while a reply is generated cancels that reply (the terminal's INT signal cancels the turn's
 * {@link Cancellation}; the turn ends with {@code ⏹ cancelled} and the chat goes on); Ctrl-C at the prompt clears the
 * line; Ctrl-D at the prompt ends the chat, like {@code /exit}.
 *
 * <p>The loop keeps its own transcript of the run ({@code /history}, {@code /save}): each successful turn's user
 * message, the tool calls made with their results, and the answer. A failed or cancelled turn adds nothing, as the
 * orchestrator rolls the session back too. A loaded conversation ({@code /load}) starts a new session whose first
 * request carries the loaded messages before the next prompt.
 *
 * <p>{@link #run()} returns instead of exiting, so that the loop runs in tests over a dumb terminal; it is not
 * thread-safe and runs one chat at a time.
 */
public final class ChatLoop {

    private static final String HELP = """
            commands:
              /tools          the registered tools
              /reset          start a new conversation (new session)
              /history        the messages of this run so far
              /save FILE      save the conversation as JSON
              /load FILE      load a saved conversation; it goes with your next message, in a new session
              /schema FILE    answer in structured mode with this JSON Schema; /schema off goes back to chat
              /help           this text
              /exit           leave (or Ctrl-D)
            Ctrl-C cancels a reply while it is generated, or clears the line at the prompt.""";

    private final Terminal terminal;
    private final PrintWriter out;
    private final Orchestrator orchestrator;
    private final List<ToolDefinition> tools;
    private final Supplier<String> sessionIds;
    private final ExecutionHints hints;
    private final AtomicReference<@Nullable Cancellation> running = new AtomicReference<>();
    private final List<Message> transcript = new ArrayList<>();
    private final List<Message> pending = new ArrayList<>();
    private String sessionId;
    private @Nullable Schema schema; // null: chat mode
    private @Nullable String schemaFile;

    private ChatLoop(Builder builder) {
        this.terminal = builder.terminal;
        this.out = terminal.writer();
        this.orchestrator = builder.orchestrator;
        this.tools = List.copyOf(builder.tools);
        this.sessionIds = builder.sessionIds;
        this.hints = builder.hints;
        this.sessionId = nextSessionId();
    }

    /** Starts building a loop; a terminal and an orchestrator are required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs the chat until {@code /exit}, Ctrl-D or the end of the terminal's input.
     *
     * @return the exit status: 0
     */
    public int run() {
        LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("pagantic")
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true) // a '!' in a message is just a '!'
                .build();
        Terminal.SignalHandler previous = terminal.handle(Terminal.Signal.INT, signal -> interrupt());
        try {
            out.println("pagantic chat, session " + sessionId + ". /help lists the commands; Ctrl-C cancels a reply,"
                    + " Ctrl-D leaves.");
            out.flush();
            while (true) {
                String line;
                try {
                    line = reader.readLine(prompt());
                } catch (UserInterruptException clearedLine) {
                    continue;
                } catch (EndOfFileException endOfInput) {
                    out.println();
                    break;
                }
                if (!handle(line.strip())) {
                    break;
                }
            }
            out.println("bye");
            return 0;
        } finally {
            terminal.handle(Terminal.Signal.INT, previous);
            out.flush();
        }
    }

    /** The session of the next chat message. */
    public String sessionId() {
        return sessionId;
    }

    /** The messages of this run so far (the transcript that {@code /save} writes); a snapshot. */
    public List<Message> transcript() {
        return List.copyOf(transcript);
    }

    /**
     * Cancels the reply being generated, if any: what Ctrl-C does (the terminal's INT signal). Safe from any thread.
     *
     * @return whether a reply was being generated
     */
    public boolean interrupt() {
        Cancellation cancellation = running.get();
        if (cancellation == null) {
            return false;
        }
        cancellation.cancel("interrupted with Ctrl-C");
        return true;
    }

    private String prompt() {
        return schema == null ? "you> " : "you [json]> ";
    }

    /** Handles a line; false when the chat should end. */
    private boolean handle(String line) {
        if (line.isEmpty()) {
            return true;
        }
        if (!line.startsWith("/")) {
            turn(line);
            return true;
        }
        String[] parts = line.split("\\s+", 2);
        String argument = parts.length > 1 ? parts[1].strip() : "";
        switch (parts[0]) {
            case "/exit", "/quit" -> {
                return false;
            }
            case "/help" -> out.println(HELP);
            case "/tools" -> listTools();
            case "/reset" -> reset();
            case "/history" -> history();
            case "/save" -> withFile(argument, "/save FILE", this::save);
            case "/load" -> withFile(argument, "/load FILE", this::load);
            case "/schema" -> schema(argument);
            default -> out.println("unknown command " + parts[0] + "; /help lists the commands");
        }
        out.flush();
        return true;
    }

    // ---------------------------------------------------------------------------------------------------- turns

    private void turn(String text) {
        boolean structured = schema != null;
        SystemRequest.Builder request = SystemRequest.builder().hints(hints);
        if (structured) {
            // structured mode answers the last user message on its own; it keeps no session
            request.mode(Mode.STRUCTURED).output(OutputContract.of(schema));
        } else {
            request.sessionId(sessionId).messages(pending);
        }
        request.user(text);
        TurnPrinter printer = new TurnPrinter(out, structured);
        Cancellation cancellation = new Cancellation();
        running.set(cancellation);
        long started = System.nanoTime();
        SystemResponse response;
        try {
            // a chat turn is drawn from its agent events, a structured one (which has none) from its stream
            response = structured ? orchestrator.execute(request.build(), printer, cancellation)
                    : orchestrator.execute(request.build(), StreamHandler.NOOP, printer, cancellation);
        } finally {
            running.set(null);
        }
        printer.finish(response, Duration.ofNanos(System.nanoTime() - started));
        if (response.isSuccess()) {
            record(text, response);
            if (!structured) {
                pending.clear();
            }
        }
    }

    /** Adds a successful turn to the transcript: the user message, the tool calls with their results, the answer. */
    private void record(String text, SystemResponse response) {
        transcript.add(Message.user(text));
        List<ToolCallRecord> calls = response.toolCallsMade();
        if (!calls.isEmpty()) {
            transcript.add(Message.assistant("", calls.stream().map(ToolCallRecord::toolCall).toList()));
            for (ToolCallRecord call : calls) {
                transcript.add(Message.toolResult(call.id(), call.name(), call.result()));
            }
        }
        transcript.add(Message.assistant(response.content()));
    }

    // ------------------------------------------------------------------------------------------------- commands

    private void listTools() {
        if (tools.isEmpty()) {
            out.println("no tools are registered");
            return;
        }
        for (ToolDefinition tool : tools) {
            Object properties = tool.parameters().toJsonSchema().get("properties");
            String parameters = properties instanceof Map<?, ?> map
                    ? map.keySet().stream().map(String::valueOf).collect(Collectors.joining(", ")) : "";
            out.println("  " + tool.name() + "(" + parameters + ")  " + tool.description());
        }
    }

    private void reset() {
        sessionId = nextSessionId();
        transcript.clear();
        pending.clear();
        out.println("new conversation, session " + sessionId);
    }

    private void history() {
        if (transcript.isEmpty()) {
            out.println("no messages yet");
            return;
        }
        for (Message message : transcript) {
            out.println(describe(message));
        }
    }

    private static String describe(Message message) {
        return switch (message.role()) {
            case SYSTEM -> "system: " + message.content();
            case USER -> "you: " + message.content();
            case ASSISTANT -> {
                List<String> parts = new ArrayList<>();
                if (!message.content().isEmpty()) {
                    parts.add(message.content());
                }
                for (ToolCall call : message.toolCalls()) {
                    parts.add("calls " + call.name() + " " + call.arguments());
                }
                yield "assistant: " + String.join("; ", parts);
            }
            case TOOL -> "tool " + message.name() + ": " + message.content();
        };
    }

    private void save(Path file) throws IOException {
        Files.writeString(file, FacadeJson.messagesToJson(transcript), StandardCharsets.UTF_8);
        out.println("saved " + transcript.size() + " messages to " + file);
    }

    private void load(Path file) throws IOException {
        List<Message> loaded = FacadeJson.messagesFromJson(Files.readString(file, StandardCharsets.UTF_8));
        sessionId = nextSessionId();
        transcript.clear();
        transcript.addAll(loaded);
        pending.clear();
        pending.addAll(loaded);
        out.println("loaded " + loaded.size() + " messages from " + file + "; new session " + sessionId
                + ", they go with your next message");
    }

    private void schema(String argument) {
        if (argument.isEmpty()) {
            out.println(schema == null ? "chat mode; /schema FILE switches to structured mode"
                    : "structured mode with " + schemaFile + "; /schema off goes back to chat");
            return;
        }
        if (argument.equals("off")) {
            schema = null;
            schemaFile = null;
            out.println("chat mode");
            return;
        }
        withFile(argument, "/schema FILE", file -> {
            Schema loaded = Schema.fromJsonSchema(JsonText.object(Files.readString(file, StandardCharsets.UTF_8),
                    "the schema file"));
            schema = loaded;
            schemaFile = file.toString();
            out.println("structured mode: answers are JSON conforming to " + file + " (/schema off to leave)");
        });
    }

    /** Runs a file command, reporting a missing argument, an unreadable file or a bad content as one line. */
    private void withFile(String argument, String usage, FileAction action) {
        if (argument.isEmpty()) {
            out.println("usage: " + usage);
            return;
        }
        Path file;
        try {
            file = Path.of(argument);
        } catch (InvalidPathException badPath) {
            out.println("✗ not a file name: " + argument);
            return;
        }
        try {
            action.run(file);
        } catch (IOException failed) {
            out.println("✗ " + file + ": " + (failed.getMessage() == null ? failed : failed.getMessage()));
        } catch (PaganticException invalid) {
            out.println("✗ " + file + ": " + invalid.getMessage());
        }
    }

    private String nextSessionId() {
        return Objects.requireNonNull(sessionIds.get(), "session id");
    }

    @FunctionalInterface
    private interface FileAction {
        void run(Path file) throws IOException;
    }

    /** Builds a {@link ChatLoop}; {@link #build()} checks that the terminal and orchestrator are set. */
    public static final class Builder {
        private @Nullable Terminal terminal;
        private @Nullable Orchestrator orchestrator;
        private List<ToolDefinition> tools = List.of();
        private Supplier<String> sessionIds = () -> "tui-" + UUID.randomUUID();
        private ExecutionHints hints = ExecutionHints.builder().build();

        private Builder() {
        }

        /** The hints of every turn (its deadline, for one); the orchestrator's settings by default. */
        public Builder hints(ExecutionHints value) {
            this.hints = value;
            return this;
        }

        /** The terminal to chat on (required); the loop reads lines from it and writes to its writer. */
        public Builder terminal(Terminal value) {
            this.terminal = value;
            return this;
        }

        /** The orchestrator that answers (required). */
        public Builder orchestrator(Orchestrator value) {
            this.orchestrator = value;
            return this;
        }

        /** The definitions of the tools registered in the orchestrator, for {@code /tools}; none by default. */
        public Builder tools(List<ToolDefinition> value) {
            this.tools = value;
            return this;
        }

        /** Where session ids come from; {@code tui-} and a random UUID by default. */
        public Builder sessionIds(Supplier<String> value) {
            this.sessionIds = value;
            return this;
        }

        /**
         * The loop.
         *
         * @throws PaganticException {@code CONFIG_INVALID} when the terminal, orchestrator, tools or id source is
         *                           missing
         */
        public ChatLoop build() {
            if (terminal == null || orchestrator == null || tools == null || sessionIds == null || hints == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a chat loop needs a terminal, an orchestrator,"
                        + " tool definitions and a session id source");
            }
            return new ChatLoop(this);
        }
    }
}
