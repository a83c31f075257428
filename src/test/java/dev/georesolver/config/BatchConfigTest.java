package dev.georesolver.config;

import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The manifest's {@code batch:} block: defaults, and every problem reported with its path. */
class BatchConfigTest {

  private static Manifest parse(String extra) throws ManifestException {
    return ManifestLoader.parse("routing:\n  tiers:\n" + ManifestBuilder.tierEntry() + extra, Map.of());
  }

  @Test
  @DisplayName("an absent block takes its defaults")
  void defaults() throws Exception {
    BatchConfig b = parse("").batch();
    assertThat(b.enabled()).isTrue();
    assertThat(b.maxRows()).isEqualTo(1_000_000);
    assertThat(b.maxShare()).isEqualTo(0.5);
    assertThat(b.concurrency()).isEqualTo(32);
    assertThat(b.maxInFlight()).isEqualTo(64);
    assertThat(b.maxUploadBytes()).isEqualTo(1024L * 1024 * 1024);
    assertThat(b.leaseMs()).isEqualTo(30_000);
    assertThat(b.sliceRows()).isEqualTo(200);
  }

  @Test
  @DisplayName("given fields are read")
  void given() throws Exception {
    BatchConfig b = parse("batch: { max_rows: 10, max_share: 0.25, concurrency: 4, max_in_flight: 8 }\n").batch();
    assertThat(b.maxRows()).isEqualTo(10);
    assertThat(b.maxShare()).isEqualTo(0.25);
    assertThat(b.concurrency()).isEqualTo(4);
    assertThat(b.maxInFlight()).isEqualTo(8);
  }

  @Test
  @DisplayName("every problem of the block is reported with its path")
  void problems() {
    assertThatThrownBy(() -> parse("batch: { max_rows: 0, max_share: 1.5, concurrency: 100, max_in_flight: 10, lease_ms: 5, "
        + "colour: red }\n"))
        .isInstanceOf(ManifestException.class)
        .satisfies(e -> assertThat(((ManifestException) e).problems()).contains(
            "batch.max_rows must be in [1, 100000000]",
            "batch.max_share must be in (0, 1]",
            "batch.concurrency must be <= batch.max_in_flight",
            "batch.lease_ms must be in [300, 86400000]",
            "batch.colour is not a known field"));
  }
}
