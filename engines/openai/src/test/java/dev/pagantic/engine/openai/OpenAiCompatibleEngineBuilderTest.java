package dev.pagantic.engine.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.ModelInfo;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OpenAiCompatibleEngineBuilderTest {

    private static OpenAiCompatibleEngine.Builder valid() {
        return OpenAiCompatibleEngine.builder().baseUrl("http://localhost:8080").modelName("qwen");
    }

    private static PaganticException refused(OpenAiCompatibleEngine.Builder builder) {
        PaganticException failure = assertThrows(PaganticException.class, builder::build);
        assertThat(failure.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
        return failure;
    }

    @Test
    void aBaseUrlAndAModelNameAreRequired() {
        assertThat(refused(OpenAiCompatibleEngine.builder().modelName("qwen")).getMessage()).contains("base URL");
        assertThat(refused(OpenAiCompatibleEngine.builder().baseUrl("http://localhost:8080")).getMessage())
                .contains("model name");
        assertThat(refused(valid().modelName(" ")).getMessage()).contains("model name");
    }

    @ParameterizedTest
    @CsvSource({
        "http://localhost:8080, http://localhost:8080/v1/chat/completions",
        "http://localhost:8080/, http://localhost:8080/v1/chat/completions",
        "http://localhost:8080/v1, http://localhost:8080/v1/chat/completions",
        "http://localhost:8080/v1/, http://localhost:8080/v1/chat/completions",
        "https://api.example.com/proxy/v1, https://api.example.com/proxy/v1/chat/completions",
        "HTTPS://api.example.com/proxy, https://api.example.com/proxy/v1/chat/completions"
    })
    void theBaseUrlIsAcceptedWithOrWithoutV1(String baseUrl, String endpoint) {
        try (OpenAiCompatibleEngine engine = valid().baseUrl(baseUrl).build()) {
            assertThat(engine.endpoint()).hasToString(endpoint);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost:8080", "ftp://localhost/", "http://", "http://local host", "/v1",
        "http://user:secret@localhost:8080", "http://localhost:8080/v1?api-version=1", "http://localhost/#frag"})
    void baseUrlsThatCannotBePostedToAreRefused(String baseUrl) {
        PaganticException failure = refused(valid().baseUrl(baseUrl));
        assertThat(failure.getMessage()).doesNotContain("secret");
    }

    @Test
    void timeoutsMustBePositiveAndTheContextWindowNotNegative() {
        refused(valid().connectTimeout(Duration.ZERO));
        refused(valid().requestTimeout(Duration.ofSeconds(-1)));
        refused(valid().requestTimeout(null));
        refused(valid().contextWindow(-1));
        refused(valid().constraintMode(null));
    }

    @Test
    void restrictedHeadersAreRefused() {
        assertThat(refused(valid().header("Host", "elsewhere")).details()).containsEntry("header", "Host");
        refused(valid().header("X-Trace", "one\r\ntwo"));
    }

    @Test
    void anAuthorizationHeaderAndAnApiKeyAreNotBothAccepted() {
        assertThat(refused(valid().apiKey("sk-1").header("authorization", "Basic abc")).getMessage())
                .contains("Authorization header and an API key");
    }

    @Test
    void anApiKeyAHeaderCannotCarryIsRefusedWithoutQuotingIt() {
        PaganticException failure = refused(valid().apiKey("sk-secret part"));
        assertThat(failure.getMessage()).doesNotContain("sk-secret");
        assertThat(failure.details().toString()).doesNotContain("sk-secret");
    }

    @Test
    void theDefaultsAreAnEightKWindowJsonSchemaModeAndTools() {
        try (OpenAiCompatibleEngine engine = valid().build()) {
            ModelInfo info = engine.modelInfo();
            assertThat(info.name()).isEqualTo("qwen");
            assertThat(info.contextWindow()).isEqualTo(OpenAiCompatibleEngine.DEFAULT_CONTEXT_WINDOW).isEqualTo(8192);
            assertThat(engine.constraintMode()).isEqualTo(ConstraintMode.JSON_SCHEMA);
            assertThat(info.capabilities()).containsExactlyInAnyOrder(Capability.SCHEMA, Capability.TOOLS,
                    Capability.STREAMING, Capability.SEED, Capability.STOP);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "GRAMMAR, GRAMMAR SCHEMA TOOLS STREAMING SEED STOP",
        "JSON_SCHEMA, SCHEMA TOOLS STREAMING SEED STOP",
        "PROMPT_ONLY, TOOLS STREAMING SEED STOP"
    })
    void eachConstraintModeDeclaresWhatTheServerEnforces(ConstraintMode mode, String declared) {
        try (OpenAiCompatibleEngine engine = valid().constraintMode(mode).contextWindow(32768).build()) {
            assertThat(engine.modelInfo().capabilities()).map(Capability::name)
                    .containsExactlyInAnyOrder(declared.split(" "));
            assertThat(engine.modelInfo().contextWindow()).isEqualTo(32768);
            assertThat(engine.modelInfo().supports(Capability.TOKEN_COUNTING)).isFalse();
        }
    }

    @Test
    void toolsCanBeDeclaredUnsupported() {
        try (OpenAiCompatibleEngine engine = valid().tools(false).build()) {
            assertThat(engine.modelInfo().supports(Capability.TOOLS)).isFalse();
        }
    }

    @Test
    void theDescriptionNamesModelAndEndpointButNeverTheApiKey() {
        try (OpenAiCompatibleEngine engine = valid().apiKey("sk-very-secret").build()) {
            assertThat(engine.toString()).contains("qwen", "http://localhost:8080/v1/chat/completions")
                    .doesNotContain("sk-very-secret");
        }
    }

    @Test
    void theTokenCounterIsTheEstimate() {
        try (OpenAiCompatibleEngine engine = valid().build()) {
            assertThat(engine.tokenCounter().count("The quick brown fox jumps over the lazy dog."))
                    .isEqualTo(dev.pagantic.inference.TokenCounter.estimate()
                            .count("The quick brown fox jumps over the lazy dog."));
        }
    }
}
