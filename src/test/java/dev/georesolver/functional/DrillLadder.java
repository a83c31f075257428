package dev.georesolver.functional;

import dev.georesolver.bus.Addresses;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.WebhookReceiver;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static dev.georesolver.support.ManifestBuilder.manifest;

/**
 * The failover drill's parts: a primary (claim exact) that can be made to hang and recover, a
 * fallback (open data) that always answers, a webhook stand-in, and the manifest that ties them
 * to a reconciler tuned to drain within seconds. Shared by the drill scenarios.
 */
final class DrillLadder {

  static final String SECRET = "drill-hook-secret";
  static final long BUDGET_MS = 1500;

  final FakeProvider primary;
  final FakeProvider fallback;
  final WebhookReceiver hook;

  private DrillLadder(FakeProvider primary, FakeProvider fallback, WebhookReceiver hook) {
    this.primary = primary;
    this.fallback = fallback;
    this.hook = hook;
  }

  static DrillLadder start(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, r -> FakeProvider.json(point(r.getParam("q"), 0))).await();
    FakeProvider fallback = FakeProvider.start(vertx, r -> FakeProvider.json(point(r.getParam("q"), 0.01))).await();
    return new DrillLadder(primary, fallback, WebhookReceiver.start(vertx, SECRET).await());
  }

  /** The generic contract's answer for an address "drill N": a point of its own, shifted for the fallback. */
  static JsonObject point(String q, double shift) {
    int n = q == null ? 0 : Math.abs(q.hashCode() % 1000);
    return FakeProvider.generic(10 + n / 1000.0 + shift, 50 + shift, "EPSG:4326", shift == 0 ? 0.95 : 0.6);
  }

  /** The primary hangs (every call runs into its timeout). */
  void outage() {
    primary.behave(new FakeProvider.Hang());
  }

  /** The primary answers again. */
  void recover() {
    primary.behave(r -> FakeProvider.json(point(r.getParam("q"), 0)));
  }

  /**
   * The manifest, with the state file at {@code statePath} (null: left to the test support). The
   * reconciler's timer is left at its default (10 s), so within a drill it drains when the primary's
   * breaker closes; {@code reconcileFields} add to or override its settings.
   */
  String yaml(String statePath, String... reconcileFields) {
    Map<String, String> r = new java.util.LinkedHashMap<>();
    for (String f : ("rate_per_s: 40|batch: 50|lease_ms: 3000|concurrency: 1|backoff_base_ms: 200|backoff_max_ms: 1000")
        .split("\\|")) {
      r.put(f.substring(0, f.indexOf(':')), f.substring(f.indexOf(':') + 1).strip());
    }
    for (String f : reconcileFields) {
      r.put(f.substring(0, f.indexOf(':')).strip(), f.substring(f.indexOf(':') + 1).strip());
    }
    String reconcile = r.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", "));
    return manifest().budget(BUDGET_MS)
        .tier("primary", "generic", primary.url(), "exact", 300, "typical_ms: 30",
            "circuit_breaker: { failure_threshold: 3, half_open_timeout_ms: 1000, success_threshold: 1 }")
        .tier("fallback", "generic", fallback.url(), "open_data", 1000, "typical_ms: 20",
            "circuit_breaker: { failure_threshold: 1000, half_open_timeout_ms: 1000, success_threshold: 1 }")
        .extra((statePath == null ? "" : "state: { path: \"" + statePath + "\" }\n")
            + "reconcile: { " + reconcile + " }\n"
            + "corrections:\n  retry_base_ms: 100\n  retry_max_ms: 400\n  webhooks:\n"
            + "    - { url: \"" + hook.url() + "\", secret_env: DRILL_HOOK_SECRET }")
        .yaml();
  }

  static Map<String, String> env() {
    return Map.of("DRILL_HOOK_SECRET", SECRET);
  }

  /** Every Idempotency-Key the primary saw for each address. */
  Map<String, List<String>> primaryKeysByAddress() {
    return primary.seen().stream().filter(s -> s.query().get("q") != null).collect(Collectors.groupingBy(
        s -> s.query().get("q"), Collectors.mapping(s -> s.headers().get("Idempotency-Key"), Collectors.toList())));
  }

  /** Collects what is published on the corrections address of {@code vertx}. */
  static List<JsonObject> busCorrections(Vertx vertx) {
    List<JsonObject> seen = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.CORRECTIONS, m -> seen.add(m.body())).completion().await();
    return seen;
  }

  /** Collects what the reconciler tells the operator's live view ({@code geocode.reconcile.events}). */
  static List<JsonObject> dashboardNews(Vertx vertx) {
    List<JsonObject> seen = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.RECONCILE_EVENTS, m -> seen.add(m.body())).completion().await();
    return seen;
  }

  /** Collects the breaker transitions of {@code vertx}. */
  static List<JsonObject> breakerEvents(Vertx vertx) {
    List<JsonObject> seen = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_EVENTS, m -> seen.add(m.body())).completion().await();
    return seen;
  }

  /** Waits until {@code done} holds, failing after {@code timeout}. */
  static void await(String what, Duration timeout, BooleanSupplier done) {
    long until = System.nanoTime() + timeout.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > until) {
        throw new AssertionError("timed out waiting for " + what);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
