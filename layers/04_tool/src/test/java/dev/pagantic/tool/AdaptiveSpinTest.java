package dev.pagantic.tool;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AdaptiveSpinTest {

    @Test
    void longWaitsHalveTheSpinDownToASixteenthOfTheMost() {
        AdaptiveSpin spin = new AdaptiveSpin(16_000);
        assertThat(spin.nanos()).isEqualTo(16_000);

        spin.waited(1_000_000);
        assertThat(spin.nanos()).isEqualTo(8_000);
        for (int i = 0; i < 10; i++) {
            spin.waited(1_000_000);
        }
        assertThat(spin.nanos()).isEqualTo(1_000);
    }

    @Test
    void aWaitWithinTheMostSpinRestoresTheFullSpin() {
        AdaptiveSpin spin = new AdaptiveSpin(16_000);
        for (int i = 0; i < 10; i++) {
            spin.waited(1_000_000);
        }

        spin.waited(12_000); // longer than the current spin, shorter than the most: spinning would have paid

        assertThat(spin.nanos()).isEqualTo(16_000);
    }

    @Test
    void aZeroMostNeverSpins() {
        AdaptiveSpin spin = new AdaptiveSpin(0);
        spin.waited(0);
        spin.waited(1_000_000);

        assertThat(spin.nanos()).isZero();
    }
}
