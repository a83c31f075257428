package dev.georesolver.tier;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.TierAction;
import dev.georesolver.bus.TierReply;
import dev.georesolver.bus.TierRequest;
import dev.georesolver.config.TierConfig;
import dev.georesolver.crs.CrsCatalog;
import dev.georesolver.crs.CrsId;
import dev.georesolver.crs.CrsNormalizer;
import dev.georesolver.crs.CrsNotLoadedException;
import dev.georesolver.deadline.Admission;
import dev.georesolver.deadline.Deadline;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.ProviderText;
import dev.georesolver.tier.TierBreaker.Permit;
import dev.georesolver.trace.Hop;
import dev.georesolver.trace.SpanNames;
import dev.georesolver.trace.Tracing;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.opentelemetry.api.trace.SpanKind;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One rung of the ladder: owns the tier's connection pool, circuit breaker, outbound rate limiter,
 * credential, adapter, CRS transforms and latency statistics. Listens on {@link Addresses#tier}.
 *
 * <p>For each visit it re-bases the deadline on arrival (refusing at the door when the budget is
 * spent), then makes attempts: each one admitted against the time left minus the reserve the chain
 * keeps for the rungs below, bounded by {@code min(timeout_ms, usable time)}, let through by the
 * breaker and the rate limiter, and retried — transient failures only — within
 * {@code retry_budget} with full-jitter backoff. Every state change of the breaker is published on
 * {@link Addresses#BREAKER_EVENTS} and logged; the median latency on {@link Addresses#TIER_STATS}.
 * An operator's commands ({@link Addresses#tierControl}) force the breaker open or closed, or
 * release it; the forced state is the breaker's, so it lasts as long as this verticle, and a
 * reload that redeploys the tier starts the new verticle in it.
 *
 * <p>Nothing here blocks the event loop: an answer in a CRS whose definition is not in memory yet
 * waits for a lookup of the EPSG database on a worker, then is transformed here.
 */
public final class TierVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(TierVerticle.class);

  private final TierSpec spec;
  private final TierConfig cfg;
  private final AdapterRegistry.Adapter adapter;
  private TierCall call;
  private TierBreaker breaker;
  private RateLimiter rateLimiter;
  /** The batch attempts' own limiter, at {@code batch.max_share} of the tier's rate; null without a rate limit. */
  private RateLimiter batchLimiter;
  /** Batch attempts in flight at most: {@code batch.max_share} of the pool, at least one. */
  private int batchCap;
  private int batchInFlight;
  private LatencyWindow latency;
  private HitSelector selector;
  private Backoff backoff;
  /** CRS lookups in flight, so that answers waiting for one definition share one worker task. */
  private final Map<CrsId, Future<CrsCatalog.Entry>> lookups = new HashMap<>();
  /** Attempt spans; off unless {@link #tracing} says otherwise. */
  private Tracing tracing = Tracing.off();

  /**
   * How long {@code stop} waits for visits in flight, milliseconds: each ends by its own deadline
   * (at most the manifest's {@code max_budget_ms}), so this only bounds a clock gone wrong.
   */
  static final long STOP_WAIT_MS = 15_000;
  /**
   * How often a tier of a clustered node announces its state and median on
   * {@link Addresses#TIER_STATS} even when neither changed, milliseconds: the chains forget a node
   * they have not heard from for three of these (it left the cluster).
   */
  public static final long HEARTBEAT_MS = 5_000;

  /** Visits taken and not yet answered; confined to this verticle's context. */
  private int inFlight;
  private MessageConsumer<TierRequest> visits;
  /** The plain {@link Addresses#tier} consumer of a verticle deployed on a generation's address; else null. */
  private MessageConsumer<TierRequest> plainVisits;
  /** Where the chain sends this deployment's visits ({@link Addresses#tierVisit}). */
  private final String visitAddress;

  /** The breaker state to start in (a drill carried over a reload), or null. */
  private final TierBreaker.Force forced;

  public TierVerticle(TierSpec spec) {
    this(spec, null, Addresses.tier(spec.config().name()));
  }

  /**
   * A tier whose breaker starts forced: how a reload that redeploys a changed tier keeps the drill
   * an operator left on it.
   *
   * @param forced the forced state to start in, or null for a breaker that starts closed
   * @param visitAddress where its visits come ({@link Addresses#tierVisit}); when it is not the
   *     plain {@link Addresses#tier}, that one is listened on too
   */
  public TierVerticle(TierSpec spec, TierBreaker.Force forced, String visitAddress) {
    this.visitAddress = visitAddress;
    this.spec = spec;
    this.cfg = spec.config();
    this.adapter = AdapterRegistry.get(cfg.adapter());
    this.forced = forced;
  }

  /** Records attempt spans with {@code tracing} (default {@link Tracing#off()}); before deploying. */
  public TierVerticle tracing(Tracing tracing) {
    this.tracing = tracing;
    return this;
  }

  @Override
  public Future<?> start() {
    latency = new LatencyWindow(cfg.typicalMs());
    selector = new HitSelector(CrsNormalizer.nonBlocking(spec.crs()));
    backoff = new Backoff(cfg.retryBackoffMs(), spec.random());
    breaker = new TierBreaker(cfg.name(), cfg.breaker(), spec.clock(), this::onTransition);
    if (forced != null) {
      breaker.force(forced);
    }
    spec.metrics().tier(cfg.name());
    rateLimiter = cfg.rateLimitPerS() > 0 ? rateLimiter(cfg.name(), cfg.rateLimitPerS()) : null;
    batchLimiter = cfg.rateLimitPerS() > 0 ? rateLimiter(cfg.name() + "-batch", cfg.rateLimitPerS() * spec.batchShare()) : null;
    batchCap = Math.max(1, (int) Math.floor(cfg.poolSize() * spec.batchShare()));
    return buildCall().compose(c -> {
      call = c;
      visits = vertx.eventBus().consumer(visitAddress, this::onVisit);
      plainVisits = visitAddress.equals(Addresses.tier(cfg.name())) ? null
          : vertx.eventBus().consumer(Addresses.tier(cfg.name()), this::onVisit);
      MessageConsumer<Object> status = vertx.eventBus().consumer(Addresses.tierStatus(cfg.name()), m -> m.reply(status()));
      MessageConsumer<Object> control = vertx.eventBus().consumer(Addresses.tierControl(cfg.name()), this::onControl);
      if (Node.of(vertx).clustered()) {
        heartbeat = vertx.setPeriodic(HEARTBEAT_MS, id -> vertx.eventBus().publish(Addresses.TIER_STATS, status()));
      }
      return Future.all(visits.completion(), plainVisits == null ? Future.succeededFuture() : plainVisits.completion(),
          status.completion(), control.completion());
    });
  }

  /**
   * Takes no more visits, lets those in flight finish (a reload retires a tier while the walks of
   * the new revision may still be inside it), then closes the connection pool.
   */
  @Override
  public Future<?> stop() {
    if (heartbeat >= 0) {
      vertx.cancelTimer(heartbeat);
    }
    Future<Void> stopped = Future.join(visits == null ? Future.succeededFuture() : visits.unregister(),
        plainVisits == null ? Future.succeededFuture() : plainVisits.unregister()).mapEmpty();
    return stopped.compose(v -> idle(spec.ticker().nanoTime() + STOP_WAIT_MS * 1_000_000L))
        .compose(v -> call == null ? Future.succeededFuture() : call.close());
  }

  /** Completes once no visit is in flight, or at {@code untilNanos}. */
  private Future<Void> idle(long untilNanos) {
    if (inFlight <= 0 || spec.ticker().nanoTime() >= untilNanos) {
      return Future.succeededFuture();
    }
    return vertx.timer(10).compose(x -> idle(untilNanos));
  }

  private Future<TierCall> buildCall() {
    if (!adapter.local()) {
      return HttpTierCall.start(vertx, cfg, adapter, spec.secret());
    }
    LocalAdapterFactory factory = spec.localAdapter() != null ? spec.localAdapter()
        : LocalAdapters.builtIn(cfg.adapter(), spec.clock());
    if (factory == null) {
      return Future.failedFuture(new IllegalStateException("tier " + cfg.name() + ": no local adapter for " + cfg.adapter()));
    }
    return factory.create(vertx, cfg).map(a -> new LocalTierCall(vertx, cfg.adapter(), a));
  }

  private static RateLimiter rateLimiter(String name, double perS) {
    // Small periods keep the limit smooth: at 50/s, 5 calls per 100 ms rather than 50 at once.
    int perPeriod = (int) Math.max(1, Math.ceil(perS / 10));
    long periodNanos = (long) (perPeriod / perS * 1e9);
    return RateLimiter.of(name, RateLimiterConfig.custom()
        .limitForPeriod(perPeriod)
        .limitRefreshPeriod(Duration.ofNanos(periodNanos))
        .timeoutDuration(Duration.ZERO)
        .build());
  }

  private void onVisit(Message<TierRequest> msg) {
    long budget = Addresses.deadlineMs(msg.headers());
    if (budget <= 0) {
      msg.fail(FailureCode.DEADLINE_EXCEEDED.code(), "tier " + cfg.name() + ": arrived with its budget spent");
      return;
    }
    Deadline deadline = Deadline.in(spec.ticker(), budget);
    TierRequest req = msg.body();
    if (!adapter.capabilities().supports(req.direction())) {
      msg.reply(TierReply.skipped("unsupported", req.direction() == Direction.REVERSE ? "no reverse lookups" : "no forward lookups", 0));
      return;
    }
    boolean batch = Addresses.PRIORITY_BATCH.equals(msg.headers().get(Addresses.PRIORITY_HEADER));
    inFlight++;
    attempt(req, deadline, 1, null, Hop.fromBus(tracing, msg.headers(), null), batch).onComplete(ar -> {
      inFlight--;
      msg.reply(ar.succeeded() ? ar.result()
          : TierReply.failed(FailureClass.UNCLASSIFIED, ProviderText.bound("tier error: " + ar.cause()), 0));
    });
  }

  /**
   * Attempt number {@code n}; {@code last} is the previous attempt's failure, if any. A batch
   * attempt ({@code batch}) must also fit the batch share: fewer than {@code batchCap} batch
   * attempts in flight and a token of the batch limiter, so live traffic always keeps the rest of
   * the connections and of the rate.
   */
  private Future<TierReply> attempt(TierRequest req, Deadline deadline, int n, ProviderAnswer.Failed last, Hop visit, boolean batch) {
    long wait = n == 1 ? 0 : backoff.delayMs(n - 1);
    Admission.Decision d = Admission.decide(deadline.remainingMs() - spec.margins().tierReplyMs(), req.reserveMs(), wait,
        latency.median(), spec.admissionFactor(), cfg.timeoutMs());
    if (!d.admitted()) {
      return Future.succeededFuture(stop(n, last, "admission", "only " + d.usableMs() + " ms usable"));
    }
    return delay(wait).compose(v -> {
      Permit permit = breaker.tryAcquire();
      if (permit == null) {
        return Future.succeededFuture(stop(n, last, "breaker_open", null));
      }
      if (batch && !withinBatchShare(permit)) {
        return Future.succeededFuture(stop(n, last, "batch_share", "batch attempts use at most " + spec.batchShare()
            + " of this tier"));
      }
      if (!withinRateLimit(permit)) {
        return Future.succeededFuture(stop(n, last, "rate_limited", null));
      }
      if (batch) {
        batchInFlight++;
      }
      return underPermit(permit, req, d.attemptTimeoutMs(), attemptSpan(visit, n), outcome -> {
        if (batch) {
          batchInFlight--;
        }
        return outcome instanceof Outcome.Found found
            ? Future.succeededFuture(TierReply.hit(found.hit(), n))
            : next(req, deadline, n, ((Outcome.Failed) outcome).failure(), visit, batch);
      });
    });
  }

  /** Whether a batch attempt fits the batch share (connections, then rate); when it does not, the permit is handed back. */
  private boolean withinBatchShare(Permit permit) {
    boolean within = batchInFlight < batchCap && (batchLimiter == null || batchLimiter.acquirePermission());
    if (!within) {
      breaker.release(permit);
    }
    return within;
  }

  /** Whether the rate limiter lets the call through; when it does not, the permit is handed back. */
  private boolean withinRateLimit(Permit permit) {
    boolean within = false;
    try {
      within = rateLimiter == null || rateLimiter.acquirePermission();
      return within;
    } finally {
      if (!within) {
        breaker.release(permit);
      }
    }
  }

  /**
   * Makes one call under a breaker permit and settles the permit exactly once, whatever the call
   * does: it throws, its future fails, reading the answer throws, a CRS lookup fails. A permit lost
   * here would leave a half-open breaker with no trial calls left, refusing every visit until a
   * restart. The outcome is handed to {@code then} only once the permit is settled.
   */
  private Future<TierReply> underPermit(Permit permit, TierRequest req, long timeoutMs, Hop span,
      Function<Outcome, Future<TierReply>> then) {
    long started = spec.ticker().nanoTime();
    Future<ProviderAnswer> answer;
    try {
      answer = call.attempt(req, timeoutMs, span);
    } catch (RuntimeException e) {
      answer = Future.failedFuture(e);
    }
    return answer.transform(ar -> {
      long ms = (spec.ticker().nanoTime() - started) / 1_000_000L;
      try {
        return then.apply(ended(span, settle(req, read(req, ar), permit, ms)));
      } catch (CrsNotLoadedException missing) {
        return lookUp(missing.crs(), req, ar.result())
            .transform(looked -> then.apply(ended(span,
                settle(req, looked.succeeded() ? looked.result() : unclassified(looked.cause()), permit, ms))));
      }
    });
  }

  /**
   * The span of attempt {@code n}: an HTTP client span (named and described by the call) or, for a
   * local adapter, an internal one; the tier, its claim, and the resend count of a retry.
   */
  private Hop attemptSpan(Hop visit, int n) {
    Hop span = adapter.local()
        ? visit.child(SpanNames.LOCAL_ATTEMPT + " " + cfg.adapter(), SpanKind.INTERNAL)
        : visit.child("HTTP", SpanKind.CLIENT);
    span.set(SpanNames.TIER, cfg.name()).set(SpanNames.CLAIM, cfg.claim().wire());
    if (n > 1) {
      span.set(SpanNames.HTTP_REQUEST_RESEND_COUNT, n - 1);
    }
    return span;
  }

  /** Ends an attempt's span with its outcome ({@code hit} or the failure class); a counted failure marks it failed. */
  private static Outcome ended(Hop span, Outcome outcome) {
    if (outcome instanceof Outcome.Failed failed) {
      FailureClass fc = failed.failure().failureClass();
      span.set(SpanNames.OUTCOME, fc.wire());
      if (fc.countsAgainstBreaker()) {
        span.fail(fc.wire());
      }
    } else {
      span.set(SpanNames.OUTCOME, "hit");
    }
    span.end();
    return outcome;
  }

  /** What an attempt's result means; never throws but to ask for a CRS definition first. */
  private Outcome read(TierRequest req, AsyncResult<ProviderAnswer> ar) throws CrsNotLoadedException {
    if (ar.failed()) {
      return unclassified(ar.cause());
    }
    try {
      if (ar.result() instanceof ProviderAnswer.Found found) {
        return selector.select(found, req.forward() == null ? null : req.forward().bbox());
      }
      if (ar.result() instanceof ProviderAnswer.Failed failed) {
        return new Outcome.Failed(failed);
      }
      return unclassified(new IllegalStateException("the adapter answered nothing"));
    } catch (RuntimeException e) {
      return unclassified(e);
    }
  }

  /**
   * Looks up a CRS definition on a worker (the EPSG database is a file scan), then reads the answer
   * again on this loop; again for each further CRS the answer's candidates need.
   */
  private Future<Outcome> lookUp(CrsId crs, TierRequest req, ProviderAnswer answer) {
    Future<CrsCatalog.Entry> lookup = lookups.get(crs);
    if (lookup == null) {
      lookup = vertx.executeBlocking(() -> spec.crs().lookUp(crs), false);
      lookups.put(crs, lookup);
      lookup.onComplete(done -> lookups.remove(crs));
    }
    return lookup.compose(entry -> {
      try {
        return Future.succeededFuture(read(req, Future.succeededFuture(answer)));
      } catch (CrsNotLoadedException another) {
        return another.crs().equals(crs)
            ? Future.failedFuture(new IllegalStateException("definition of " + crs.canonical() + " still missing after its lookup"))
            : lookUp(another.crs(), req, answer);
      }
    });
  }

  /** An unexpected failure; its message may quote provider text (a CRS name, a body), so it is bounded and escaped. */
  private static Outcome unclassified(Throwable t) {
    return new Outcome.Failed(new ProviderAnswer.Failed(FailureClass.UNCLASSIFIED, ProviderText.bound("tier error: " + t), null));
  }

  private Future<TierReply> next(TierRequest req, Deadline deadline, int n, ProviderAnswer.Failed f, Hop visit, boolean batch) {
    if (f.failureClass().retryable() && n <= cfg.retryBudget()) {
      return attempt(req, deadline, n + 1, f, visit, batch);
    }
    return Future.succeededFuture(TierReply.failed(f.failureClass(), f.detail(), n));
  }

  /** The reply when no further attempt is made: a skip if none was, else the last failure. */
  private static TierReply stop(int n, ProviderAnswer.Failed last, String reason, String detail) {
    if (last == null) {
      return TierReply.skipped(reason, detail, 0);
    }
    return TierReply.failed(last.failureClass(), last.detail() + "; no retry: " + reason, n - 1);
  }

  private Future<Void> delay(long ms) {
    if (ms <= 0) {
      return Future.succeededFuture();
    }
    return vertx.timer(ms).mapEmpty();
  }

  /**
   * Feeds the breaker first (so nothing after it can keep the permit from being settled), then the
   * latency window and the logs; returns the outcome.
   */
  private Outcome settle(TierRequest req, Outcome outcome, Permit permit, long ms) {
    if (outcome instanceof Outcome.Found) {
      healthy(permit, ms);
      return outcome;
    }
    ProviderAnswer.Failed failure = ((Outcome.Failed) outcome).failure();
    if (!failure.failureClass().countsAgainstBreaker()) {
      healthy(permit, ms);
      return outcome;
    }
    breaker.onFailure(permit, ms, new TierFailure(cfg.name(), failure));
    switch (failure.failureClass()) {
      case QUOTA -> overQuota(failure);
      case CREDENTIAL -> log.error("tier {} REJECTED ITS CREDENTIAL ({}): {} — check {}", cfg.name(), cfg.adapter(),
          failure.detail(), cfg.credential() == null ? "the tier's credential (none configured)" : cfg.credential().sourceDescription());
      case UNCLASSIFIED -> log.warn("tier {} unclassified failure: {} (trace {})", cfg.name(), failure.detail(), req.traceId());
      default -> log.debug("tier {} {}: {}", cfg.name(), failure.failureClass().wire(), failure.detail());
    }
    return outcome;
  }

  /**
   * Holds the breaker open as long as the provider's {@code Retry-After} asks, but never longer than
   * the tier's {@code retry_after_max_ms}: a provider must not be able to take a rung away for years.
   */
  private void overQuota(ProviderAnswer.Failed failure) {
    Long asked = failure.retryAfterMs();
    long hold = asked == null ? 0 : Math.min(asked, cfg.retryAfterMaxMs());
    if (hold > 0) {
      breaker.holdOpenFor(Duration.ofMillis(hold));
    }
    if (asked != null && asked > hold) {
      log.warn("tier {} over quota: {} (Retry-After asked {} ms; held open {} ms, the tier's retry_after_max_ms)",
          cfg.name(), failure.detail(), asked, hold);
    } else {
      log.warn("tier {} over quota: {} (retry after {} ms)", cfg.name(), failure.detail(), asked);
    }
  }

  private void healthy(Permit permit, long ms) {
    breaker.onSuccess(permit, ms);
    if (latency.record(ms)) {
      vertx.eventBus().publish(Addresses.TIER_STATS, status());
    }
  }

  private void onTransition(TierBreaker.Transition t) {
    JsonObject event = new JsonObject()
        .put("tier", t.tier())
        .put("from", t.from().wire())
        .put("to", t.to().wire())
        .put("at", t.at().toString())
        .put("reason", t.reason());
    onNode(event);
    TransitionLog.record(log, t);
    spec.metrics().breaker(t.tier(), t.to().wire());
    vertx.eventBus().publish(Addresses.BREAKER_EVENTS, event);
  }

  /** An operator's command: applied to the breaker, answered with the status after it. */
  private void onControl(Message<Object> msg) {
    TierAction action = TierAction.fromBody(msg.body()).orElse(null);
    if (action == null) {
      msg.fail(FailureCode.BAD_REQUEST.code(), "the body must be {\"action\": \"force_open\" | \"force_closed\" | \"release\"}");
      return;
    }
    switch (action) {
      case FORCE_OPEN -> breaker.force(TierBreaker.Force.OPEN);
      case FORCE_CLOSED -> breaker.force(TierBreaker.Force.CLOSED);
      case RELEASE -> breaker.releaseForce();
    }
    msg.reply(status());
  }

  /** The clustered node's heartbeat timer, or -1. */
  private long heartbeat = -1;

  private JsonObject status() {
    return onNode(new JsonObject()
        .put("tier", cfg.name())
        .put("adapter", cfg.adapter())
        .put("claim", cfg.claim().wire())
        .put("state", breaker.state().wire())
        .put("typical_ms", latency.median()));
  }

  /**
   * {@code j} with this node's id on a clustered bus, where every node runs its own breaker for the
   * tier and the chains keep them apart; unchanged otherwise.
   */
  private JsonObject onNode(JsonObject j) {
    Node node = Node.of(vertx);
    return node.clustered() ? j.put("node", node.id()) : j;
  }

  /** What a counted failure is recorded as in the breaker. No stack trace: an expected outcome. */
  static final class TierFailure extends RuntimeException {
    TierFailure(String tier, ProviderAnswer.Failed f) {
      super(tier + ": " + f.failureClass().wire() + ": " + f.detail(), null, false, false);
    }
  }
}
