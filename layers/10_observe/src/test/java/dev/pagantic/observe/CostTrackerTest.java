package dev.pagantic.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.TokenUsage;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CostTrackerTest {

    private static final PriceTable PRICES = PriceTable.builder()
            .model("gpt-4o", "2.50", "10.00")
            .model("gpt-4o-mini", "0.15", "0.60")
            .build();

    private static TokenUsage usage(int prompt, int reasoning, int output) {
        return new TokenUsage(prompt, reasoning, output, prompt + reasoning + output, 0, Duration.ZERO);
    }

    @Test
    void costIsTheExactAmountForThePriceTableAndUsage() {
        InMemoryCostTracker costs = CostTracker.inMemory(PRICES);

        costs.recordUsage("gpt-4o", TokenUsage.of(1234, 567));          // 1234*2.50 + 567*10.00 = 8755 per 1M
        costs.recordUsage("gpt-4o-mini", TokenUsage.of(1_000_000, 333_333)); // 150000 + 199999.8 per 1M

        // 0.008755 + (0.15 + 0.1999998), exactly
        assertEquals(0, new BigDecimal("0.008755").compareTo(costs.cost("gpt-4o")));
        assertEquals(0, new BigDecimal("0.3499998").compareTo(costs.cost("gpt-4o-mini")));
        assertEquals(0, new BigDecimal("0.3587548").compareTo(costs.totalCost()));
        assertEquals(new BigDecimal("0.3587548"), costs.totalCost().stripTrailingZeros());
        assertThat(costs.hasUnpricedUsage()).isFalse();
    }

    @Test
    void costsSumExactlyWhereBinaryFloatingPointWouldDrift() {
        InMemoryCostTracker costs = CostTracker.inMemory(PriceTable.builder().model("m", "0.1", "0").build());
        double floating = 0;
        for (int i = 0; i < 10; i++) {
            costs.recordUsage("m", TokenUsage.of(1_000_000, 0)); // 0.1 each
            floating += 0.1;
        }

        assertEquals(0, BigDecimal.ONE.compareTo(costs.totalCost()));
        assertThat(floating).isNotEqualTo(1.0); // what a float64 TotalCost would have reported
    }

    @Test
    void reasoningTokensAreBilledAtTheOutputPrice() {
        InMemoryCostTracker costs = CostTracker.inMemory(PRICES);

        costs.recordUsage("gpt-4o", usage(100, 400, 600)); // 100*2.50 + (400+600)*10.00 = 10250 per 1M

        assertThat(costs.totalCost()).isEqualByComparingTo("0.01025");
        ModelCost recorded = costs.modelCost("gpt-4o").orElseThrow();
        assertThat(recorded.calls()).isEqualTo(1);
        assertThat(recorded.promptTokens()).isEqualTo(100);
        assertThat(recorded.reasoningTokens()).isEqualTo(400);
        assertThat(recorded.outputTokens()).isEqualTo(600);
        assertThat(recorded.priced()).isTrue();
    }

    @Test
    void unknownModelCostsZeroAndIsFlaggedUnderTheDefaultPolicy() {
        InMemoryCostTracker costs = CostTracker.inMemory(PRICES);

        costs.recordUsage("gpt-4o", TokenUsage.of(1_000_000, 0));
        costs.recordUsage("mystery-model", TokenUsage.of(5_000, 5_000));

        assertThat(costs.totalCost()).isEqualByComparingTo("2.50");
        assertThat(costs.hasUnpricedUsage()).isTrue();
        assertThat(costs.unpricedModels()).containsExactly("mystery-model");
        assertThat(costs.modelCost("mystery-model").orElseThrow().outputTokens()).isEqualTo(5_000);
        assertThat(costs.cost("mystery-model")).isEqualByComparingTo("0");
    }

    @Test
    void unknownModelIsRefusedUnderTheRefusePolicy() {
        PriceTable strict = PriceTable.builder().model("gpt-4o", "2.50", "10.00")
                .unknownModels(UnknownModelPolicy.REFUSE).build();
        InMemoryCostTracker costs = CostTracker.inMemory(strict);

        assertThatThrownBy(() -> costs.recordUsage("mystery-model", TokenUsage.of(10, 10)))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.details()).containsEntry("model", "mystery-model");
                });
        assertThat(costs.costsByModel()).isEmpty();
        assertThat(costs.totalCost()).isEqualByComparingTo("0");
    }

    @Test
    void priceTableRefusesNegativePricesDuplicateAndBlankModels() {
        assertThatThrownBy(() -> ModelPrice.of("-1", "2"))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> ModelPrice.of("one", "2"))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> PriceTable.builder().model("a", "1", "1").model("a", "2", "2").model(" ", "1", "1")
                .build())
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.getMessage()).contains("'a' is priced twice").contains("must not be blank");
                });
    }

    @Test
    void concurrentUsageRecordingLosesNothing() throws Exception {
        InMemoryCostTracker costs = CostTracker.inMemory(PRICES);

        Concurrently.run(Concurrently.THREADS, thread -> {
            String model = thread % 2 == 0 ? "gpt-4o" : "gpt-4o-mini";
            for (int i = 0; i < Concurrently.PER_THREAD; i++) {
                costs.recordUsage(model, TokenUsage.of(10, 1));
            }
        });

        long callsPerModel = 4L * Concurrently.PER_THREAD;
        // gpt-4o: 40000 * (10*2.50 + 1*10.00) = 1,400,000 per 1M; mini: 40000 * (10*0.15 + 0.60) = 84,000 per 1M
        assertThat(costs.cost("gpt-4o")).isEqualByComparingTo("1.4");
        assertThat(costs.cost("gpt-4o-mini")).isEqualByComparingTo("0.084");
        assertThat(costs.totalCost()).isEqualByComparingTo("1.484");
        assertThat(costs.modelCost("gpt-4o").orElseThrow().calls()).isEqualTo(callsPerModel);
        assertThat(costs.modelCost("gpt-4o-mini").orElseThrow().promptTokens()).isEqualTo(callsPerModel * 10);
    }
}
