package dev.pagantic.adapter.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The spans leave the process as OTLP/HTTP protobuf, as a collector (or Langfuse, Phoenix, Grafana) receives them: a
 * local receiver started by the test decodes what the SDK's OTLP exporter posts, with the protocol's own classes.
 */
class OtlpExportTest {

    @Test
    void aToolCallingChatArrivesAtAnOtlpReceiverAsTheSameSpanTree() throws Exception {
        List<ExportTraceServiceRequest> received = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                received.add(ExportTraceServiceRequest.parseFrom(body.readAllBytes()));
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            } catch (IOException ignored) {
                // the exporter gave up waiting; the assertion below reports what arrived
            }
        });
        receiver.start();
        SdkTracerProvider tracing = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().toBuilder().put("service.name", "otlp-test").build())
                .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
                        .setEndpoint("http://127.0.0.1:" + receiver.getAddress().getPort() + "/v1/traces")
                        .build()).build())
                .build();
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(tracing).build()) {
            ScriptedEngine engine = ScriptedEngine.builder().modelName("tiny")
                    .replyCallingTool("weather", Map.of("city", "Paris")).reply("It is sunny.").build();
            Tool weather = Tool.builder(ToolDefinition.of("weather", "the weather", Schema.object().build()))
                    .handler((ctx, args) -> "sunny").build();
            try (Orchestrator orchestrator = Orchestrator.builder().engine(engine).tools(ToolRegistry.of(weather))
                    .observer(PaganticTelemetry.create(sdk)).build()) {
                orchestrator.execute(SystemRequest.builder().requestId("r-otlp").user("Weather?").build());
            }
            assertThat(tracing.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
        } finally {
            receiver.stop(0);
        }

        assertThat(received).isNotEmpty();
        assertThat(received.get(0).getResourceSpans(0).getResource().getAttributesList())
                .anySatisfy(attribute -> {
                    assertThat(attribute.getKey()).isEqualTo("service.name");
                    assertThat(attribute.getValue().getStringValue()).isEqualTo("otlp-test");
                });
        List<Span> spans = received.stream().flatMap(request -> request.getResourceSpansList().stream())
                .flatMap(resource -> resource.getScopeSpansList().stream())
                .peek(scope -> assertThat(scope.getScope().getName()).isEqualTo(PaganticTelemetry.INSTRUMENTATION_NAME))
                .flatMap(scope -> scope.getSpansList().stream()).toList();
        Map<String, Span> byName = spans.stream().filter(span -> !span.getName().equals("chat tiny"))
                .collect(Collectors.toMap(Span::getName, Function.identity()));
        List<Span> chats = spans.stream().filter(span -> span.getName().equals("chat tiny")).toList();
        assertThat(spans).hasSize(5);
        Span request = byName.get("invoke_workflow pagantic.chat");
        Span turn = byName.get("invoke_agent");
        Span tool = byName.get("execute_tool weather");
        assertThat(request.getParentSpanId().isEmpty()).isTrue();
        assertThat(turn.getParentSpanId()).isEqualTo(request.getSpanId());
        assertThat(tool.getParentSpanId()).isEqualTo(turn.getSpanId());
        assertThat(chats).hasSize(2).allSatisfy(chat -> {
            assertThat(chat.getParentSpanId()).isEqualTo(turn.getSpanId());
            assertThat(chat.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
            assertThat(attributes(chat)).containsEntry("gen_ai.operation.name", "chat")
                    .containsEntry("gen_ai.request.model", "tiny").containsKey("gen_ai.usage.input_tokens");
        });
        assertThat(spans).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(request.getTraceId()));
        assertThat(attributes(tool)).containsEntry("gen_ai.tool.name", "weather")
                .containsEntry("gen_ai.operation.name", "execute_tool");
        assertThat(attributes(request)).containsEntry("pagantic.request.id", "r-otlp")
                .containsEntry("pagantic.lifecycle.state", "COMPLETE");
        assertThat(HexFormat.of().formatHex(request.getTraceId().toByteArray())).hasSize(32);
    }

    /** The span's attributes as strings (numbers as their decimal text). */
    private static Map<String, String> attributes(Span span) {
        return span.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, attribute -> {
            var value = attribute.getValue();
            return value.hasIntValue() ? String.valueOf(value.getIntValue()) : value.getStringValue();
        }));
    }
}
