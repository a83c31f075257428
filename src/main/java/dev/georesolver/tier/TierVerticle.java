package dev.georesolver.tier;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.Hit;
import dev.georesolver.bus.TierReply;
import dev.georesolver.bus.TierRequest;
import dev.georesolver.config.TierConfig;
import dev.georesolver.crs.CrsNormalizer;
import dev.georesolver.deadline.Admission;
import dev.georesolver.deadline.Deadline;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.provider.Direction;
import dev.georesolver.provider.FailureClass;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.tier.TierBreaker.Permit;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * One rung of the ladder (DESIGN §1): owns the tier's connection pool, circuit breaker, outbound
 * rate limiter, credential, adapter, CRS transforms and latency statistics. Listens on
 * {@link Addresses#tier}.
 *
 * <p>For each visit it re-bases the deadline on arrival (refusing at the door when the budget is
 * spent), then makes attempts: each one admitted against the time left minus the reserve the chain
 * keeps for the rungs below, bounded by {@code min(timeout_ms, usable time)}, let through by the
 * breaker and the rate limiter, and retried — transient failures only — within
 * {@code retry_budget} with full-jitter backoff. Every state change of the breaker is published on
 * {@link Addresses#BREAKER_EVENTS} and logged; the median latency on {@link Addresses#TIER_STATS}.
 */
public final class TierVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(TierVerticle.class);

  /** Milliseconds a tier keeps to build and send its reply before the deadline. */
  static final long REPLY_MARGIN_MS = 2;

  private final TierSpec spec;
  private final TierConfig cfg;
  private TierCall call;
  private TierBreaker breaker;
  private RateLimiter rateLimiter;
  private LatencyWindow latency;
  private HitSelector selector;
  private Backoff backoff;

  public TierVerticle(TierSpec spec) {
    this.spec = spec;
    this.cfg = spec.config();
  }

  @Override
  public Future<?> start() {
    latency = new LatencyWindow(cfg.typicalMs());
    selector = new HitSelector(new CrsNormalizer(spec.crsDefinitions()));
    backoff = new Backoff(cfg.retryBackoffMs(), spec.random());
    breaker = new TierBreaker(cfg.name(), cfg.breaker(), spec.clock(), this::onTransition);
    spec.metrics().tier(cfg.name());
    rateLimiter = cfg.rateLimitPerS() > 0 ? rateLimiter(cfg) : null;
    return buildCall().compose(c -> {
      call = c;
      MessageConsumer<TierRequest> visits = vertx.eventBus().consumer(Addresses.tier(cfg.name()), this::onVisit);
      MessageConsumer<Object> status = vertx.eventBus().consumer(Addresses.tierStatus(cfg.name()), m -> m.reply(status()));
      return Future.all(visits.completion(), status.completion());
    });
  }

  @Override
  public Future<?> stop() {
    return call == null ? Future.succeededFuture() : call.close();
  }

  private Future<TierCall> buildCall() {
    var http = AdapterRegistry.http(cfg.adapter());
    if (http.isPresent()) {
      return Future.succeededFuture(new HttpTierCall(vertx, cfg, http.get(), spec.secret()));
    }
    if (spec.localAdapter() == null) {
      return Future.failedFuture(new IllegalStateException("tier " + cfg.name() + ": no local adapter for " + cfg.adapter()));
    }
    return spec.localAdapter().create(vertx, cfg).map(a -> new LocalTierCall(vertx, a));
  }

  private static RateLimiter rateLimiter(TierConfig cfg) {
    // Small periods keep the limit smooth: at 50/s, 5 calls per 100 ms rather than 50 at once.
    int perPeriod = (int) Math.max(1, Math.ceil(cfg.rateLimitPerS() / 10));
    long periodNanos = (long) (perPeriod / cfg.rateLimitPerS() * 1e9);
    return RateLimiter.of(cfg.name(), RateLimiterConfig.custom()
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
    if (req.direction() == Direction.REVERSE && !call.supportsReverse()) {
      msg.reply(TierReply.skipped("unsupported", "no reverse lookups", 0));
      return;
    }
    attempt(req, deadline, 1, null).onComplete(ar -> msg.reply(ar.succeeded() ? ar.result()
        : TierReply.failed(FailureClass.UNCLASSIFIED, "tier error: " + ar.cause(), 0)));
  }


  /** Attempt number {@code n}; {@code last} is the previous attempt's failure, if any. */
  private Future<TierReply> attempt(TierRequest req, Deadline deadline, int n, ProviderAnswer.Failed last) {
    long wait = n == 1 ? 0 : backoff.delayMs(n - 1);
    Admission.Decision d = Admission.decide(deadline.remainingMs() - REPLY_MARGIN_MS, req.reserveMs(), wait,
        latency.median(), spec.admissionFactor(), cfg.timeoutMs());
    if (!d.admitted()) {
      return Future.succeededFuture(stop(n, last, "admission", "only " + d.usableMs() + " ms usable"));
    }
    return delay(wait).compose(v -> {
      Permit permit = breaker.tryAcquire();
      if (permit == null) {
        return Future.succeededFuture(stop(n, last, "breaker_open", null));
      }
      if (rateLimiter != null && !rateLimiter.acquirePermission()) {
        breaker.release(permit);
        return Future.succeededFuture(stop(n, last, "rate_limited", null));
      }
      long started = spec.ticker().nanoTime();
      return call.attempt(req, d.attemptTimeoutMs())
          .map(answer -> settle(req, answer, permit, (spec.ticker().nanoTime() - started) / 1_000_000L))
          .compose(outcome -> outcome instanceof Hit hit
              ? Future.succeededFuture(TierReply.hit(hit, n))
              : next(req, deadline, n, (ProviderAnswer.Failed) outcome));
    });
  }

  private Future<TierReply> next(TierRequest req, Deadline deadline, int n, ProviderAnswer.Failed f) {
    if (f.failureClass().retryable() && n <= cfg.retryBudget()) {
      return attempt(req, deadline, n + 1, f);
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

  /** Reads the answer, feeds the breaker and latency window; returns a {@link Hit} or a failure. */
  private Object settle(TierRequest req, ProviderAnswer answer, Permit permit, long ms) {
    ProviderAnswer.Failed failure;
    if (answer instanceof ProviderAnswer.Found found) {
      HitSelector.Selected s = selector.select(found, req.forward() == null ? null : req.forward().bbox());
      if (s.hit() != null) {
        healthy(permit, ms);
        return s.hit();
      }
      failure = s.failure();
    } else {
      failure = (ProviderAnswer.Failed) answer;
    }
    if (!failure.failureClass().countsAgainstBreaker()) {
      healthy(permit, ms);
      return failure;
    }
    breaker.onFailure(permit, ms, new TierFailure(cfg.name(), failure));
    switch (failure.failureClass()) {
      case QUOTA -> {
        if (failure.retryAfterMs() != null && failure.retryAfterMs() > 0) {
          breaker.holdOpenFor(Duration.ofMillis(failure.retryAfterMs()));
        }
        log.warn("tier {} over quota: {} (retry after {} ms)", cfg.name(), failure.detail(), failure.retryAfterMs());
      }
      case CREDENTIAL -> log.error("tier {} REJECTED ITS CREDENTIAL ({}): {} — check {}", cfg.name(), cfg.adapter(),
          failure.detail(), cfg.credential() == null ? "the tier's credential (none configured)" : cfg.credential().sourceDescription());
      case UNCLASSIFIED -> log.warn("tier {} unclassified failure: {} (trace {})", cfg.name(), failure.detail(), req.traceId());
      default -> log.debug("tier {} {}: {}", cfg.name(), failure.failureClass().wire(), failure.detail());
    }
    return failure;
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
    TransitionLog.record(log, t);
    spec.metrics().breaker(t.tier(), t.to().wire());
    vertx.eventBus().publish(Addresses.BREAKER_EVENTS, event);
  }

  private JsonObject status() {
    return new JsonObject()
        .put("tier", cfg.name())
        .put("adapter", cfg.adapter())
        .put("claim", cfg.claim().wire())
        .put("state", breaker.state().wire())
        .put("typical_ms", latency.median());
  }

  /** What a counted failure is recorded as in the breaker. No stack trace: an expected outcome. */
  static final class TierFailure extends RuntimeException {
    TierFailure(String tier, ProviderAnswer.Failed f) {
      super(tier + ": " + f.failureClass().wire() + ": " + f.detail(), null, false, false);
    }
  }
}
