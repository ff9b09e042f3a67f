package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.engine.openai.OpenAiCompatibleEngine;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OpenAI-compatible engine's embeddings against pagantic's server on stories260K: the vectors that come over HTTP
 * (base64 in one request for a batch) are the model's own, bit for bit, and failures are mapped as for chat.
 */
class OpenAiEngineEmbeddingsTest {

    @RegisterExtension
    static final RealModelServer api = new RealModelServer();

    private static OpenAiCompatibleEngine.Builder client() {
        return OpenAiCompatibleEngine.builder().baseUrl(api.baseUrl()).apiKey(RealModelServer.API_KEY)
                .modelName(RealModelServer.CLIENT_MODEL);
    }

    @Test
    void aTextsEmbeddingOverHttpIsTheModelsOwnBitForBit() {
        try (OpenAiCompatibleEngine engine = client().build()) {
            float[] overHttp = engine.embed("Once upon a time");

            assertThat(overHttp).containsExactly(api.embedInProcess("Once upon a time"));
            assertThat(engine.dimension()).isEqualTo(overHttp.length).isPositive();
        }
    }

    @Test
    void aBatchComesBackInOrderEqualToOneCallPerText() {
        try (OpenAiCompatibleEngine engine = client().build()) {
            List<String> texts = List.of("a cat", "a dog", "the sea");

            List<float[]> batch = engine.embedAll(CallContext.background(), texts);

            assertThat(batch).hasSize(3);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(batch.get(i)).as(texts.get(i)).containsExactly(engine.embed(texts.get(i)));
            }
            assertThat(batch.get(0)).isNotEqualTo(batch.get(1));
        }
    }

    @Test
    void aWrongKeyAndAnUnknownModelFailAsTheyDoForChat() {
        try (OpenAiCompatibleEngine wrongKey = client().apiKey("sk-wrong").build();
             OpenAiCompatibleEngine unknownModel = client().modelName("no-such-model").build()) {
            PaganticException refused = catchThrowableOfType(PaganticException.class, () -> wrongKey.embed("hi"));
            PaganticException missing = catchThrowableOfType(PaganticException.class, () -> unknownModel.embed("hi"));

            assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
            assertThat(refused.details()).containsEntry("status", 401);
            assertThat(missing.code()).isEqualTo(ErrorCode.INFERENCE_MODEL_UNAVAILABLE);
            assertThat(missing.details()).containsEntry("endpoint", api.baseUrl() + "/v1/embeddings");
        }
    }
}
