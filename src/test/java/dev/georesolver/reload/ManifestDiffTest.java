package dev.georesolver.reload;

import dev.georesolver.config.Manifest;
import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Which tiers a new manifest keeps, changes, adds and removes, and what it changes that only a restart applies. */
class ManifestDiffTest {

  private static final String STATE = "state: { path: \"/tmp/georesolver-diff-test.db\" }";

  private static ManifestBuilder base() {
    return manifest().extra(STATE);
  }

  private static ManifestDiff diff(Manifest before, Manifest after) {
    return ManifestDiff.of(before, after, false, false);
  }

  @Test
  @DisplayName("kept, changed, added and removed tiers, each in its ladder's order")
  void tiersByFate() {
    Manifest before = base()
        .tier("a", "generic", "http://a.example", "exact", 500)
        .tier("b", "generic", "http://b.example", "exact", 500)
        .tier("c", "generic", "http://c.example", "open_data", 500)
        .build();
    Manifest after = base()
        .tier("d", "generic", "http://d.example", "exact", 500)
        .tier("b", "generic", "http://b.example", "exact", 900)
        .tier("a", "generic", "http://a.example", "exact", 500)
        .build();
    ManifestDiff d = diff(before, after);
    assertThat(d.kept()).containsExactly("a");
    assertThat(d.changed()).containsExactly("b");
    assertThat(d.added()).containsExactly("d");
    assertThat(d.removed()).containsExactly("c");
    assertThat(d.appliable()).isTrue();
    assertThat(d.touchesTiers()).isTrue();
    assertThat(d.tiersJson().encode()).isEqualTo("{\"kept\":[\"a\"],\"changed\":[\"b\"],\"added\":[\"d\"],\"removed\":[\"c\"]}");
  }

  @Test
  @DisplayName("the same file, or one that only moves a tier or changes intents and budgets, keeps every tier")
  void sameEffectiveConfigIsKept() {
    Manifest before = base()
        .tier("a", "generic", "http://a.example", "exact", 500)
        .tier("b", "generic", "http://b.example", "open_data", 500)
        .build();
    Manifest reordered = base().budget(1500)
        .tier("b", "generic", "http://b.example", "open_data", 500)
        .tier("a", "generic", "http://a.example", "exact", 500)
        .build();
    ManifestDiff d = diff(before, reordered);
    assertThat(d.kept()).containsExactly("b", "a");
    assertThat(d.touchesTiers()).isFalse();
    assertThat(d.appliable()).isTrue();
  }

  @Test
  @DisplayName("a tier's breaker settings, headers or credential read differently change it; admission_factor changes every tier")
  void whatChangesATier() {
    ManifestBuilder cred = base().tier("a", "generic", "http://a.example", "exact", 500, "credential: { header: X-Key, env: KEY }")
        .tier("b", "generic", "http://b.example", "exact", 500, "circuit_breaker: { failure_threshold: 3 }");
    Manifest before = cred.build(Map.of("KEY", "one"));
    Manifest rotated = cred.build(Map.of("KEY", "two"));
    assertThat(diff(before, rotated).changed()).containsExactly("a");
    assertThat(diff(before, rotated).kept()).containsExactly("b");

    Manifest breaker = base().tier("a", "generic", "http://a.example", "exact", 500, "credential: { header: X-Key, env: KEY }")
        .tier("b", "generic", "http://b.example", "exact", 500, "circuit_breaker: { failure_threshold: 4 }").build(Map.of("KEY", "one"));
    assertThat(diff(before, breaker).changed()).containsExactly("b");

    Manifest factor = base().admissionFactor(0.7).tier("a", "generic", "http://a.example", "exact", 500, "credential: { header: X-Key, env: KEY }")
        .tier("b", "generic", "http://b.example", "exact", 500, "circuit_breaker: { failure_threshold: 3 }").build(Map.of("KEY", "one"));
    assertThat(diff(before, factor).changed()).containsExactly("a", "b");
  }

  @Test
  @DisplayName("a tier left out for a missing credential is removed; given its credential again, it is added")
  void disabledTierIsAbsent() {
    ManifestBuilder b = base().tier("a", "generic", "http://a.example", "exact", 500, "credential: { header: X-Key, env: KEY }")
        .tier("b", "generic", "http://b.example", "exact", 500);
    Manifest with = b.build(Map.of("KEY", "one"));
    Manifest without = b.build(Map.of());
    assertThat(diff(with, without).removed()).containsExactly("a");
    assertThat(diff(without, with).added()).containsExactly("a");
  }

  @Test
  @DisplayName("server limits, state, reconcile, corrections, CRS definitions, idempotency, margins and max_budget_ms need a restart")
  void restartOnly() {
    Manifest before = base().tier("a", "generic", "http://a.example", "exact", 500).build();
    assertThat(diff(before, manifest().extra("state: { path: \"/tmp/elsewhere.db\" }").tier("a", "generic", "http://a.example", "exact", 500)
        .build()).needsRestart()).containsExactly("state.path: the state store is open");
    assertThat(diff(before, base().maxBudget(20_000).tier("a", "generic", "http://a.example", "exact", 500).build()).needsRestart())
        .containsExactly("routing.max_budget_ms: the servers' idle timeout is set from it");
    assertThat(diff(before, base().extra("server: { max_connections: 100 }").tier("a", "generic", "http://a.example", "exact", 500)
        .build()).needsRestart()).singleElement().asString().startsWith("server.max_connections: ");
    assertThat(diff(before, base().extra("reconcile: { enabled: true }").tier("a", "generic", "http://a.example", "exact", 500)
        .build()).needsRestart()).singleElement().asString().startsWith("reconcile.enabled: ");
    Manifest margins = ManifestBuilder.manifest().extra(STATE).tier("a", "generic", "http://a.example", "exact", 500).build();
    assertThat(diff(before, margins).appliable()).as("the same settings written again").isTrue();
    assertThat(ManifestDiff.of(before, before, false, true).needsRestart())
        .containsExactly("routing.tiers: a cached_index rung, and the cached index was not started with the process");
    assertThat(ManifestDiff.of(before, before, true, true).appliable()).isTrue();
  }

  @Test
  @DisplayName("audit.level and batch.max_upload_mb are applied; audit's buffer and batch's worker settings need a restart")
  void auditAndBatch() {
    Manifest before = base().tier("a", "generic", "http://a.example", "exact", 500).build();
    ManifestDiff level = diff(before, base().extra("audit: { level: all }").tier("a", "generic", "http://a.example", "exact", 500).build());
    assertThat(level.appliable()).isTrue();
    assertThat(level.applied()).containsExactly("audit.level");
    assertThat(level.kept()).containsExactly("a");
    assertThat(diff(before, base().extra("audit: { flush_interval_ms: 20 }").tier("a", "generic", "http://a.example", "exact", 500)
        .build()).needsRestart()).singleElement().asString().startsWith("audit.flush_interval_ms: ");
    assertThat(diff(before, base().extra("batch: { max_upload_mb: 10 }").tier("a", "generic", "http://a.example", "exact", 500)
        .build()).applied()).containsExactly("batch.max_upload_mb");
    assertThat(diff(before, base().extra("batch: { max_rows: 10, concurrency: 4 }").tier("a", "generic", "http://a.example", "exact", 500)
        .build()).needsRestart()).hasSize(2).allSatisfy(n -> assertThat(n).startsWith("batch."));
  }

  @Test
  @DisplayName("batch.max_share changes every tier (each is built with its batch share); a tier's own setting is named by its path")
  void maxShareRedeploysTiers() {
    Manifest before = base().tier("a", "generic", "http://a.example", "exact", 500).tier("b", "generic", "http://b.example", "exact", 500)
        .build();
    ManifestDiff share = diff(before, base().extra("batch: { max_share: 0.2 }")
        .tier("a", "generic", "http://a.example", "exact", 500).tier("b", "generic", "http://b.example", "exact", 500).build());
    assertThat(share.appliable()).isTrue();
    assertThat(share.changed()).containsExactly("a", "b");
    assertThat(share.kept()).isEmpty();
    assertThat(share.applied()).containsExactly("batch.max_share");
    ManifestDiff timeout = diff(before, base()
        .tier("a", "generic", "http://a.example", "exact", 500).tier("b", "generic", "http://b.example", "exact", 700).build());
    assertThat(timeout.applied()).as("typical_ms defaults from timeout_ms").containsExactly("routing.tiers[1].timeout_ms", "routing.tiers[1].typical_ms");
  }
}
