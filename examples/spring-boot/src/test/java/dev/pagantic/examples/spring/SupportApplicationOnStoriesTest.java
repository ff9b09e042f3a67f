package dev.pagantic.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.tck.ModelAssumptions;
import dev.pagantic.testkit.TestModels;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The application as configured, on the real stories260K model (skipped when it is missing, failed in CI). The tiny
 * model tells stories rather than answering, so the checks are about the path, not the prose: the chat answers, the
 * extraction's output is constrained to the record's schema and comes back as the record. Its tools are turned off:
 * offered a tool, the model never closes a tool call within the token limit (INFERENCE_MALFORMED_RESPONSE); the
 * tool-calling path is tested on the scripted engine ({@link SupportApplicationTest}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "pagantic.engine.llamacpp.threads=1",
    "pagantic.max-tokens=400",
    "pagantic.tools.enabled=false",
    "pagantic.temperature=0"
})
class SupportApplicationOnStoriesTest {

    private static Path model;

    @BeforeAll
    static void requireModel() {
        model = ModelAssumptions.require(TestModels.STORIES);
    }

    @DynamicPropertySource
    static void modelPath(DynamicPropertyRegistry registry) {
        registry.add("pagantic.engine.llamacpp.model-path", () -> model.toString());
    }

    @LocalServerPort
    int port;

    @Test
    void theChatEndpointAnswersOnTheRealModel() throws Exception {
        Http.Reply reply = new Http(port).post("/chat", "{\"sessionId\": \"s\", \"message\": \"Once upon a time\"}");

        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
        assertThat(reply.body().get("reply").asString()).isNotBlank();
        assertThat(reply.body().get("toolsCalled").isEmpty()).isTrue();
    }

    @Test
    void theExtractEndpointReturnsTheRecordTheGrammarHeldTheModelTo() throws Exception {
        Http.Reply reply = new Http(port).post("/extract", "{\"text\": \"Ada, ada@example.com\"}");

        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
        assertThat(reply.body().get("name").isString()).isTrue();
        assertThat(reply.body().get("email").isString()).isTrue();
    }

    @Test
    void theHealthEndpointReportsTheLoadedModel() throws Exception {
        Http.Reply reply = new Http(port).get("/actuator/health");

        assertThat(reply.body().at("/components/pagantic/status").asString()).isEqualTo("UP");
        assertThat(reply.body().at("/components/pagantic/details/loaded").asBoolean()).isTrue();
    }
}
