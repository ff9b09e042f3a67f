package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

/**
 * LangChain4j 1.19.0's OpenAI client, configured as its users configure it for an OpenAI-compatible server (base URL,
 * key, model name), against pagantic's server on stories260K: a chat, a streamed chat, a tool call and its result,
 * and an AI service that returns a record through a JSON schema response format.
 */
class LangChain4jClientTest {

    @RegisterExtension
    static final RealModelServer api = new RealModelServer();

    private static OpenAiChatModel.OpenAiChatModelBuilder chatModel() {
        return OpenAiChatModel.builder().baseUrl(api.baseUrl() + "/v1").apiKey(RealModelServer.API_KEY)
                .modelName(RealModelServer.CLIENT_MODEL).timeout(Duration.ofMinutes(2)).maxRetries(0);
    }

    @Test
    void aChatAnswersWithTheModelsTextAndUsage() {
        ChatModel model = chatModel().maxTokens(24).build();

        ChatResponse response = model.chat(ChatRequest.builder().messages(UserMessage.from("Once upon a time"))
                .build());

        assertThat(response.aiMessage().text()).isNotBlank();
        assertThat(response.tokenUsage().outputTokenCount()).isPositive();
        assertThat(response.modelName()).isEqualTo(RealModelServer.CLIENT_MODEL);
    }

    @Test
    void aStreamedChatArrivesInPartsAndCompletes() throws Exception {
        OpenAiStreamingChatModel model = OpenAiStreamingChatModel.builder().baseUrl(api.baseUrl() + "/v1")
                .apiKey(RealModelServer.API_KEY).modelName(RealModelServer.CLIENT_MODEL).maxTokens(24)
                .timeout(Duration.ofMinutes(2)).build();
        AtomicInteger parts = new AtomicInteger();
        StringBuilder text = new StringBuilder();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();

        model.chat("Once upon a time", new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partial) {
                parts.incrementAndGet();
                text.append(partial);
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                done.complete(response);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }
        });

        ChatResponse response = done.get(2, TimeUnit.MINUTES);
        assertThat(parts.get()).isGreaterThan(1);
        assertThat(response.aiMessage().text()).isEqualTo(text.toString()).isNotBlank();
    }

    @Test
    void aRequiredToolCallComesBackAsAToolExecutionRequestAndItsResultIsAnswered() {
        ChatModel model = chatModel().parallelToolCalls(false).strictTools(true).build();
        ToolSpecification weather = ToolSpecification.builder().name("get_weather").description("The weather in a city")
                .parameters(JsonObjectSchema.builder().addEnumProperty("city", List.of("Paris", "London"))
                        .required("city").additionalProperties(false).build())
                .build();
        UserMessage question = UserMessage.from("What is the weather in Paris?");

        ChatResponse first = model.chat(ChatRequest.builder().messages(question).toolSpecifications(weather)
                .toolChoice(ToolChoice.REQUIRED).maxOutputTokens(1200).temperature(0.0).build());

        AiMessage call = first.aiMessage();
        assertThat(call.hasToolExecutionRequests()).isTrue();
        ToolExecutionRequest request = call.toolExecutionRequests().get(0);
        assertThat(request.name()).isEqualTo("get_weather");
        assertThat(JsonMapper.builder().build().readTree(request.arguments()).path("city").asString())
                .isIn("Paris", "London");

        // The call and its result go back as history; the answer is text (no tools are offered this turn).
        ChatResponse second = model.chat(ChatRequest.builder()
                .messages(question, call, ToolExecutionResultMessage.from(request, "Sunny, 24 degrees."))
                .maxOutputTokens(24).build());
        assertThat(second.aiMessage().hasToolExecutionRequests()).isFalse();
        assertThat(second.aiMessage().text()).isNotBlank();
    }

    /** What the AI service returns: LangChain4j derives the JSON schema of the response format from it. */
    enum Sentiment { POSITIVE, NEGATIVE }

    record Mood(Sentiment sentiment, boolean happy) {
    }

    interface MoodReader {
        Mood read(String text);
    }

    @Test
    void anAiServiceReturnsARecordThroughAJsonSchemaResponseFormat() {
        ChatModel model = chatModel().supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA)
                .strictJsonSchema(true).maxTokens(1200).temperature(0.0).build();
        MoodReader reader = AiServices.create(MoodReader.class, model);

        Mood mood = reader.read("I love it!");

        assertThat(mood.sentiment()).isNotNull();
    }
}
