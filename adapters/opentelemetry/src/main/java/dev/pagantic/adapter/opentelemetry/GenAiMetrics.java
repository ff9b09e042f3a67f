package dev.pagantic.adapter.opentelemetry;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import java.util.List;

/**
 * The instruments: the GenAI client metrics of the conventions, with the bucket boundaries they advise, and
 * pagantic's tool duration and vote confidence.
 */
final class GenAiMetrics {

    /** The conventions' advice for {@code gen_ai.client.token.usage}: powers of four from 1 to 4^13. */
    static final List<Long> TOKEN_BUCKETS = List.of(1L, 4L, 16L, 64L, 256L, 1024L, 4096L, 16384L, 65536L, 262144L,
            1048576L, 4194304L, 16777216L, 67108864L);
    /** The conventions' advice for {@code gen_ai.client.operation.duration}, in seconds: doubling from 10 ms. */
    static final List<Double> DURATION_BUCKETS = List.of(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12,
            10.24, 20.48, 40.96, 81.92);
    /** Tenths, for a confidence in [0, 1]. */
    static final List<Double> CONFIDENCE_BUCKETS = List.of(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0);

    static final String TOKEN_USAGE = "gen_ai.client.token.usage";
    static final String OPERATION_DURATION = "gen_ai.client.operation.duration";
    static final String TOOL_DURATION = "pagantic.tool.duration";
    static final String VOTE_CONFIDENCE = "pagantic.vote.confidence";

    private final LongHistogram tokens;
    private final DoubleHistogram duration;
    private final DoubleHistogram toolDuration;
    private final DoubleHistogram confidence;

    GenAiMetrics(Meter meter) {
        tokens = meter.histogramBuilder(TOKEN_USAGE).ofLongs().setUnit("{token}")
                .setDescription("Number of input and output tokens used.")
                .setExplicitBucketBoundariesAdvice(TOKEN_BUCKETS).build();
        duration = meter.histogramBuilder(OPERATION_DURATION).setUnit("s")
                .setDescription("GenAI operation duration.")
                .setExplicitBucketBoundariesAdvice(DURATION_BUCKETS).build();
        toolDuration = meter.histogramBuilder(TOOL_DURATION).setUnit("s")
                .setDescription("Duration of a tool call run by pagantic.")
                .setExplicitBucketBoundariesAdvice(DURATION_BUCKETS).build();
        confidence = meter.histogramBuilder(VOTE_CONFIDENCE).setUnit("1")
                .setDescription("Confidence of a redundant or multi-model vote: the winner's share.")
                .setExplicitBucketBoundariesAdvice(CONFIDENCE_BUCKETS).build();
    }

    void inference(Attributes attributes, double seconds, long inputTokens, long outputTokens, boolean failed) {
        duration.record(seconds, attributes);
        if (!failed) {
            tokens.record(inputTokens, attributes.toBuilder().put(GenAi.TOKEN_TYPE, "input").build());
            tokens.record(outputTokens, attributes.toBuilder().put(GenAi.TOKEN_TYPE, "output").build());
        }
    }

    void tool(Attributes attributes, double seconds) {
        toolDuration.record(seconds, attributes);
    }

    void vote(Attributes attributes, double value) {
        confidence.record(value, attributes);
    }
}
