package dev.pagantic.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Engine;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

/**
 * The application over real HTTP, on a scripted engine that replaces the configured model (a user bean wins over
 * the starter's): the script is one chat that calls the order tool, then one extraction (whose first call is the
 * structured mode's tool phase, since the application has tools).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SupportApplicationTest {

    @TestConfiguration(proxyBeanMethods = false)
    static class Script {
        @Bean
        ScriptedEngine engine() {
            return ScriptedEngine.builder()
                    .replyCallingTool("orderStatus", Map.of("orderId", "A-17"))
                    .reply("Your order A-17 shipped on Monday and arrives Thursday.")
                    // the extraction: structured mode's tool phase (the model needs no tool), then the output
                    .reply("The message names Ada Lovelace, her e-mail address and order B-42.")
                    .reply("{\"name\": \"Ada Lovelace\", \"email\": \"ada@example.com\", \"orderId\": \"B-42\"}")
                    .build();
        }
    }

    @LocalServerPort
    int port;
    @Autowired
    Engine engine;

    @Test
    @Order(1)
    void theChatEndpointAnswersAfterTheModelCalledTheOrderTool() throws Exception {
        Http.Reply reply = new Http(port).post("/chat",
                "{\"sessionId\": \"customer-1\", \"message\": \"Where is my order A-17?\"}");

        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
        assertThat(reply.body().get("reply").asString())
                .isEqualTo("Your order A-17 shipped on Monday and arrives Thursday.");
        assertThat(reply.body().get("toolsCalled").get(0).asString()).isEqualTo("orderStatus");
        ScriptedEngine scripted = (ScriptedEngine) engine;
        assertThat(scripted.requests().get(0).tools()).extracting(ToolDefinition::name).containsExactly("orderStatus");
        assertThat(scripted.requests().get(1).messages()).anySatisfy(message ->
                assertThat(message.content()).isEqualTo("shipped on Monday, arrives Thursday"));
    }

    @Test
    @Order(2)
    void theExtractEndpointReturnsTheRecordValidatedAgainstItsSchema() throws Exception {
        Http.Reply reply = new Http(port).post("/extract",
                "{\"text\": \"Hi, Ada Lovelace here (ada@example.com), my order B-42 has not arrived.\"}");

        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
        assertThat(reply.body().get("name").asString()).isEqualTo("Ada Lovelace");
        assertThat(reply.body().get("email").asString()).isEqualTo("ada@example.com");
        assertThat(reply.body().get("orderId").asString()).isEqualTo("B-42");
    }

    @Test
    @Order(3)
    void theHealthEndpointReportsTheEngine() throws Exception {
        Http.Reply reply = new Http(port).get("/actuator/health");

        assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
        assertThat(reply.body().at("/components/pagantic/status").asString()).isEqualTo("UP");
    }
}
