package dev.pagantic.adapter.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.core.ToolCall;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.facade.FacadeJson;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jline.terminal.Terminal;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatLoopTest {

    private static final String USAGE_LINE =
            "\\[\\d+ prompt \\+ \\d+ output = \\d+ tokens, \\d+\\.\\d tokens/s.*, \\d+\\.\\d\\d s]";

    @Nested
    class Chat {

        @Test
        void aTurnStreamsTheAnswerWordByWordAndEndsWithTheUsage() {
            ChatHarness chat = ChatHarness.typing("hello").run(ScriptedEngine.builder()
                    .reply("Hello from the scripted model").build());

            assertThat(chat.output()).contains("you> Hello from the scripted model");
            // streamed: the screen showed the first words before the last one arrived
            assertThat(chat.snapshots())
                    .anyMatch(screen -> screen.contains("Hello from") && !screen.contains("model"));
            assertThat(chat.output().lines()).anyMatch(line -> line.matches(USAGE_LINE));
            assertThat(chat.output()).contains("[1 prompt + 5 output = 6 tokens");
        }

        @Test
        void aSessionKeepsTheConversationAcrossTurns() {
            ScriptedEngine engine = ScriptedEngine.builder().reply("first answer").reply("second answer").build();

            ChatHarness chat = ChatHarness.typing("one", "two").run(engine);

            assertThat(chat.loop().sessionId()).isEqualTo("s-1");
            assertThat(engine.requests().get(1).messages()).extracting(Message::content)
                    .containsSubsequence("one", "first answer", "two");
        }

        @Test
        void aToolCallAndItsResultAreShownAsTheyHappenBeforeTheAnswer() {
            ChatHarness chat = ChatHarness.typing("what's the weather in Paris?", "/history").run(
                    ScriptedEngine.builder()
                            .replyCallingTool("get_weather", Map.of("city", "Paris"))
                            .reply("It is sunny in Paris.")
                            .build());

            String output = chat.output();
            assertThat(output).containsSubsequence(
                    "⚙ calling get_weather {city=Paris}",
                    "  ↳ get_weather → Sunny and 21 °C in Paris",
                    "It is sunny in Paris.",
                    "[");
            // the call and its result were on screen before the answer streamed
            assertThat(chat.snapshots()).anyMatch(screen -> screen.contains("calling get_weather")
                    && !screen.contains("↳ get_weather") && !screen.contains("It is sunny"));
            assertThat(chat.snapshots()).anyMatch(screen ->
                    screen.contains("↳ get_weather") && !screen.contains("It is sunny"));
            assertThat(output).containsOnlyOnce("↳ get_weather");
            assertThat(output).contains("assistant: calls get_weather {city=Paris}",
                    "tool get_weather: Sunny and 21 °C in Paris", "assistant: It is sunny in Paris.");
        }

        @Test
        void thinkingToolCallsAndResultsAreSetApartFromTheAnswerText() {
            ChatHarness chat = ChatHarness.typing("weather in Paris and Oslo?").run(ScriptedEngine.builder()
                    .reply(Result.builder().reasoning("I should look both up.").toolCalls(List.of(
                            ToolCall.of("c1", "get_weather", Map.of("city", "Paris")),
                            ToolCall.of("c2", "get_weather", Map.of("city", "Oslo")))).build())
                    .replyWithReasoning("Both are known now.", "Sunny in both cities.")
                    .build());

            List<String> lines = chat.output().lines().toList();
            // the answer's line starts after the prompt
            int thinking = lines.indexOf("you> (thinking) I should look both up.");
            assertThat(thinking).as("the reasoning is marked as thinking").isNotNegative();
            assertThat(lines.subList(thinking + 1, thinking + 5)).containsExactly(
                    "⚙ calling get_weather {city=Paris}",
                    "  ↳ get_weather → Sunny and 21 °C in Paris",
                    "⚙ calling get_weather {city=Oslo}",
                    "  ↳ get_weather → Sunny and 21 °C in Oslo");
            assertThat(lines.subList(thinking + 5, thinking + 7)).containsExactly(
                    "(thinking) Both are known now.",
                    "Sunny in both cities.");
        }

        @Test
        void aFailedTurnShowsItsErrorCodeAndAddsNothingToTheHistory() {
            ChatHarness chat = ChatHarness.typing("hi", "/history").run(ScriptedEngine.builder()
                    .fail(ErrorCode.INFERENCE_ENGINE_ERROR, "the model crashed")
                    .build());

            assertThat(chat.output()).contains("✗ INFERENCE_ENGINE_ERROR: the model crashed", "no messages yet");
            assertThat(chat.loop().transcript()).isEmpty();
        }
    }

    @Nested
    class Keys {

        @Test
        void ctrlCWhileAReplyStreamsCancelsItAndTheChatGoesOn() {
            ChatHarness chat = ChatHarness.typing("tell me a long story", "are you there?", "/history");
            Terminal terminal = chat.terminal();
            ScriptedEngine engine = ScriptedEngine.builder()
                    .replyWith(request -> {
                        terminal.raise(Terminal.Signal.INT); // what Ctrl-C does while the model generates
                        return Result.of("once upon a time there was a long story", TokenUsage.of(5, 9));
                    })
                    .reply("Still here.")
                    .build();

            chat.run(engine);

            assertThat(chat.output()).containsSubsequence("you> ⏹ cancelled", "you> Still here.");
            assertThat(chat.output()).doesNotContain("once upon a time");
            // the cancelled turn left nothing behind, in the transcript or in the session
            assertThat(chat.loop().transcript()).extracting(Message::content)
                    .containsExactly("are you there?", "Still here.");
            assertThat(engine.requests().get(1).messages()).extracting(Message::content)
                    .doesNotContain("tell me a long story");
        }

        @Test
        void ctrlDEndsTheChat() {
            ChatHarness chat = ChatHarness.typingRaw("\u0004hello\n").run(ScriptedEngine.builder().build());

            assertThat(chat.status()).isZero();
            assertThat(chat.output()).endsWith("bye\n");
            assertThat(chat.loop().transcript()).isEmpty();
        }

        @Test
        void exitEndsTheChatBeforeTheRestOfTheInput() {
            ScriptedEngine engine = ScriptedEngine.builder().build();

            ChatHarness chat = ChatHarness.typing("/exit", "hello").run(engine);

            assertThat(chat.status()).isZero();
            assertThat(engine.callCount()).isZero();
        }
    }

    @Nested
    class Commands {

        @TempDir
        Path dir;

        @Test
        void toolsListsTheRegisteredTools() {
            ChatHarness chat = ChatHarness.typing("/tools").run(ScriptedEngine.builder().build());

            assertThat(chat.output()).contains("get_weather(city)  The current weather in a city");
        }

        @Test
        void resetStartsANewSessionWithoutTheOldConversation() {
            ScriptedEngine engine = ScriptedEngine.builder().reply("first answer").reply("second answer").build();

            ChatHarness chat = ChatHarness.typing("one", "/reset", "two", "/history").run(engine);

            assertThat(chat.output()).contains("new conversation, session s-2");
            assertThat(chat.loop().sessionId()).isEqualTo("s-2");
            assertThat(engine.requests().get(1).messages()).extracting(Message::content)
                    .contains("two").doesNotContain("one", "first answer");
            assertThat(chat.output()).contains("you: two").doesNotContain("you: one");
        }

        @Test
        void historyListsTheMessagesOfThisRun() {
            ChatHarness chat = ChatHarness.typing("/history", "one", "two", "/history").run(
                    ScriptedEngine.builder().reply("first answer").reply("second answer").build());

            assertThat(chat.output()).containsSubsequence("no messages yet",
                    "you: one", "assistant: first answer", "you: two", "assistant: second answer");
        }

        @Test
        void saveAndLoadRoundTripAConversationThroughAFile() throws IOException {
            Path file = dir.resolve("conversation.json");
            ChatHarness first = ChatHarness.typing("what's the weather in Paris?", "/save " + file).run(
                    ScriptedEngine.builder()
                            .replyCallingTool("get_weather", Map.of("city", "Paris"))
                            .reply("It is sunny in Paris.")
                            .build());
            List<Message> saved = FacadeJson.messagesFromJson(Files.readString(file, StandardCharsets.UTF_8));
            assertThat(first.output()).contains("saved 4 messages to " + file);
            assertThat(saved).isEqualTo(first.loop().transcript());
            assertThat(saved).extracting(Message::role)
                    .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL, Role.ASSISTANT);

            ScriptedEngine engine = ScriptedEngine.builder().reply("Yes, still sunny.").build();
            ChatHarness second = ChatHarness.typing("/load " + file, "and tomorrow?", "/history").run(engine);

            assertThat(second.output()).contains("loaded 4 messages from " + file + "; new session s-2");
            Request request = engine.lastRequest().orElseThrow();
            assertThat(request.messages().subList(request.messages().size() - 5, request.messages().size()))
                    .isEqualTo(concat(saved, Message.user("and tomorrow?")));
            assertThat(second.loop().transcript())
                    .isEqualTo(concat(concat(saved, Message.user("and tomorrow?")),
                            Message.assistant("Yes, still sunny.")));
            assertThat(second.output()).containsSubsequence("you: what's the weather in Paris?",
                    "tool get_weather: Sunny", "you: and tomorrow?", "assistant: Yes, still sunny.");
        }

        @Test
        void loadedMessagesGoOnlyWithTheFirstRequestOfTheNewSession() throws IOException {
            Path file = dir.resolve("conversation.json");
            Files.writeString(file, FacadeJson.messagesToJson(List.of(Message.user("old question"),
                    Message.assistant("old answer"))));
            ScriptedEngine engine = ScriptedEngine.builder().reply("a").reply("b").build();

            ChatHarness.typing("/load " + file, "new question", "another").run(engine);

            assertThat(engine.requests().get(1).messages()).extracting(Message::content)
                    .containsSubsequence("old question", "old answer", "new question", "a", "another")
                    .containsOnlyOnce("old question");
        }

        @Test
        void fileCommandsReportWhatWentWrong() {
            Path missing = dir.resolve("missing.json");

            ChatHarness chat = ChatHarness.typing("/load " + missing, "/save", "/schema " + missing, "/frobnicate")
                    .run(ScriptedEngine.builder().build());

            assertThat(chat.output()).contains("✗ " + missing, "usage: /save FILE", "unknown command /frobnicate");
        }

        @Test
        void schemaSwitchesToStructuredOutputAndOffSwitchesBack() throws IOException {
            Path schema = dir.resolve("city.json");
            Files.writeString(schema, """
                    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}""");
            ScriptedEngine engine = ScriptedEngine.builder()
                    .reply("Let me think about towers.") // the tool phase: the demo tool is registered
                    .reply("{\"city\": \"Paris\"}")
                    .reply("Back to chat.")
                    .build();

            ChatHarness chat = ChatHarness.typing("/schema " + schema, "Which city has the Eiffel tower?",
                    "/schema off", "hello").run(engine);

            assertThat(chat.output()).containsSubsequence(
                    "structured mode: answers are JSON conforming to " + schema,
                    "you [json]> structured output:", "{\n  \"city\" : \"Paris\"\n}", "[",
                    "chat mode", "you> Back to chat.");
            assertThat(chat.output()).doesNotContain("towers"); // only the validated JSON is shown
            // the structured turn ran outside the chat session
            assertThat(engine.requests().get(2).messages()).extracting(Message::content)
                    .contains("hello").doesNotContain("Which city has the Eiffel tower?");
        }

        @Test
        void aSchemaFileThatIsNotASupportedSchemaIsRefused() throws IOException {
            Path schema = dir.resolve("bad.json");
            Files.writeString(schema, "{\"type\": \"object\", \"nullable\": true}");

            ChatHarness chat = ChatHarness.typing("/schema " + schema, "/schema").run(ScriptedEngine.builder().build());

            assertThat(chat.output()).contains("✗ " + schema, "nullable", "chat mode; /schema FILE");
        }

        @Test
        void helpListsTheCommands() {
            ChatHarness chat = ChatHarness.typing("/help").run(ScriptedEngine.builder().build());

            assertThat(chat.output()).contains("/tools", "/reset", "/history", "/save FILE", "/load FILE",
                    "/schema FILE", "/exit");
        }
    }

    @Test
    void interruptOutsideAReplyDoesNothing() {
        ChatHarness chat = ChatHarness.typing().run(ScriptedEngine.builder().build());

        assertThat(chat.loop().interrupt()).isFalse();
        assertThat(chat.output()).doesNotContain("cancelled");
    }

    private static List<Message> concat(List<Message> messages, Message last) {
        return Stream.concat(messages.stream(), Stream.of(last)).toList();
    }
}
