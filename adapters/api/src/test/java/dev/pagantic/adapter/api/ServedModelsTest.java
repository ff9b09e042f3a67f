package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ServedModelsTest {

    private final AtomicInteger loads = new AtomicInteger();
    private final AtomicInteger closes = new AtomicInteger();

    @Test
    void anotherModelLoadsOnceWhenRequestsFirstNameItAndClosesWithTheServer() {
        TestServer api = TestServer.start(ScriptedEngine.replying("from the default"),
                b -> b.model("second", loader("from the second")));
        try (api) {
            assertThat(json(api.get("/v1/models")).path("data").findValuesAsString("id"))
                    .containsExactly("test-model", "gpt-4o-mini", "gpt-test", "second");
            assertThat(loads).hasValue(0); // listed, not loaded

            List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                burst.add(api.postAsync("/v1/chat/completions", chat("second")));
            }
            for (CompletableFuture<HttpResponse<String>> response : burst) {
                HttpResponse<String> answered = response.join();
                assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
                assertThat(json(answered).path("model").asString()).isEqualTo("second");
                assertThat(content(answered)).isEqualTo("from the second");
            }
            assertThat(content(api.post("/v1/chat/completions", chat("test-model")))).isEqualTo("from the default");
            assertThat(loads).hasValue(1);
            assertThat(closes).hasValue(0);
        }
        assertThat(closes).hasValue(1);
    }

    @Test
    void aModelThatCannotLoadIsAnswered400WithItsReasonAndIsNotLoadedAgain() {
        Supplier<ServedModel> failing = () -> {
            loads.incrementAndGet();
            throw PaganticException.of(ErrorCode.INFERENCE_MODEL_UNAVAILABLE, "its architecture 'qwen3' is unknown");
        };
        try (TestServer api = TestServer.start(ScriptedEngine.replying("fine"), b -> b.model("broken", failing))) {
            for (int attempt = 0; attempt < 3; attempt++) {
                HttpResponse<String> refused = api.post("/v1/chat/completions", chat("broken"));

                assertThat(refused.statusCode()).isEqualTo(400);
                assertThat(json(refused).path("error").path("code").asString()).isEqualTo("model_not_available");
                assertThat(json(refused).path("error").path("message").asString())
                        .isEqualTo("The model 'broken' cannot be served: its architecture 'qwen3' is unknown");
            }
            assertThat(loads).hasValue(1);
            assertThat(api.post("/v1/chat/completions", chat("test-model")).statusCode()).isEqualTo(200);
            HttpResponse<String> unknown = api.post("/v1/chat/completions", chat("gpt-5"));
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(json(unknown).path("error").path("message").asString()).contains("'test-model'", "broken");
        }
    }

    @Test
    void aModelWithoutEmbeddingsAnswersItsEmbeddingsRequests404() {
        try (TestServer api = TestServer.start(ScriptedEngine.replying("x"), b -> b.model("second", loader("y")))) {
            HttpResponse<String> refused = api.post("/v1/embeddings", "{\"model\":\"second\",\"input\":\"hello\"}");

            assertThat(refused.statusCode()).isEqualTo(404);
            assertThat(json(refused).path("error").path("message").asString()).contains("'second'");
        }
    }

    @Test
    void anotherModelMayNotTakeTheNameOfTheDefaultModelOrItsAliases() {
        for (String taken : List.of("default", "gpt-4o-mini")) {
            assertThatThrownBy(() -> ApiServer.builder().orchestrator(Orchestrator.builder()
                            .engine(ScriptedEngine.replying("x")).build()).modelName("default").alias("gpt-4o-mini")
                    .model(taken, loader("y")).build())
                    .isInstanceOfSatisfying(PaganticException.class,
                            refused -> assertThat(refused.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        }
        assertThatThrownBy(() -> ApiServer.builder().model("twice", loader("a")).model("twice", loader("b")))
                .hasMessageContaining("given twice");
    }

    private Supplier<ServedModel> loader(String reply) {
        return () -> {
            loads.incrementAndGet();
            Orchestrator orchestrator = Orchestrator.builder().engine(ScriptedEngine.replying(reply, reply, reply,
                    reply, reply, reply, reply, reply, reply, reply)).build();
            return new ServedModel(orchestrator, Optional.empty(), () -> {
                closes.incrementAndGet();
                orchestrator.close();
            });
        };
    }

    private static String chat(String model) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    private static String content(HttpResponse<String> response) {
        return json(response).path("choices").path(0).path("message").path("content").asString();
    }
}
