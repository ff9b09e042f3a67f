package dev.pagantic.adapter.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** An OpenTelemetry SDK that keeps what it records in memory, and ways to read the span tree back. */
final class Telemetry implements AutoCloseable {

    final InMemorySpanExporter spans = InMemorySpanExporter.create();
    final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();

    List<SpanData> finished() {
        return spans.getFinishedSpanItems();
    }

    SpanData named(String name) {
        List<SpanData> found = all(name);
        if (found.size() != 1) {
            throw new AssertionError("expected one span '" + name + "', found " + found.size() + " in\n" + tree());
        }
        return found.get(0);
    }

    List<SpanData> all(String name) {
        return finished().stream().filter(span -> span.getName().equals(name)).toList();
    }

    List<SpanData> childrenOf(SpanData parent) {
        return finished().stream().filter(span -> span.getParentSpanId().equals(parent.getSpanId()))
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
    }

    List<String> childNames(SpanData parent) {
        return childrenOf(parent).stream().map(SpanData::getName).toList();
    }

    static <T> T attribute(SpanData span, AttributeKey<T> key) {
        return Optional.ofNullable(span.getAttributes().get(key))
                .orElseThrow(() -> new AssertionError(span.getName() + " has no " + key + ": " + span.getAttributes()));
    }

    Optional<MetricData> metric(String name) {
        return metrics.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name)).findFirst();
    }

    /** The recorded spans as an indented tree, for failure messages. */
    String tree() {
        return finished().stream().filter(span -> !span.getParentSpanContext().isValid()
                        || finished().stream().noneMatch(other -> other.getSpanId().equals(span.getParentSpanId())))
                .map(root -> tree(root, "")).collect(Collectors.joining());
    }

    private String tree(SpanData span, String indent) {
        StringBuilder out = new StringBuilder(indent).append(span.getName()).append('\n');
        childrenOf(span).forEach(child -> out.append(tree(child, indent + "  ")));
        return out.toString();
    }

    @Override
    public void close() {
        sdk.close();
    }
}
