package dev.georesolver.config;

import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The state, reconcile and corrections blocks: their defaults, and every problem with its path. */
class StateSectionsTest {

  private static String base() {
    return "routing:\n  tiers:\n" + ManifestBuilder.tierEntry();
  }

  private static Manifest parse(String extra) throws ManifestException {
    return ManifestLoader.parse(base() + extra, Map.of());
  }

  @Test
  @DisplayName("absent blocks take their defaults")
  void defaults() throws Exception {
    Manifest m = parse("");
    assertThat(m.state().store()).isEqualTo("auto");
    assertThat(m.state().storeFor(false)).isEqualTo("sqlite");
    assertThat(m.state().storeFor(true)).as("instances on Redis share their debts").isEqualTo("redis");
    assertThat(m.state().path()).isEqualTo("data/georesolver.db");
    assertThat(m.state().minFreeMb()).isEqualTo(200);
    assertThat(m.state().commitIntervalMs()).isEqualTo(5);
    assertThat(m.state().writeBehind()).isTrue();
    assertThat(m.state().flushIntervalMs()).isEqualTo(50);
    assertThat(m.state().cacheFlushIntervalMs()).as("the write-behind's bigger batches").isEqualTo(500);
    assertThat(parse("state: { cache_flush_interval_ms: 20 }\n").state().cacheFlushIntervalMs()).isEqualTo(20);
    assertThatThrownBy(() -> parse("state: { cache_flush_interval_ms: 0 }\n")).hasMessageContaining("cache_flush_interval_ms");
    ReconcileConfig r = m.reconcile();
    assertThat(r.enabled()).isTrue();
    assertThat(r.batch()).isEqualTo(200);
    assertThat(r.ratePerS()).isEqualTo(20.0);
    assertThat(r.maxShare()).isEqualTo(0.5);
    assertThat(r.budgetMs()).isEqualTo(5000);
    assertThat(r.maxAttempts()).isEqualTo(8);
    assertThat(m.corrections().webhooks()).isEmpty();
    assertThat(m.corrections().retryBaseMs()).isEqualTo(1000);
  }

  @Test
  @DisplayName("the audit block: defaults, every value read, and each problem named by its path")
  void audit() throws Exception {
    AuditConfig d = parse("").audit();
    assertThat(d.level()).isEqualTo("fallbacks");
    assertThat(d.enabled()).isTrue();
    assertThat(d.all()).isFalse();
    assertThat(d.retentionDays()).isEqualTo(2555);
    AuditConfig a = parse("audit: { level: all, retention_days: 30, flush_interval_ms: 5, batch_max: 10, buffer_max: 100 }\n").audit();
    assertThat(a.all()).isTrue();
    assertThat(a.retentionDays()).isEqualTo(30);
    assertThat(a.flushIntervalMs()).isEqualTo(5);
    assertThat(a.batchMax()).isEqualTo(10);
    assertThat(a.bufferMax()).isEqualTo(100);
    assertThat(parse("audit: { level: \"off\" }\n").audit().enabled()).isFalse();
    assertThatThrownBy(() -> parse("audit: { level: everything, retention_days: 0, batch_max: 600, buffer_max: 500, colour: red }\n"))
        .isInstanceOf(ManifestException.class)
        .satisfies(e -> assertThat(((ManifestException) e).problems()).contains(
            "audit.level must be fallbacks, all or off",
            "audit.retention_days must be in [1, 36500]",
            "audit.batch_max must be <= audit.buffer_max",
            "audit.colour is not a known field"));
  }

  @Test
  @DisplayName("an explicit store wins over auto")
  void explicitStore() throws Exception {
    assertThat(parse("state: { store: sqlite }\n").state().storeFor(true)).isEqualTo("sqlite");
  }

  @Test
  @DisplayName("every problem of the three blocks is reported with its path")
  void problems() {
    assertThatThrownBy(() -> parse("""
        state: { store: postgres, min_free_mb: -1, commit_interval_ms: 0, colour: red }
        reconcile: { enabled: maybe, max_share: 1.5, rate_per_s: 0, backoff_base_ms: 9000, backoff_max_ms: 10 }
        corrections:
          webhooks:
            - { url: "ftp://consumer.example/x", secret_env: A, secret_file: /b }
            - { url: "https://consumer.example/ok" }
        """))
        .isInstanceOf(ManifestException.class)
        .satisfies(e -> assertThat(((ManifestException) e).problems()).contains(
            "state.store must be auto, sqlite or redis",
            "state.min_free_mb must be >= 0",
            "state.commit_interval_ms must be in [1, 10000]",
            "state.colour is not a known field",
            "reconcile.enabled must be true or false",
            "reconcile.max_share must be in (0, 1]",
            "reconcile.rate_per_s must be > 0",
            "reconcile.backoff_base_ms must be <= reconcile.backoff_max_ms",
            "corrections.webhooks[0].url must be an absolute http(s) URL with a host",
            "corrections.webhooks[0] needs exactly one of secret_env or secret_file",
            "corrections.webhooks[1] needs exactly one of secret_env or secret_file"));
  }

  @Test
  @DisplayName("webhooks: unique URLs, an id that never shows the URL, a secret read once, and a URL token redacted when shown")
  void webhooks() throws Exception {
    Manifest m = parse("""
        corrections:
          webhooks:
            - { url: "https://consumer.example/hooks?token=s3cr3t", secret_env: HOOK_SECRET }
        """);
    WebhookConfig w = m.corrections().webhooks().get(0);
    assertThat(w.id()).startsWith("webhook-").doesNotContain("consumer");
    assertThat(w.readSecret(Map.of("HOOK_SECRET", " abc ")).reveal()).isEqualTo("abc");
    assertThatThrownBy(() -> w.readSecret(Map.of())).hasMessageContaining("HOOK_SECRET is unset");
    assertThat(m.describe().encode()).doesNotContain("s3cr3t").contains("token=[redacted]");
    assertThatThrownBy(() -> parse("""
        corrections:
          webhooks:
            - { url: "https://a.example/h", secret_env: A }
            - { url: "https://a.example/h", secret_env: B }
        """)).satisfies(e -> assertThat(((ManifestException) e).problems())
        .contains("corrections.webhooks[1].url 'https://a.example/h' is a duplicate"));
  }
}
