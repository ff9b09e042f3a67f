package dev.pagantic.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.adapter.api.ApiServer;
import dev.pagantic.adapter.opentelemetry.PaganticTelemetry;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.testkit.ScriptedEngine;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A caller's distributed trace continues through pagantic's HTTP server: the client sends its span as a W3C
 * {@code traceparent}, and the server's request span (with its agent turn and inference below it) is that span's
 * child in the same trace.
 */
class TracedServerTest {

    @Test
    void theServerContinuesTheCallersTraceparentIntoItsGenAiSpans() throws Exception {
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build();
             Orchestrator orchestrator = Orchestrator.builder().engine(ScriptedEngine.replying("Hello."))
                     .observer(PaganticTelemetry.create(sdk)).build();
             ApiServer server = ApiServer.builder().orchestrator(orchestrator).modelName("tiny").port(0)
                     .drainTimeout(Duration.ofSeconds(5)).build().start()) {
            Span caller = sdk.getTracer("caller").spanBuilder("POST /v1/chat/completions")
                    .setSpanKind(SpanKind.CLIENT).startSpan();
            Map<String, String> headers = new LinkedHashMap<>();
            W3CTraceContextPropagator.getInstance().inject(Context.root().with(caller), headers, Map::put);
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/chat/completions"))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}"));
            headers.forEach(request::header);
            HttpResponse<String> response = HttpClient.newHttpClient().send(request.build(),
                    HttpResponse.BodyHandlers.ofString());
            caller.end();

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            List<SpanData> finished = spans.getFinishedSpanItems();
            SpanData workflow = finished.stream().filter(span -> span.getName().equals("invoke_workflow pagantic.chat"))
                    .findFirst().orElseThrow(() -> new AssertionError("no request span in " + finished));
            assertThat(workflow.getTraceId()).isEqualTo(caller.getSpanContext().getTraceId());
            assertThat(workflow.getParentSpanId()).isEqualTo(caller.getSpanContext().getSpanId());
            assertThat(finished.stream().filter(span -> span.getName().startsWith("chat "))).singleElement()
                    .satisfies(chat -> assertThat(chat.getTraceId()).isEqualTo(workflow.getTraceId()));
        }
    }
}
