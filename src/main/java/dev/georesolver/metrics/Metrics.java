package dev.georesolver.metrics;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * The operator's numbers, served at {@code GET /metrics} in the Prometheus text format.
 *
 * <ul>
 *   <li>{@code georesolver_requests_total{direction, status, claim, source, degraded}} — every
 *       result, refusals apart from errors; {@code georesolver_request_seconds} its latency;
 *   <li>{@code georesolver_refusals_total{direction, reason}} — refusals by reason ({@code not_found},
 *       {@code not_found_where_asked}, {@code budget_exhausted}, {@code no_rung_available});
 *   <li>{@code georesolver_router_errors_total{kind}} — router_error, misconfigured, router_timeout;
 *   <li>{@code georesolver_bad_requests_total{field}} — rejected input, by the field named: one of
 *       {@link RequestValidator#PROBLEM_FIELDS}, or {@code other} for any name a client made up (so
 *       bad requests cannot grow the exposition);
 *   <li>{@code georesolver_http_connections} — client connections open now;
 *   <li>{@code georesolver_http_rejected_total{reason}} — connections the server shed or requests
 *       it refused before routing: {@code connection_limit}, {@code header_timeout},
 *       {@code body_timeout}, {@code body_too_large}, {@code malformed},
 *       {@code request_line_too_long}, {@code headers_too_large};
 *   <li>{@code georesolver_rung_total{tier, outcome}} and {@code georesolver_rung_seconds{tier}} — each
 *       rung visit of a walk (replays and coalesced deliveries are not walks and are not counted);
 *   <li>{@code georesolver_deliveries_total{kind}} — walked, replayed, coalesced;
 *   <li>{@code georesolver_breaker_state{tier}} (0 closed, 1 half-open, 2 open; forced open reads 2
 *       and forced closed 0), {@code georesolver_breaker_forced{tier}} (1 while an operator holds
 *       the breaker open or closed, else 0) and {@code georesolver_breaker_transitions_total{tier, to}}
 *       ({@code to}: closed, open, half_open, forced_open, forced_closed);
 *   <li>{@code georesolver_store_available{store}} — 1 while the Redis breaker lets commands through;
 *   <li>{@code georesolver_tenant_requests_total{tenant, outcome}} — with tenants configured, each
 *       authenticated request by tenant: {@code admitted}, {@code forbidden} (an intent or endpoint
 *       the tenant may not use), {@code rate_limited}; tenant ids are the manifest's, a fixed set;
 *   <li>{@code georesolver_unauthenticated_total{reason}} — requests refused 401, by
 *       {@code missing_key} or {@code unknown_key} (no tenant to count them under);
 *   <li>shadow sampling: {@code georesolver_shadow_distance_meters{served, shadow}} (a histogram of
 *       the metres between the two rungs' points, samples both found, buckets 10 m to 50 km),
 *       {@code georesolver_shadow_samples_total{served, shadow}} (samples measured),
 *       {@code georesolver_shadow_disagreements_total{served, shadow}} (only one of the two found
 *       something), {@code georesolver_shadow_dropped_total{reason}} ({@code queue_full},
 *       {@code ceiling}), {@code georesolver_shadow_skipped_total{reason}} (not asked:
 *       {@code breaker_open}, {@code not_in_ladder} (outside the request's ladder: its claims, direction or residency), {@code no_shadow_rung}, {@code opted_out},
 *       {@code gone}), {@code georesolver_shadow_failed_total{tier}} (asked, no answer to measure) and
 *       {@code georesolver_shadow_drift_total{tier, outcome}} (drift checks of replays: {@code moved},
 *       {@code steady}, {@code not_found}, {@code failed}, {@code known});
 *       rung names are the manifest's, a fixed set.
 * </ul>
 *
 * One registry per process, shared by the verticles (meters are thread-safe); meters are cached so
 * the hot path does not rebuild tag sets.
 */
public final class Metrics {

  /** The kinds of {@link #routerError}. */
  private static final List<String> ROUTER_ERROR_KINDS = List.of("router_error", "misconfigured", "router_timeout");
  /** The reasons {@link #httpRejected} counts; any other reason is a programming error. */
  public static final Set<String> HTTP_REJECTIONS = Set.of("connection_limit", "header_timeout",
      "body_timeout", "body_too_large", "malformed", "request_line_too_long", "headers_too_large");

  /** What {@link #tenant} counts for a tenant's request. */
  public enum TenantOutcome {
    /** Authenticated and within its rate limit. */
    ADMITTED,
    /** An intent or endpoint it may not use: 403. */
    FORBIDDEN,
    /** Over its rate limit: 429. */
    RATE_LIMITED;

    String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The reasons {@link #unauthenticated} counts. */
  public static final Set<String> UNAUTHENTICATED_REASONS = Set.of("missing_key", "unknown_key");

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> gauges = new ConcurrentHashMap<>();
  private final Map<RequestTags, Counter> requests = new ConcurrentHashMap<>();
  private final Map<RungTags, Counter> rungs = new ConcurrentHashMap<>();
  private final Map<RefusalTags, Counter> refusals = new ConcurrentHashMap<>();
  private final Map<String, Timer> rungTimers = new ConcurrentHashMap<>();
  /** Per tenant, its counters by {@link TenantOutcome} ordinal: one lookup per request, no tag set built. */
  private final Map<String, Counter[]> tenantCounters = new ConcurrentHashMap<>();
  private final Timer forwardTimer = requestTimer("forward");
  private final Timer reverseTimer = requestTimer("reverse");
  private final Counter walked = delivery("walked");
  private final Counter replayed = delivery("replayed");
  private final Counter coalesced = delivery("coalesced");

  /**
   * A registry with the router-error counters already at zero, so a rate over them is 0 rather than
   * absent before the first error (alert rules compare it).
   */
  public Metrics() {
    for (String kind : ROUTER_ERROR_KINDS) {
      routerError(kind, 0);
    }
  }

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }

  /** Records one delivered result (a redelivery is always a replay or a coalesced delivery). */
  public void result(ResolveReply r) {
    requests.computeIfAbsent(new RequestTags(r.direction(), r.status(), r.claim(), r.resolutionSource(), r.degraded()),
        this::requestCounter).increment();
    (r.direction() == Direction.FORWARD ? forwardTimer : reverseTimer).record(r.elapsedMs(), TimeUnit.MILLISECONDS);
    if (!r.resolved()) {
      refusals.computeIfAbsent(new RefusalTags(r.direction(), r.reason()), this::refusalCounter).increment();
    }
    if (r.replayAgeS() != null) {
      replayed.increment();
    } else if (r.coalesced()) {
      coalesced.increment();
    } else if (r instanceof ResolveResult walk) {
      walked.increment();
      for (Attempt a : walk.attempts()) {
        rungs.computeIfAbsent(new RungTags(a.tier(), a.outcome()), t -> Counter.builder("georesolver_rung")
            .description("Rung visits by outcome").tag("tier", t.tier()).tag("outcome", t.outcome())
            .register(registry)).increment();
        if (a.tries() > 0) {
          rungTimers.computeIfAbsent(a.tier(), tier -> Timer.builder("georesolver_rung")
              .description("Time spent at a rung that was called")
              .tag("tier", tier)
              .publishPercentileHistogram()
              .maximumExpectedValue(Duration.ofSeconds(10))
              .register(registry)).record(a.ms(), TimeUnit.MILLISECONDS);
        }
      }
    }
  }

  /** The tags of a result counter; a record, so the hot path builds no strings to look it up. */
  private record RequestTags(Direction direction, String status, Claim claim, String source, boolean degraded) {}

  private record RungTags(String tier, String outcome) {}

  private record RefusalTags(Direction direction, String reason) {}

  private Counter refusalCounter(RefusalTags t) {
    return Counter.builder("georesolver_refusals")
        .description("Refusals (no rung could answer), by reason; counted apart from router errors")
        .tag("direction", t.direction().name().toLowerCase(Locale.ROOT))
        .tag("reason", t.reason() == null ? "none" : t.reason())
        .register(registry);
  }

  private Counter requestCounter(RequestTags t) {
    return Counter.builder("georesolver_requests")
        .description("Results delivered, by outcome")
        .tag("direction", t.direction().name().toLowerCase(Locale.ROOT))
        .tag("status", t.status())
        .tag("claim", t.claim() == null ? "none" : t.claim().wire())
        .tag("source", t.source() == null ? "none" : t.source())
        .tag("degraded", Boolean.toString(t.degraded()))
        .register(registry);
  }

  private Timer requestTimer(String direction) {
    return Timer.builder("georesolver_request")
        .description("Time in the resolver per result")
        .tag("direction", direction)
        .publishPercentileHistogram()
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry);
  }

  private Counter delivery(String kind) {
    return Counter.builder("georesolver_deliveries").description("How results were delivered").tag("kind", kind)
        .register(registry);
  }

  /**
   * Cumulative totals since start, as read at one moment: what the operator's live view takes its
   * per-second figures from (by difference between two readings). Cheap enough to take once a
   * second from any thread; nothing on the request path changes for it.
   *
   * @param resolvedBySource resolved answers delivered, by {@code resolution_source}
   * @param refused refusals delivered
   * @param replayed answers delivered from the idempotency store
   * @param coalesced answers shared from an identical request's walk
   * @param latency every delivered result's time in the resolver
   */
  public record Reading(Map<String, Long> resolvedBySource, long refused, long replayed, long coalesced, Histogram latency) {}

  /**
   * A cumulative latency histogram.
   *
   * @param upperBoundsMs bucket upper bounds, milliseconds, ascending
   * @param cumulative results at or below each bound
   * @param total every result, those above the last bound included
   */
  public record Histogram(double[] upperBoundsMs, long[] cumulative, long total) {}

  /** Reads every total at once (see {@link Reading}). */
  public Reading reading() {
    Map<String, Long> bySource = new TreeMap<>();
    long refused = 0;
    for (Map.Entry<RequestTags, Counter> e : requests.entrySet()) {
      long n = (long) e.getValue().count();
      if (ResolveResult.RESOLVED.equals(e.getKey().status()) && e.getKey().source() != null) {
        bySource.merge(e.getKey().source(), n, Long::sum);
      } else {
        refused += n;
      }
    }
    return new Reading(Collections.unmodifiableMap(bySource), refused, (long) replayed.count(), (long) coalesced.count(),
        histogram(forwardTimer.takeSnapshot(), reverseTimer.takeSnapshot()));
  }

  private static Histogram histogram(HistogramSnapshot a, HistogramSnapshot b) {
    CountAtBucket[] ba = a.histogramCounts();
    CountAtBucket[] bb = b.histogramCounts();
    double[] bounds = new double[ba.length];
    long[] counts = new long[ba.length];
    for (int i = 0; i < ba.length; i++) {
      bounds[i] = ba[i].bucket(TimeUnit.MILLISECONDS);
      counts[i] = (long) ba[i].count() + (i < bb.length ? (long) bb[i].count() : 0);
    }
    return new Histogram(bounds, counts, a.count() + b.count());
  }

  /** Records a request rejected for a field; a field outside the API's own is counted as {@code other}. */
  public void badRequest(String field) {
    String label = RequestValidator.PROBLEM_FIELDS.contains(field) ? field : "other";
    counter("bad|" + label, "georesolver_bad_requests", "Requests rejected as invalid", "field", label).increment();
  }

  /**
   * Records a connection shed or a request refused at the HTTP layer.
   *
   * @param reason one of {@link #HTTP_REJECTIONS}
   * @throws IllegalArgumentException for any other reason
   */
  public void httpRejected(String reason) {
    if (!HTTP_REJECTIONS.contains(reason)) {
      throw new IllegalArgumentException("not an HTTP rejection reason: " + reason);
    }
    counter("http|" + reason, "georesolver_http_rejected", "Connections shed or requests refused at the HTTP layer",
        "reason", reason).increment();
  }

  /**
   * Reports the open client connections; the first source given is the one reported (one per
   * resolver).
   */
  public void httpConnections(IntSupplier open) {
    Gauge.builder("georesolver_http_connections", open, IntSupplier::getAsInt)
        .description("Client connections open now").strongReference(true).register(registry);
  }

  /** Records a router failure: {@code router_error}, {@code misconfigured}, {@code router_timeout}. */
  public void routerError(String kind) {
    routerError(kind, 1);
  }

  private void routerError(String kind, int n) {
    counter("err|" + kind, "georesolver_router_errors", "Requests the router failed", "kind", kind).increment(n);
  }

  /** The breaker states a transition may go to, as {@link #breaker} takes them. */
  private static final List<String> BREAKER_STATES = List.of("open", "half_open", "closed", "forced_open", "forced_closed");

  /** Records a breaker transition to {@code to}, one of closed, open, half_open, forced_open, forced_closed. */
  public void breaker(String tier, String to) {
    gauge("breaker|" + tier, "georesolver_breaker_state", "tier", tier)
        .set(switch (to) {
          case "open", "forced_open" -> 2;
          case "half_open" -> 1;
          default -> 0;
        });
    gauge("forced|" + tier, "georesolver_breaker_forced", "tier", tier).set(to.startsWith("forced_") ? 1 : 0);
    transitions(tier, to).increment();
  }

  private Counter transitions(String tier, String to) {
    return counter("bt|" + tier + '|' + to, "georesolver_breaker_transitions", "Breaker transitions", "tier", tier, "to", to);
  }

  /**
   * Declares a tier's breaker (closed) and its transition counters (at zero) so they are reported
   * before the first transition, and the first one shows in a rate.
   */
  public void tier(String tier) {
    gauge("breaker|" + tier, "georesolver_breaker_state", "tier", tier);
    gauge("forced|" + tier, "georesolver_breaker_forced", "tier", tier);
    for (String to : BREAKER_STATES) {
      transitions(tier, to);
    }
  }

  /** Declares the tenants' counters at zero, so a rate over them exists before their first request. */
  public void tenants(Iterable<String> ids) {
    ids.forEach(this::tenantCounters);
    UNAUTHENTICATED_REASONS.forEach(r -> unauthenticatedCounter(r));
  }

  /** Records one authenticated request of a configured tenant. */
  public void tenant(String id, TenantOutcome outcome) {
    tenantCounters(id)[outcome.ordinal()].increment();
  }

  private Counter[] tenantCounters(String id) {
    return tenantCounters.computeIfAbsent(id, t -> {
      TenantOutcome[] all = TenantOutcome.values();
      Counter[] c = new Counter[all.length];
      for (TenantOutcome o : all) {
        c[o.ordinal()] = Counter.builder("georesolver_tenant_requests").description("Authenticated requests, by tenant and outcome")
            .tag("tenant", t).tag("outcome", o.wire()).register(registry);
      }
      return c;
    });
  }

  /**
   * Records a request refused 401.
   *
   * @param reason one of {@link #UNAUTHENTICATED_REASONS}
   * @throws IllegalArgumentException for any other reason
   */
  public void unauthenticated(String reason) {
    if (!UNAUTHENTICATED_REASONS.contains(reason)) {
      throw new IllegalArgumentException("not a reason for a 401: " + reason);
    }
    unauthenticatedCounter(reason).increment();
  }

  private Counter unauthenticatedCounter(String reason) {
    return counter("401|" + reason, "georesolver_unauthenticated", "Requests refused for a missing or unknown key", "reason", reason);
  }

  /** Records whether a store's Redis is usable. */
  public void storeAvailable(String store, boolean up) {
    gauge("store|" + store, "georesolver_store_available", "store", store).set(up ? 1 : 0);
  }

  // ---- durable state, reconciliation and corrections ----

  /** Counts new durable records refused (disk nearly full, or a full buffer), by module. */
  public void stateRefused(String module, int n) {
    counter("sr|" + module, "georesolver_state_refused", "New durable records refused (disk nearly full or buffer full)",
        "module", module).increment(n);
  }

  /**
   * Counts audit records by {@code result}: {@code written} (durable in the store), {@code retried}
   * (a write failed; kept for the next flush), {@code dropped} (refused: the retry buffer was full).
   */
  public void audit(String result, int n) {
    counter("au|" + result, "georesolver_audit_records", "Audit records by result (written, retried, dropped)",
        "result", result).increment(n);
  }

  /** Sets the reconcile queue's figures ({@code /v1/reconcile}). */
  public void reconcile(long pending, long inProgress, long done, long dead, double oldestPendingAgeS, double drainRatePerS) {
    reconcileGauge("pending").set(pending);
    reconcileGauge("in_progress").set(inProgress);
    reconcileGauge("done").set(done);
    reconcileGauge("dead").set(dead);
    decimal("georesolver_reconcile_oldest_pending_age_seconds", "Age of the oldest queued degraded answer")
        .set(Double.doubleToLongBits(oldestPendingAgeS));
    decimal("georesolver_reconcile_drain_rate_per_second", "Queued items settled per second over the last minute")
        .set(Double.doubleToLongBits(drainRatePerS));
  }

  /** Counts one settled reconcile item by outcome: corrected, confirmed, retried, dead, released. */
  public void reconciled(String outcome) {
    counter("ro|" + outcome, "georesolver_reconcile_items", "Reconcile items settled, by outcome", "outcome", outcome).increment();
  }

  /** Counts a correction delivery by channel ({@code bus}, {@code webhook}) and result ({@code ok}, {@code failed}). */
  public void correctionDelivery(String channel, String result) {
    counter("cd|" + channel + '|' + result, "georesolver_correction_deliveries", "Corrections delivered, by channel and result",
        "channel", channel, "result", result).increment();
  }

  // ---- shadow sampling ----

  /** The reasons {@link #shadowDropped} counts. */
  public static final Set<String> SHADOW_DROPS = Set.of("queue_full", "ceiling");
  /** The reasons {@link #shadowSkipped} counts. */
  public static final Set<String> SHADOW_SKIPS = Set.of("breaker_open", "not_in_ladder", "no_shadow_rung", "opted_out", "gone");
  private static final double[] SHADOW_BUCKETS_M = {10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 50_000};
  private final Map<String, io.micrometer.core.instrument.DistributionSummary> shadowDistances = new ConcurrentHashMap<>();

  /**
   * Records one shadow sample of the pair.
   *
   * @param distanceM metres between the two points when both found, else NaN
   * @param disagreement whether only one of the two found something
   */
  public void shadowSample(String served, String shadow, double distanceM, boolean disagreement) {
    String pair = served + '|' + shadow;
    counter("ss|" + pair, "georesolver_shadow_samples", "Shadow samples measured, by pair", "served", served, "shadow", shadow)
        .increment();
    Counter disagreements = counter("sd|" + pair, "georesolver_shadow_disagreements",
        "Shadow samples only one of the two rungs found something for", "served", served, "shadow", shadow);
    if (disagreement) {
      disagreements.increment();
    }
    if (!Double.isNaN(distanceM)) {
      shadowDistances.computeIfAbsent(pair, k -> io.micrometer.core.instrument.DistributionSummary
              .builder("georesolver_shadow_distance_meters")
              .description("Metres between the served rung's point and the shadow rung's, samples both found")
              .baseUnit("meters").tags("served", served, "shadow", shadow).serviceLevelObjectives(SHADOW_BUCKETS_M)
              .register(registry))
          .record(distanceM);
    }
  }

  /**
   * Counts a sample dropped before its shadow call.
   *
   * @param reason one of {@link #SHADOW_DROPS}
   */
  public void shadowDropped(String reason) {
    if (!SHADOW_DROPS.contains(reason)) {
      throw new IllegalArgumentException("not a shadow drop reason: " + reason);
    }
    counter("sx|" + reason, "georesolver_shadow_dropped", "Shadow samples dropped (queue full, or over a tier's ceiling)",
        "reason", reason).increment();
  }

  /**
   * Counts a sample whose shadow call was not made.
   *
   * @param reason one of {@link #SHADOW_SKIPS}
   */
  public void shadowSkipped(String reason) {
    if (!SHADOW_SKIPS.contains(reason)) {
      throw new IllegalArgumentException("not a shadow skip reason: " + reason);
    }
    counter("sk|" + reason, "georesolver_shadow_skipped", "Shadow samples not asked (breaker open, residency, no rung)",
        "reason", reason).increment();
  }

  /** Counts a shadow call that gave nothing to measure (a failure other than "not found"). */
  public void shadowFailed(String tier) {
    counter("sf|" + tier, "georesolver_shadow_failed", "Shadow calls that failed (nothing measured)", "tier", tier).increment();
  }

  /** The outcomes {@link #shadowDrift} counts. */
  public static final Set<String> DRIFT_OUTCOMES = Set.of("moved", "steady", "not_found", "failed", "known");

  /**
   * Counts a drift check of a replay, asked again of {@code tier} (the rung that produced it).
   *
   * @param outcome one of {@link #DRIFT_OUTCOMES}: {@code moved} (corrected), {@code steady},
   *     {@code not_found}, {@code failed}, {@code known} (moved, corrected before)
   */
  public void shadowDrift(String tier, String outcome) {
    if (!DRIFT_OUTCOMES.contains(outcome)) {
      throw new IllegalArgumentException("not a drift outcome: " + outcome);
    }
    counter("dr|" + tier + '|' + outcome, "georesolver_shadow_drift", "Drift checks of replayed answers, by outcome", "tier", tier,
        "outcome", outcome).increment();
  }

  /** Declares the drop counters at zero, so a rate over them exists before the first drop. */
  public void shadowDeclared() {
    SHADOW_DROPS.forEach(r -> counter("sx|" + r, "georesolver_shadow_dropped",
        "Shadow samples dropped (queue full, or over a tier's ceiling)", "reason", r));
  }

  private java.util.concurrent.atomic.AtomicLong reconcileGauge(String state) {
    return longs.computeIfAbsent("rq|" + state, k -> {
      java.util.concurrent.atomic.AtomicLong v = new java.util.concurrent.atomic.AtomicLong();
      io.micrometer.core.instrument.Gauge.builder("georesolver_reconcile_queue", v, java.util.concurrent.atomic.AtomicLong::get)
          .description("Reconcile queue items by state").tag("state", state).register(registry);
      return v;
    });
  }

  /** A gauge of a double, held as its bits in an {@code AtomicLong}. */
  private java.util.concurrent.atomic.AtomicLong decimal(String name, String help) {
    return decimals.computeIfAbsent(name, k -> {
      java.util.concurrent.atomic.AtomicLong v = new java.util.concurrent.atomic.AtomicLong(Double.doubleToLongBits(0));
      io.micrometer.core.instrument.Gauge.builder(name, v, b -> Double.longBitsToDouble(b.get()))
          .description(help).register(registry);
      return v;
    });
  }

  private final Map<String, java.util.concurrent.atomic.AtomicLong> longs = new ConcurrentHashMap<>();
  private final Map<String, java.util.concurrent.atomic.AtomicLong> decimals = new ConcurrentHashMap<>();

  private Counter counter(String key, String name, String help, String... tags) {
    return counters.computeIfAbsent(key, k -> Counter.builder(name).description(help).tags(tags).register(registry));
  }

  private AtomicInteger gauge(String key, String name, String tag, String value) {
    return gauges.computeIfAbsent(key, k -> {
      AtomicInteger v = new AtomicInteger();
      Gauge.builder(name, v, AtomicInteger::get).tag(tag, value).register(registry);
      return v;
    });
  }
}
