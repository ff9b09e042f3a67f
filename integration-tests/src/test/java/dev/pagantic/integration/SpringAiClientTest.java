package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.ai.chat.client.AdvisorParams;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.tool.function.FunctionToolCallback;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring AI 2.0.1's OpenAI chat model (on the official openai-java SDK), built as its users build it without Spring
 * Boot (base URL, key and model in the options), and its {@code ChatClient}, against pagantic's server on
 * stories260K: a call, a stream, a required tool call returned to the caller, and a record through native structured
 * output.
 */
class SpringAiClientTest {

    @RegisterExtension
    static final RealModelServer api = new RealModelServer();

    private static OpenAiChatOptions.Builder options() {
        return OpenAiChatOptions.builder().baseUrl(api.baseUrl() + "/v1").apiKey(RealModelServer.API_KEY)
                .model(RealModelServer.CLIENT_MODEL).maxRetries(0);
    }

    private static ChatClient client(OpenAiChatOptions options) {
        return ChatClient.create(OpenAiChatModel.builder().options(options).build());
    }

    @Test
    void aChatClientCallAnswersWithTheModelsText() {
        ChatResponse response = client(options().maxTokens(24).build()).prompt().user("Once upon a time").call()
                .chatResponse();

        assertThat(response.getResult().getOutput().getText()).isNotBlank();
        assertThat(response.getMetadata().getUsage().getCompletionTokens()).isPositive();
    }

    @Test
    void aStreamedChatArrivesInPieces() {
        List<String> pieces = client(options().maxTokens(24).build()).prompt().user("Once upon a time").stream()
                .content().collectList().block();

        assertThat(pieces).hasSizeGreaterThan(1);
        assertThat(String.join("", pieces)).isNotBlank();
    }

    /** The tool's input; Spring AI derives the tool's parameter schema from it. */
    enum City { PARIS, LONDON }

    record WeatherRequest(City city) {
    }

    @Test
    void aRequiredToolCallComesBackFromTheChatModelWithItsArguments() {
        FunctionToolCallback<WeatherRequest, String> weather = FunctionToolCallback
                .builder("get_weather", (WeatherRequest request) -> "Sunny")
                .description("The weather in a city").inputType(WeatherRequest.class).build();
        // The chat model itself returns the calls: in Spring AI 2 tools are run by the ChatClient's advisor.
        OpenAiChatModel model = OpenAiChatModel.builder().options(options().build()).build();
        OpenAiChatOptions options = options().toolCallbacks(weather).toolChoice("required").parallelToolCalls(false)
                .maxTokens(1200).temperature(0.0).build();

        ChatResponse response = model.call(new Prompt("What is the weather in Paris?", options));

        List<AssistantMessage.ToolCall> calls = response.getResult().getOutput().getToolCalls();
        assertThat(calls).hasSize(1);
        assertThat(calls.get(0).name()).isEqualTo("get_weather");
        assertThat(JsonMapper.builder().build().readTree(calls.get(0).arguments()).path("city").asString())
                .isIn("PARIS", "LONDON");
    }

    enum Sentiment { POSITIVE, NEGATIVE }

    record Mood(Sentiment sentiment, boolean happy) {
    }

    @Test
    void anEntityComesBackThroughNativeStructuredOutput() {
        Mood mood = client(options().maxTokens(1200).temperature(0.0).build()).prompt()
                .advisors(AdvisorParams.ENABLE_NATIVE_STRUCTURED_OUTPUT).user("I love it!").call().entity(Mood.class);

        assertThat(mood).isNotNull();
        assertThat(mood.sentiment()).isNotNull();
    }
}
