package dev.pagantic.adapter.tui;

import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.Orchestrator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jline.terminal.Attributes;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;

/**
 * A chat over JLine's dumb terminal on piped streams: the input is the whole session typed in advance (its end is
 * Ctrl-D), and every flush of the output is kept, so a test can see what was on screen while a reply streamed. A dumb
 * terminal does not echo what is typed, so the output holds prompts and answers only.
 */
final class ChatHarness {

    private final RecordingOutput output = new RecordingOutput();
    private final Terminal terminal;
    private final AtomicInteger sessions = new AtomicInteger();
    private ChatLoop loop;
    private int status = -1;

    private ChatHarness(String input) {
        try {
            terminal = new DumbTerminal("test", Terminal.TYPE_DUMB,
                    new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), output, StandardCharsets.UTF_8);
            // Ctrl-D is end of input, as on a real terminal (a dumb terminal has no control characters set)
            Attributes attributes = terminal.getAttributes();
            attributes.setControlChar(Attributes.ControlChar.VEOF, 4);
            terminal.setAttributes(attributes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A harness whose input is these lines, each ended with Enter. */
    static ChatHarness typing(String... lines) {
        return new ChatHarness(lines.length == 0 ? "" : String.join("\n", lines) + "\n");
    }

    /** A harness whose input is exactly this text (control characters included). */
    static ChatHarness typingRaw(String input) {
        return new ChatHarness(input);
    }

    Terminal terminal() {
        return terminal;
    }

    /** Runs the chat to the end of the input on an orchestrator over the engine, with the demo tool registered. */
    ChatHarness run(Engine engine) {
        return run(engine, builder -> builder);
    }

    /** Runs the chat; the function may change the orchestrator's settings. */
    ChatHarness run(Engine engine, Function<Orchestrator.Builder, Orchestrator.Builder> settings) {
        ToolSet tools = DemoTools.register(ToolSet.builder()).build();
        try (Orchestrator orchestrator = settings.apply(Orchestrator.builder().engine(engine)
                .tools(tools.registry())).build()) {
            loop = ChatLoop.builder().terminal(terminal).orchestrator(orchestrator).tools(tools.definitions())
                    .sessionIds(() -> "s-" + sessions.incrementAndGet()).build();
            status = loop.run();
        }
        return this;
    }

    /** Runs the chat the way {@code main} wires it from a command line, on this harness's terminal. */
    ChatHarness runMain(TuiOptions options) {
        status = TuiMain.chat(options, terminal);
        return this;
    }

    ChatLoop loop() {
        return loop;
    }

    int status() {
        return status;
    }

    /** Everything written to the terminal. */
    String output() {
        terminal.flush();
        return output.text();
    }

    /** The screen at every flush, in order. */
    List<String> snapshots() {
        return output.snapshots();
    }

    private static final class RecordingOutput extends ByteArrayOutputStream {
        private final List<String> snapshots = new ArrayList<>();

        @Override
        public synchronized void flush() {
            snapshots.add(text());
        }

        synchronized String text() {
            return toString(StandardCharsets.UTF_8);
        }

        synchronized List<String> snapshots() {
            return List.copyOf(snapshots);
        }
    }
}
