package dev.georesolver.chain;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.DedupeClaim;
import dev.georesolver.bus.DedupeComplete;
import dev.georesolver.bus.DedupeVerdict;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.bus.Hit;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.normalize.AddressKeys;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.TierReply;
import dev.georesolver.bus.TierRequest;
import dev.georesolver.config.IntentConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.MarginsConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.deadline.Admission;
import dev.georesolver.deadline.Deadline;
import dev.georesolver.deadline.Stopwatch;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.geo.Claim;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.normalize.AddressNormalizer;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.provider.Direction;
import dev.georesolver.provider.ForwardQuery;
import dev.georesolver.provider.ReverseQuery;
import dev.georesolver.tenant.Tenant;
import dev.georesolver.tenant.Tenants;
import dev.georesolver.tier.TierBreaker;
import dev.georesolver.reconcile.DebtBuffer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The ladder walker: stateless apart from its view of tier latencies, so several
 * instances run side by side.
 *
 * <p>For each request: the tenant named in {@link Addresses#TENANT_HEADER} (its intents checked) →
 * dedupe claim (replay, join an identical walk in flight, or lead) → the ladder trimmed for intent,
 * direction and the tenant's residency ({@link Ladders}) → for each rung: admission against the time left minus
 * the reserve for the rungs below, a visit to the tier with the time left, the reply recorded →
 * the first hit answers; the bottom is an honest refusal → the outcome handed to dedupe → reply.
 * The ladder is data, walked by one recursive {@code Future} step.
 */
public final class ChainVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(ChainVerticle.class);

  private final Manifest manifest;
  private final Clock clock;
  private final Ticker ticker;
  private final AddressNormalizer normalizer = AddressNormalizer.standard();
  private Ladders ladders;
  private Tenants tenants;
  private RequestValidator validator;
  private LadderView view;
  private final boolean writeThrough;
  /** Each intent's accepted claims as the dedupe claim carries them, built once. */
  private final Map<String, String> acceptedClaims = new HashMap<>();

  private final Metrics metrics;
  private final MarginsConfig margins;
  /** Debts (degraded answers, refusals after failing rungs) on their way to the reconcile queue. */
  private DebtBuffer debts;
  private final boolean owesDebts;

  /**
   * @param writeThrough whether the cached index is deployed: then resolved answers are written
   *     through to it and {@code /health/ready} reports it
   * @param owesDebts whether a state store takes this chain's debts (degraded answers, refusals
   *     after failing rungs) for the reconciler; else none are queued
   */
  public ChainVerticle(Manifest manifest, Clock clock, Ticker ticker, Metrics metrics, boolean writeThrough, boolean owesDebts) {
    this.owesDebts = owesDebts;
    this.metrics = metrics;
    this.manifest = manifest;
    this.clock = clock;
    this.ticker = ticker;
    this.writeThrough = writeThrough;
    this.margins = manifest.routing().margins();
  }

  @Override
  public Future<?> start() {
    List<TierConfig> enabled = manifest.enabledTiers();
    view = new LadderView(enabled, margins);
    validator = RequestValidator.forManifest(manifest);
    manifest.intents().values().forEach(i -> acceptedClaims.put(i.name(),
        i.claims().stream().map(Claim::wire).sorted().collect(Collectors.joining(","))));
    ladders = Ladders.of(manifest);
    tenants = Tenants.of(manifest);
    debts = DebtBuffer.create(vertx, manifest, owesDebts, clock, metrics);
    var bus = vertx.eventBus();
    return Future.all(List.of(
        bus.consumer(Addresses.RESOLVE, m -> onRequest(m, Direction.FORWARD)).completion(),
        bus.consumer(Addresses.REVERSE, m -> onRequest(m, Direction.REVERSE)).completion(),
        bus.<JsonObject>consumer(Addresses.TIER_STATS, m -> view.onStats(m.body())).completion(),
        bus.<JsonObject>consumer(Addresses.BREAKER_EVENTS, m -> view.onBreaker(m.body())).completion(),
        bus.consumer(Addresses.HEALTH, this::onHealth).completion()));
  }

  private void onRequest(Message<Object> msg, Direction direction) {
    Stopwatch sw = Stopwatch.start(ticker);
    String header = msg.headers().get(Addresses.DEADLINE_HEADER);
    Object body = msg.body();
    ResolveRequest req;
    long budget;
    boolean json = body instanceof JsonObject;
    if (json) {
      String trace = msg.headers().get(Addresses.TRACE_HEADER);
      RequestValidator.Validated v = validator.validate((JsonObject) body, direction, null, trace != null ? trace : TraceIds.next());
      if (!v.valid()) {
        msg.fail(FailureCode.BAD_REQUEST.code(), RequestValidator.problemJson(v.problems()).encode());
        return;
      }
      req = v.request();
      budget = header != null ? Addresses.deadlineMs(msg.headers()) : v.budgetMs();
    } else if (body instanceof ResolveRequest r) {
      req = r;
      budget = Addresses.deadlineMs(msg.headers());
    } else {
      msg.fail(FailureCode.BAD_REQUEST.code(), "body must be a JSON object");
      return;
    }
    if (budget <= 0) {
      msg.fail(FailureCode.DEADLINE_EXCEEDED.code(), "arrived with its budget spent");
      return;
    }
    if (req.intent() == null || manifest.intent(req.intent()).isEmpty()) {
      msg.fail(FailureCode.BAD_REQUEST.code(), RequestValidator.problemJson(List.of(new FieldProblem("intent",
          "must be one of " + String.join(", ", new java.util.TreeSet<>(manifest.intentNames()))))).encode());
      return;
    }
    Tenant tenant = tenants.byId(msg.headers().get(Addresses.TENANT_HEADER));
    if (tenant == null) {
      msg.fail(FailureCode.BAD_REQUEST.code(), RequestValidator.problemJson(List.of(new FieldProblem(Addresses.TENANT_HEADER,
          "must name a configured tenant"))).encode());
      return;
    }
    if (!tenant.allows(req.intent())) {
      msg.fail(FailureCode.FORBIDDEN.code(), "tenant " + tenant.id() + " may not use intent '" + req.intent() + "'");
      return;
    }
    Deadline deadline = Deadline.in(ticker, budget);
    boolean batch = Addresses.PRIORITY_BATCH.equals(msg.headers().get(Addresses.PRIORITY_HEADER));
    resolve(req, tenant, deadline, sw, batch).onComplete(ar -> {
      if (ar.succeeded()) {
        metrics.result(ar.result());
        if (ar.result() instanceof ResolveResult walked) {
          FallbackLog.record(walked);
          debts.offer(req, tenant.id(), walked);
        }
        msg.reply(json ? ar.result().toJson() : ar.result());
      } else if (ar.cause() instanceof Misconfigured m) {
        metrics.routerError("misconfigured");
        msg.fail(FailureCode.MISCONFIGURED.code(), m.getMessage());
      } else {
        metrics.routerError("router_error");
        log.error("router_error on trace {}", req.traceId(), ar.cause());
        msg.fail(FailureCode.ROUTER_ERROR.code(), "router_error: " + ar.cause());
      }
    });
  }


  /** One live request, from dedupe claim to result. */
  Future<ResolveReply> resolve(ResolveRequest req, Tenant tenant, Deadline deadline, Stopwatch sw) {
    return resolve(req, tenant, deadline, sw, false);
  }

  /**
   * One request, from dedupe claim to result; {@code batch}: a batch row, whose tier visits carry
   * {@link Addresses#PRIORITY_HEADER} so that tiers serve live traffic first.
   */
  Future<ResolveReply> resolve(ResolveRequest req, Tenant tenant, Deadline deadline, Stopwatch sw, boolean batch) {
    IntentConfig intent = manifest.intent(req.intent()).orElseThrow();
    List<TierConfig> ladder = ladders.ladder(intent.name(), req.direction(), tenant.strictRegion());
    if (ladder.isEmpty()) {
      return Future.failedFuture(new Misconfigured("no rung can serve intent '" + intent.name() + "' ("
          + req.direction().name().toLowerCase(Locale.ROOT) + ")"
          + (tenant.strict() ? " in region " + tenant.strictRegion() + ", where tenant " + tenant.id() + "'s addresses must stay" : "")
          + disabledNote()));
    }
    String key = key(req);
    // Only requests that would walk the same ladder share a walk: a strict tenant's is its region's.
    String coalesceKey = key + "|" + intent.name() + "|" + req.direction() + (tenant.strict() ? "|in:" + tenant.strictRegion() : "");
    Walk walk = new Walk(req, intent, ladder, deadline, sw, key, batch);
    return claim(key, coalesceKey, intent, deadline).<ResolveReply>compose(v -> switch (v.kind()) {
      case REPLAY -> Future.succeededFuture(v.answer().replayed(intent.name(), req.traceId(), sw.elapsedMs(), v.ageMs() / 1000));
      case JOINED -> Future.succeededFuture(v.answer().joined(intent.name(), req.traceId(), sw.elapsedMs()));
      case LEAD -> reply(step(walk, 0).andThen(ar -> complete(key, coalesceKey, ar.succeeded() ? ar.result() : null)));
      case BYPASS -> reply(step(walk, 0));
    });
  }

  /** A walk's result as the reply type (a future is only read, so the widening is safe and costs nothing). */
  @SuppressWarnings("unchecked")
  private static Future<ResolveReply> reply(Future<? extends ResolveReply> walk) {
    return (Future<ResolveReply>) walk;
  }

  private String disabledNote() {
    return manifest.disabledTiers().isEmpty() ? "" : "; disabled at start: " + manifest.disabledTiers().entrySet().stream()
        .map(e -> e.getKey() + " (" + e.getValue() + ")").collect(Collectors.joining(", "));
  }

  private String key(ResolveRequest req) {
    if (req.direction() == Direction.REVERSE) {
      return IdempotencyKey.sha256Hex(String.format(Locale.ROOT, "reverse|%.5f,%.5f", req.lat(), req.lon()));
    }
    String normalized = req.components().isEmpty() ? normalizer.normalize(req.text()) : normalizer.normalize(req.components());
    return IdempotencyKey.of(normalized, req.bbox());
  }

  private Future<DedupeVerdict> claim(String key, String coalesceKey, IntentConfig intent, Deadline deadline) {
    long left = deadline.remainingMs() - margins.chainReplyMs();
    if (left <= 0) {
      return Future.succeededFuture(DedupeVerdict.BYPASS);
    }
    String claims = acceptedClaims.get(intent.name());
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(left).addHeader(Addresses.DEADLINE_HEADER, Long.toString(left));
    return vertx.eventBus()
        .<DedupeVerdict>request(Addresses.DEDUPE_CLAIM, new DedupeClaim(key, coalesceKey, intent.maxCacheAgeMs(), claims), o)
        .map(Message::body)
        .otherwise(t -> {
          log.debug("dedupe unavailable ({}); walking without it", t.getMessage());
          return DedupeVerdict.BYPASS;
        });
  }

  private void complete(String key, String coalesceKey, ResolveResult r) {
    long ttl = 0;
    if (r != null && r.resolved()) {
      var idem = manifest.routing().idempotency();
      ttl = (r.degraded() ? idem.degradedTtlSeconds() : idem.ttlSeconds()) * 1000L;
    }
    vertx.eventBus().send(Addresses.DEDUPE_COMPLETE, new DedupeComplete(key, coalesceKey, r, ttl));
  }

  /** The state of one walk; confined to this verticle's context. */
  private record Walk(ResolveRequest req, IntentConfig intent, List<TierConfig> ladder, Deadline deadline,
                      Stopwatch sw, String key, boolean batch, List<Attempt> attempts) {
    Walk(ResolveRequest req, IntentConfig intent, List<TierConfig> ladder, Deadline deadline, Stopwatch sw, String key,
        boolean batch) {
      this(req, intent, ladder, deadline, sw, key, batch, new ArrayList<>(ladder.size()));
    }
  }

  /** Rung {@code i} of the walk, or the refusal below the last rung. */
  private Future<ResolveResult> step(Walk w, int i) {
    if (i == w.ladder().size()) {
      return Future.succeededFuture(refusal(w));
    }
    TierConfig tier = w.ladder().get(i);
    long left = w.deadline().remainingMs() - margins.chainReplyMs();
    long reserve = view.reserveBelow(w.ladder(), i);
    Admission.Decision d = Admission.decide(left, reserve, 0, view.typical(tier), manifest.routing().admissionFactor(),
        tier.timeoutMs());
    if (!d.admitted()) {
      w.attempts().add(new Attempt(tier.name(), "skipped_admission", 0, 0,
          "usable " + Math.max(0, d.usableMs()) + " ms < " + manifest.routing().admissionFactor() + " x typical " + view.typical(tier) + " ms"));
      return step(w, i + 1);
    }
    DeliveryOptions o = new DeliveryOptions()
        .setSendTimeout(Admission.visitWaitMs(left, view.neededBelow(w.ladder(), i, manifest.routing().admissionFactor())))
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(left))
        .addHeader(Addresses.TRACE_HEADER, w.req().traceId());
    if (w.batch()) {
      o.addHeader(Addresses.PRIORITY_HEADER, Addresses.PRIORITY_BATCH);
    }
    long t0 = ticker.nanoTime();
    return vertx.eventBus()
        .<TierReply>request(Addresses.tier(tier.name()), tierRequest(w, reserve), o)
        .map(Message::body)
        .otherwise(ChainVerticle::busFailure)
        .compose(reply -> {
          long ms = (ticker.nanoTime() - t0) / 1_000_000L;
          w.attempts().add(new Attempt(tier.name(), reply.outcome(), reply.tries(), ms, reply.detail()));
          if (reply.kind() == TierReply.Kind.HIT) {
            ResolveResult r = resolved(w, i, tier, reply.hit());
            writeThrough(w, tier, r);
            return Future.succeededFuture(r);
          }
          return step(w, i + 1);
        });
  }

  private static TierReply busFailure(Throwable t) {
    if (t instanceof ReplyException re) {
      if (re.failureType() == ReplyFailure.TIMEOUT
          || (re.failureType() == ReplyFailure.RECIPIENT_FAILURE && re.failureCode() == FailureCode.DEADLINE_EXCEEDED.code())) {
        return TierReply.skipped("deadline", "the tier did not answer in time", 0);
      }
      if (re.failureType() == ReplyFailure.NO_HANDLERS) {
        return TierReply.skipped("unavailable", "tier not deployed", 0);
      }
    }
    return TierReply.skipped("unavailable", String.valueOf(t.getMessage()), 0);
  }

  private TierRequest tierRequest(Walk w, long reserve) {
    ResolveRequest r = w.req();
    ForwardQuery f = r.direction() == Direction.FORWARD ? new ForwardQuery(r.text(), r.components(), r.bbox(), r.language()) : null;
    ReverseQuery rq = r.direction() == Direction.REVERSE ? new ReverseQuery(r.lat(), r.lon(), r.language()) : null;
    return new TierRequest(r.direction(), f, rq, w.key(), r.traceId(), reserve, w.intent().maxCacheAgeMs());
  }

  /**
   * Keeps the cached index warm: answers that resolved an address (exact or open data) are written
   * to it. Cached answers are already there, and a city centre is not an address's position.
   */
  private void writeThrough(Walk w, TierConfig tier, ResolveResult r) {
    if (!writeThrough || (tier.claim() != Claim.EXACT && tier.claim() != Claim.OPEN_DATA)) {
      return;
    }
    ResolveRequest q = w.req();
    String addrKey;
    if (q.direction() == Direction.FORWARD) {
      addrKey = AddressKeys.addrKey(new ForwardQuery(q.text(), q.components(), null, null));
    } else if (r.label() != null) {
      addrKey = AddressKeys.addrKey(r.label());
    } else {
      return;
    }
    vertx.eventBus().send(Addresses.INDEX_WRITE, new IndexEntry(addrKey, r.lon(), r.lat(), tier.name(), tier.claim().wire(),
        r.confidence(), r.label(), r.precision(), r.resolvedAtMs(), null));
  }

  private ResolveResult resolved(Walk w, int i, TierConfig tier, Hit hit) {
    long now = clock.millis();
    return resultOf(w)
        .status(ResolveResult.RESOLVED)
        .lon(hit.lon())
        .lat(hit.lat())
        .label(hit.label())
        .precision(hit.precision())
        .distanceM(hit.distanceM())
        .resolutionSource(tier.name())
        .claim(tier.claim())
        .confidence(hit.confidence())
        .degraded(i > 0)
        .notice(Notices.opener(tier, hit, now))
        .transform(hit.transform())
        .observedAtMs(hit.observedAtMs())
        .resolvedAtMs(now)
        .build();
  }

  private ResolveResult refusal(Walk w) {
    return resultOf(w)
        .status(ResolveResult.REFUSED)
        .notice(Notices.refusalNotice(w.attempts()))
        .reason(Notices.refusalReason(w.attempts()))
        .resolvedAtMs(clock.millis())
        .build();
  }

  /** What every result of a walk carries: the request's direction, intent, key and trace, the walk's attempts and time. */
  private ResolveResult.Builder resultOf(Walk w) {
    return ResolveResult.builder()
        .direction(w.req().direction())
        .intent(w.intent().name())
        .idempotencyKey(w.key())
        .manifestRevision(manifest.revision())
        .traceId(w.req().traceId())
        .elapsedMs(w.sw().elapsedMs())
        .attempts(w.attempts());
  }

  private void onHealth(Message<Object> msg) {
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(margins.statusTimeoutMs());
    List<Future<JsonObject>> tiers = manifest.enabledTiers().stream()
        .map(t -> vertx.eventBus().<JsonObject>request(Addresses.tierStatus(t.name()), "", o)
            .map(Message::body)
            .otherwise(e -> new JsonObject().put("tier", t.name()).put("state", "unreachable")))
        .toList();
    Future<JsonObject> store = vertx.eventBus().<JsonObject>request(Addresses.DEDUPE_STATUS, "", o)
        .map(Message::body)
        .otherwise(e -> new JsonObject().put("reachable", false).put("detail", "dedupe verticle did not answer"));
    Future<JsonObject> index = writeThrough
        ? vertx.eventBus().<JsonObject>request(Addresses.INDEX_STATUS, "", o).map(Message::body)
            .otherwise(e -> new JsonObject().put("reachable", false).put("detail", "index verticle did not answer"))
        : Future.succeededFuture(null);
    Future<JsonObject> state = vertx.eventBus().<JsonObject>request(Addresses.STATE_STATUS, "", o).map(Message::body)
        .otherwise(e -> new JsonObject().put("reachable", false).put("detail", "state verticle did not answer"));
    Future<JsonObject> reconcile = vertx.eventBus().<JsonObject>request(Addresses.RECONCILE_STATUS, "", o).map(Message::body)
        .otherwise(e -> null);
    Future.join(Future.all(tiers), store, index, Future.join(state, reconcile)).onComplete(ar -> {
      JsonArray ts = new JsonArray();
      boolean anyUsable = false;
      for (Future<JsonObject> f : tiers) {
        JsonObject t = f.result();
        ts.add(t);
        // "unreachable" (the tier did not answer) is no breaker state: not usable.
        anyUsable |= TierBreaker.State.fromWire(t.getString("state")).filter(st -> !st.refusesCalls()).isPresent();
      }
      msg.reply(new JsonObject()
          .put("ready", anyUsable)
          .put("manifest_revision", manifest.revision())
          .put("tiers", ts)
          .put("disabled_tiers", new JsonObject(new HashMap<>(manifest.disabledTiers())))
          .put("store", store.result())
          .put("index", index.result())
          .put("state", state.result())
          .put("reconcile", reconcile.result()));
    });
  }
}
