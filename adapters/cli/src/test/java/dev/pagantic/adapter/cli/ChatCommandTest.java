package dev.pagantic.adapter.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.inference.Request;
import dev.pagantic.testkit.ScriptedEngine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatCommandTest {

    @Test
    void aPromptFromTheArgumentsIsAnsweredOnStdoutAsTheReplyStreams() {
        Cli.Run run = Cli.run("chat", "--scripted", "Hello there, dear friend.", "Say", "hello");

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("Hello there, dear friend." + System.lineSeparator());
        // Streamed: each word was flushed on its own, not the reply at once.
        assertThat(run.flushedChunks()).hasSizeGreaterThan(3);
        assertThat(run.flushedChunks().get(0)).isEqualTo("Hello");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void engineOptionsMayComeBeforeTheCommandName() {
        Cli.Run run = Cli.run("--scripted", "Before the name.", "chat", "hi");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("Before the name.");
    }

    @Test
    void withoutAPromptArgumentThePromptIsReadFromStandardInput() {
        ScriptedEngine engine = ScriptedEngine.replying("Read it.");

        Cli.Run run = Cli.runWithEngine(engine, "What is on stdin?\n", "chat");

        assertThat(run.code()).isZero();
        assertThat(lastUserMessage(engine.requests().get(0))).isEqualTo("What is on stdin?");
    }

    @Test
    void aDashReadsThePromptFromStandardInputToo() {
        ScriptedEngine engine = ScriptedEngine.replying("Read it.");

        Cli.Run run = Cli.runWithEngine(engine, "from the pipe", "chat", "-");

        assertThat(run.code()).isZero();
        assertThat(lastUserMessage(engine.requests().get(0))).isEqualTo("from the pipe");
    }

    @Test
    void noPromptAtAllIsAUsageError() {
        Cli.Run run = Cli.runWithInput("", "chat", "--scripted", "unused");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("no prompt");
    }

    @Test
    void theSystemPromptAndTheHintsReachTheEngine() {
        ScriptedEngine engine = ScriptedEngine.replying("ok");

        Cli.Run run = Cli.runWithEngine(engine, "", "chat", "--system", "Be brief.", "--max-tokens", "7",
                "--temperature", "0.25", "--top-p", "0.5", "question");

        assertThat(run.code()).isZero();
        Request request = engine.requests().get(0);
        assertThat(request.messages().get(0)).isEqualTo(Message.system("Be brief."));
        assertThat(request.settings().maxTokens()).isEqualTo(7);
        assertThat(request.settings().temperature()).hasValue(0.25);
        assertThat(request.settings().topP()).hasValue(0.5);
    }

    @Test
    void engineOptionsAndTheToolChoiceReachTheEngineAsJsonScalars() {
        ScriptedEngine engine = ScriptedEngine.replying("ok");

        Cli.Run run = Cli.runWithEngine(engine, "", "chat", "--option", "top_k=40", "--option", "min_p=0.05",
                "--option", "parallel_tool_calls=false", "--option", "grammar_mode=lazy", "question");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(engine.requests().get(0).settings().options()).containsEntry("top_k", 40L)
                .containsEntry("min_p", 0.05).containsEntry("parallel_tool_calls", false)
                .containsEntry("grammar_mode", "lazy");
    }

    @Test
    void mcpConfigNeedsTheMcpClientThatOnlyTheDistributionBrings() {
        Cli.Run run = Cli.run("--scripted", "unused", "chat", "--mcp-config", "mcp.json", "hi");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("CONFIG_INVALID", "--mcp-config needs the MCP client");
    }

    @Test
    void aToolWhitelistWithoutAnMcpConfigIsAUsageError() {
        Cli.Run run = Cli.run("--scripted", "unused", "chat", "--tools", "echo", "hi");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--tools needs tools: give --mcp-config FILE");
    }

    @Test
    void interactiveChatIsOneSessionInWhichTurnTwoSeesTurnOne() {
        ScriptedEngine engine = ScriptedEngine.replying("Nice to meet you, Ann.", "Your name is Ann.");

        Cli.Run run = Cli.runWithEngine(engine, "My name is Ann.\n\nWhat is my name?\n", "chat", "--interactive");

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("Nice to meet you, Ann." + System.lineSeparator()
                + "Your name is Ann." + System.lineSeparator());
        List<Message> secondTurn = engine.requests().get(1).messages();
        assertThat(secondTurn).extracting(Message::content)
                .containsSubsequence("My name is Ann.", "Nice to meet you, Ann.", "What is my name?");
    }

    @Test
    void interactiveChatShowsTheGrowingHistoryInTheVerboseTimeline() {
        Cli.Run run = Cli.runWithInput("first\nsecond\n", "chat", "-i", "-v", "--scripted", "one", "--scripted",
                "two");

        assertThat(run.code()).isZero();
        // The inference_start event counts the messages sent: 1 in turn one, 3 (user, assistant, user) in turn two.
        assertThat(run.err()).containsSubsequence("inference/inference_start", "message_count=1",
                "inference/inference_start", "message_count=3");
    }

    @Test
    void interactiveChatStopsAtExit() {
        ScriptedEngine engine = ScriptedEngine.replying("one", "two");

        Cli.Run run = Cli.runWithEngine(engine, "first\n/exit\nnever sent\n", "chat", "-i");

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("one" + System.lineSeparator());
        assertThat(engine.requests()).hasSize(1);
    }

    @Test
    void interactiveChatWithAPromptArgumentIsAUsageError() {
        Cli.Run run = Cli.run("chat", "-i", "--scripted", "x", "hello");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--interactive reads the prompts from standard input");
    }

    @Test
    void aFailedTurnIsReportedAndTheConversationGoesOn() {
        // The second turn finds the script exhausted: INFERENCE_ENGINE_ERROR.
        Cli.Run run = Cli.runWithInput("first\nsecond\n", "chat", "-i", "--scripted", "one");

        assertThat(run.code()).isEqualTo(ExitCodes.INFERENCE);
        assertThat(run.out()).startsWith("one");
        assertThat(run.err()).contains("error: INFERENCE_ENGINE_ERROR (InferenceFailure): ");
    }

    @Test
    void aSessionDirectoryKeepsTheConversationAcrossRuns(@TempDir Path sessions) {
        ScriptedEngine first = ScriptedEngine.replying("Noted: blue.");
        ScriptedEngine second = ScriptedEngine.replying("Blue.");
        String dir = sessions.toString();

        assertThat(Cli.runWithEngine(first, "", "chat", "--session", "s-1", "--session-dir", dir,
                "My favourite colour is blue.").code()).isZero();
        assertThat(Cli.runWithEngine(second, "", "chat", "--session", "s-1", "--session-dir", dir,
                "What is my favourite colour?").code()).isZero();

        assertThat(second.requests().get(0).messages()).extracting(Message::content)
                .containsSubsequence("My favourite colour is blue.", "Noted: blue.", "What is my favourite colour?");
    }

    @Test
    void aSessionDirectoryWithoutASessionIsAUsageError(@TempDir Path sessions) {
        Cli.Run run = Cli.run("chat", "--session-dir", sessions.toString(), "--scripted", "x", "hi");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--session-dir needs --session");
    }

    @Test
    void jsonPrintsTheWholeResponseInsteadOfStreaming() {
        Cli.Run run = Cli.run("chat", "--json", "--scripted", "As JSON.", "hi");

        assertThat(run.code()).isZero();
        assertThat(run.out()).startsWith("{").contains("\"content\":\"As JSON.\"").contains("\"finish_reason\"");
    }

    private static String lastUserMessage(Request request) {
        return request.messages().stream().filter(m -> m.role() == Role.USER).reduce((a, b) -> b).orElseThrow()
                .content();
    }
}
