package dev.georesolver.metrics;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.ResolveResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The operator's numbers, served at {@code GET /metrics} in the Prometheus text format.
 *
 * <ul>
 *   <li>{@code georesolver_requests_total{direction, status, claim, source, degraded}} — every
 *       result, refusals apart from errors; {@code georesolver_request_seconds} its latency;
 *   <li>{@code georesolver_router_errors_total{kind}} — router_error, misconfigured, router_timeout;
 *   <li>{@code georesolver_bad_requests_total{field}} — rejected input;
 *   <li>{@code georesolver_rung_total{tier, outcome}} and {@code georesolver_rung_seconds{tier}} — each
 *       rung visit of a walk (replays and coalesced deliveries are not walks and are not counted);
 *   <li>{@code georesolver_deliveries_total{kind}} — walked, replayed, coalesced;
 *   <li>{@code georesolver_breaker_state{tier}} (0 closed, 1 half-open, 2 open) and
 *       {@code georesolver_breaker_transitions_total{tier, to}};
 *   <li>{@code georesolver_store_available{store}} — 1 while the Redis breaker lets commands through.
 * </ul>
 *
 * One registry per process, shared by the verticles (meters are thread-safe); meters are cached so
 * the hot path does not rebuild tag sets.
 */
public final class Metrics {

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> gauges = new ConcurrentHashMap<>();

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }

  /** Records one delivered result. */
  public void result(ResolveResult r) {
    String direction = r.direction().name().toLowerCase();
    String claim = r.claim() == null ? "none" : r.claim().wire();
    String source = r.resolutionSource() == null ? "none" : r.resolutionSource();
    String key = "req|" + direction + '|' + r.status() + '|' + claim + '|' + source + '|' + r.degraded();
    counters.computeIfAbsent(key, k -> Counter.builder("georesolver_requests")
        .description("Results delivered, by outcome")
        .tag("direction", direction).tag("status", r.status()).tag("claim", claim).tag("source", source)
        .tag("degraded", Boolean.toString(r.degraded()))
        .register(registry)).increment();
    timers.computeIfAbsent("req|" + direction, k -> Timer.builder("georesolver_request")
        .description("Time in the resolver per result")
        .tag("direction", direction)
        .publishPercentileHistogram()
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry)).record(r.elapsedMs(), TimeUnit.MILLISECONDS);
    String kind = r.replayAgeS() != null ? "replayed" : r.coalesced() ? "coalesced" : "walked";
    counter("deliveries|" + kind, "georesolver_deliveries", "How results were delivered", "kind", kind).increment();
    if (kind.equals("walked")) {
      for (Attempt a : r.attempts()) {
        counter("rung|" + a.tier() + '|' + a.outcome(), "georesolver_rung", "Rung visits by outcome", "tier", a.tier(),
            "outcome", a.outcome()).increment();
        if (a.tries() > 0) {
          timers.computeIfAbsent("rung|" + a.tier(), k -> Timer.builder("georesolver_rung")
              .description("Time spent at a rung that was called")
              .tag("tier", a.tier())
              .publishPercentileHistogram()
              .maximumExpectedValue(Duration.ofSeconds(10))
              .register(registry)).record(a.ms(), TimeUnit.MILLISECONDS);
        }
      }
    }
  }

  /** Records a request rejected for a field. */
  public void badRequest(String field) {
    counter("bad|" + field, "georesolver_bad_requests", "Requests rejected as invalid", "field", field).increment();
  }

  /** Records a router failure: {@code router_error}, {@code misconfigured}, {@code router_timeout}. */
  public void routerError(String kind) {
    counter("err|" + kind, "georesolver_router_errors", "Requests the router failed", "kind", kind).increment();
  }

  /** Records a breaker transition. */
  public void breaker(String tier, String to) {
    gauge("breaker|" + tier, "georesolver_breaker_state", "tier", tier)
        .set(switch (to) {
          case "open" -> 2;
          case "half_open" -> 1;
          default -> 0;
        });
    counter("bt|" + tier + '|' + to, "georesolver_breaker_transitions", "Breaker transitions", "tier", tier, "to", to)
        .increment();
  }

  /** Declares a tier's breaker (closed) so it is reported before its first transition. */
  public void tier(String tier) {
    gauge("breaker|" + tier, "georesolver_breaker_state", "tier", tier);
  }

  /** Records whether a store's Redis is usable. */
  public void storeAvailable(String store, boolean up) {
    gauge("store|" + store, "georesolver_store_available", "store", store).set(up ? 1 : 0);
  }

  private Counter counter(String key, String name, String help, String... tags) {
    return counters.computeIfAbsent(key, k -> Counter.builder(name).description(help).tags(tags).register(registry));
  }

  private AtomicInteger gauge(String key, String name, String tag, String value) {
    return gauges.computeIfAbsent(key, k -> {
      AtomicInteger v = new AtomicInteger();
      io.micrometer.core.instrument.Gauge.builder(name, v, AtomicInteger::get).tag(tag, value).register(registry);
      return v;
    });
  }
}
