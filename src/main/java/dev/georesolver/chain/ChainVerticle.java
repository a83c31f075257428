package dev.georesolver.chain;

import dev.georesolver.ladder.CountryCheck;
import dev.georesolver.ladder.FallbackLog;
import dev.georesolver.ladder.Ladders;
import dev.georesolver.ladder.Residency;
import dev.georesolver.ladder.Notices;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.DedupeClaim;
import dev.georesolver.bus.DedupeComplete;
import dev.georesolver.bus.DedupeVerdict;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.bus.Hit;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.Role;
import dev.georesolver.normalize.AddressKeys;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.bus.ReplayView;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.TierReply;
import dev.georesolver.bus.TierRequest;
import dev.georesolver.config.IntentConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.MarginsConfig;
import dev.georesolver.config.ShadowConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.bus.ShadowOffer;
import dev.georesolver.shadow.Sampler;
import dev.georesolver.deadline.Admission;
import dev.georesolver.deadline.Deadline;
import dev.georesolver.deadline.Stopwatch;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.geo.Claim;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.normalize.AddressNormalizer;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import dev.georesolver.tenant.Tenant;
import dev.georesolver.tenant.Tenants;
import dev.georesolver.tier.GazetteerAdapter;
import dev.georesolver.tier.TierBreaker;
import dev.georesolver.reconcile.DebtBuffer;
import dev.georesolver.reload.LiveManifest;
import dev.georesolver.bus.Redelivery;
import dev.georesolver.trace.Hop;
import dev.georesolver.trace.SpanNames;
import dev.georesolver.trace.Tracing;
import io.opentelemetry.api.trace.SpanKind;
import dev.georesolver.audit.AuditBuffer;
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
import java.util.concurrent.ThreadLocalRandom;
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
 *
 * <p>Each request takes the manifest revision serving when it arrives ({@link LiveManifest#enter})
 * and walks that revision's ladder, intents and tenants to its end, so a reload never mixes two
 * revisions in one answer; what the chain builds from a revision (ladders, tenants, validator) is
 * built once per instance, by the first request that sees it.
 */
public final class ChainVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(ChainVerticle.class);

  /** The revision the chain was started with: what only a restart changes (margins, the debts' store). */
  private final Manifest manifest;
  private final LiveManifest live;
  private final Clock clock;
  private final Ticker ticker;
  private final AddressNormalizer normalizer = AddressNormalizer.standard();
  /** What was built from the revision last seen; confined to this verticle's context. */
  private Snapshot snapshot;
  private LadderView view;
  private final boolean writeThrough;

  private final Metrics metrics;
  private final MarginsConfig margins;
  /** Debts (degraded answers, refusals after failing rungs) on their way to the reconcile queue. */
  private DebtBuffer debts;
  /** Audit records (fallback activations, or every answer) on their way to the tenant's partition. */
  private AuditBuffer audit;
  private final boolean owesDebts;
  /** Walk and rung spans; off unless {@link #tracing} says otherwise. */
  private Tracing tracing = Tracing.off();
  /** This node's replay store, read-only: replays answered here; misses claimed from the dedupe verticle. */
  private ReplayView replays = new ReplayView();
  /** This node: which messages stay on it. */
  private Node node;
  /** The country a query names, as a constraint on every rung; {@link CountryCheck#OFF} until the gazetteer is loaded. */
  private CountryCheck countries = CountryCheck.OFF;

  /**
   * @param writeThrough whether the cached index is deployed: then resolved answers are written
   *     through to it and {@code /health/ready} reports it
   * @param owesDebts whether a state store takes this chain's debts (degraded answers, refusals
   *     after failing rungs) for the reconciler and its audit records; else none are queued
   */
  public ChainVerticle(Manifest manifest, Clock clock, Ticker ticker, Metrics metrics, boolean writeThrough, boolean owesDebts) {
    this(LiveManifest.fixed(manifest, Tenants.of(manifest)), clock, ticker, metrics, writeThrough, owesDebts);
  }

  /**
   * A chain that follows the revisions {@code live} serves.
   *
   * @param writeThrough whether the cached index is deployed: then resolved answers are written
   *     through to it and {@code /health/ready} reports it
   * @param owesDebts whether a state store takes this chain's debts for the reconciler
   */
  public ChainVerticle(LiveManifest live, Clock clock, Ticker ticker, Metrics metrics, boolean writeThrough, boolean owesDebts) {
    this.owesDebts = owesDebts;
    this.metrics = metrics;
    this.live = live;
    this.manifest = live.current().manifest();
    this.clock = clock;
    this.ticker = ticker;
    this.writeThrough = writeThrough;
    this.margins = manifest.routing().margins();
  }

  /**
   * What one revision gives a walk, built once per chain instance.
   *
   * @param acceptedClaims each intent's accepted claims as the dedupe claim carries them
   */
  private record Snapshot(LiveManifest.Revision revision, Manifest manifest, Ladders ladders, Tenants tenants,
                          RequestValidator validator, Map<String, String> acceptedClaims, Sampler sampler) {

    static Snapshot of(LiveManifest.Revision r) {
      Manifest m = r.manifest();
      Map<String, String> claims = new HashMap<>();
      m.intents().values().forEach(i -> claims.put(i.name(),
          i.claims().stream().map(Claim::wire).sorted().collect(Collectors.joining(","))));
      return new Snapshot(r, m, Ladders.of(m), Tenants.of(m), RequestValidator.forManifest(m), claims,
          new Sampler(m.shadow().sampleRate()));
    }
  }

  /** What was built from {@code r}: the last one when it is {@code r}, else built now (and the ladder view follows its tiers). */
  private Snapshot snapshot(LiveManifest.Revision r) {
    Snapshot s = snapshot;
    if (s == null || s.revision() != r) {
      s = Snapshot.of(r);
      view.follow(r.manifest().enabledTiers());
      snapshot = s;
    }
    return s;
  }

  /** Records walk and rung spans with {@code tracing} (default {@link Tracing#off()}); before deploying. */
  public ChainVerticle tracing(Tracing tracing) {
    this.tracing = tracing;
    return this;
  }

  /**
   * Answers replays from {@code replays}, this node's replay store as the dedupe verticle publishes
   * it, without the round trip to that verticle; a request the view cannot answer is claimed as
   * before. Default: a view that answers nothing (every request claims). Call before deploying.
   */
  public ChainVerticle replays(ReplayView replays) {
    this.replays = replays;
    return this;
  }

  /** Hands the buffered audit records over and closes the audit session (a clean stop leaves no gap). */
  @Override
  public Future<?> stop() {
    return audit == null ? Future.succeededFuture() : audit.close();
  }

  @Override
  public Future<?> start() {
    node = Node.of(vertx);
    // With tiers of its own the chain asks them only, so it follows their breakers only; without,
    // any tier node may be asked, so it follows them all.
    view = new LadderView(manifest.enabledTiers(), margins, node.runs(Role.TIERS) ? node.id() : null);
    snapshot(live.current());
    debts = DebtBuffer.create(vertx, manifest, owesDebts, clock, metrics);
    audit = AuditBuffer.create(vertx, manifest.audit(), () -> live.current().manifest().audit(), owesDebts, clock, metrics);
    var bus = vertx.eventBus();
    Future<?> gazetteer = GazetteerAdapter.shared(vertx)
        .compose(g -> vertx.executeBlocking(() -> CountryCheck.over(g).warm()))
        .onSuccess(c -> countries = c)
        .recover(t -> {
          log.warn("gazetteer not loaded ({}): a country named in a query is not checked", t.getMessage());
          return Future.succeededFuture();
        });
    return Future.all(List.of(gazetteer,
        bus.consumer(Addresses.RESOLVE, m -> onRequest(m, Direction.FORWARD)).completion(),
        bus.consumer(Addresses.REVERSE, m -> onRequest(m, Direction.REVERSE)).completion(),
        bus.<JsonObject>consumer(Addresses.TIER_STATS, m -> view.onStats(m.body())).completion(),
        bus.<JsonObject>consumer(Addresses.BREAKER_EVENTS, m -> view.onBreaker(m.body())).completion(),
        bus.consumer(Addresses.HEALTH, this::onHealth).completion()));
  }

  private void onRequest(Message<Object> msg, Direction direction) {
    LiveManifest.Revision r = live.enter();
    answer(msg, direction, snapshot(r)).onComplete(x -> live.leave(r));
  }

  /** Answers one request on revision {@code s}; the future ends when the answer is sent. */
  private Future<?> answer(Message<Object> msg, Direction direction, Snapshot s) {
    Stopwatch sw = Stopwatch.start(ticker);
    Hop walk = Hop.fromBus(tracing, msg.headers(), SpanNames.WALK);
    String header = msg.headers().get(Addresses.DEADLINE_HEADER);
    Object body = msg.body();
    ResolveRequest req;
    long budget;
    boolean json = body instanceof JsonObject;
    if (json) {
      RequestValidator.Validated v = s.validator().validate((JsonObject) body, direction, null, walk.traceId());
      if (!v.valid()) {
        refuse(msg, walk, FailureCode.BAD_REQUEST, RequestValidator.problemJson(v.problems()).encode());
        return Future.succeededFuture();
      }
      req = v.request();
      budget = header != null ? Addresses.deadlineMs(msg.headers()) : v.budgetMs();
    } else if (body instanceof ResolveRequest r) {
      req = r;
      budget = Addresses.deadlineMs(msg.headers());
    } else {
      refuse(msg, walk, FailureCode.BAD_REQUEST, "body must be a JSON object");
      return Future.succeededFuture();
    }
    if (budget <= 0) {
      refuse(msg, walk, FailureCode.DEADLINE_EXCEEDED, "arrived with its budget spent");
      return Future.succeededFuture();
    }
    if (req.intent() == null || s.manifest().intent(req.intent()).isEmpty()) {
      refuse(msg, walk, FailureCode.BAD_REQUEST, RequestValidator.problemJson(List.of(new FieldProblem("intent",
          "must be one of " + String.join(", ", new java.util.TreeSet<>(s.manifest().intentNames()))))).encode());
      return Future.succeededFuture();
    }
    Tenant tenant = s.tenants().byId(msg.headers().get(Addresses.TENANT_HEADER));
    if (tenant == null) {
      refuse(msg, walk, FailureCode.BAD_REQUEST, RequestValidator.problemJson(List.of(new FieldProblem(Addresses.TENANT_HEADER,
          "must name a configured tenant"))).encode());
      return Future.succeededFuture();
    }
    if (!tenant.allows(req.intent())) {
      refuse(msg, walk, FailureCode.FORBIDDEN, "tenant " + tenant.id() + " may not use intent '" + req.intent() + "'");
      return Future.succeededFuture();
    }
    Deadline deadline = Deadline.in(ticker, budget);
    boolean batch = Addresses.PRIORITY_BATCH.equals(msg.headers().get(Addresses.PRIORITY_HEADER));
    walk.set(SpanNames.INTENT, req.intent()).set(SpanNames.DIRECTION, req.direction().name().toLowerCase(Locale.ROOT));
    return resolve(s, req, tenant, deadline, sw, walk, batch).andThen(ar -> {
      if (ar.succeeded()) {
        ended(walk, ar.result());
        metrics.result(ar.result());
        if (ar.result() instanceof ResolveResult walked) {
          FallbackLog.record(walked);
          debts.offer(req, tenant.id(), walked);
        }
        msg.reply(json ? ar.result().toJson() : ar.result());
        if (ar.result() instanceof Redelivery delivered) {
          // Every tenant that received a degraded answer is owed its correction, not only the one that walked.
          offerDelivered(req, tenant, delivered);
        }
        // After the reply: building the record costs the answer nothing.
        audit.offer(tenant.id(), ar.result());
        offerShadow(s, req, tenant, ar.result());
      } else if (ar.cause() instanceof Misconfigured m) {
        metrics.routerError("misconfigured");
        refuse(msg, walk, FailureCode.MISCONFIGURED, m.getMessage());
      } else {
        metrics.routerError("router_error");
        log.error("router_error on trace {}", req.traceId(), ar.cause());
        refuse(msg, walk, FailureCode.ROUTER_ERROR, "router_error: " + ar.cause());
      }
    });
  }

  /**
   * After the reply has left: a sampled answer goes to this node's shadow verticle, which asks its
   * shadow rung (or, for a replay due for a drift check, the rung that produced it). A tenant that opted out is never
   * sampled; nothing is drawn while sampling is off.
   */
  private void offerShadow(Snapshot s, ResolveRequest req, Tenant tenant, ResolveReply reply) {
    ShadowConfig cfg = s.manifest().shadow();
    if (s.sampler().off() || cfg.optOutTenants().contains(tenant.id())) {
      return;
    }
    // Answers walked now are compared with their shadow rung; a replay only when drift checks are
    // on and it is old enough (it is asked again of its own rung); a coalesced delivery never: its
    // walk was sampled or not already.
    if (reply instanceof Redelivery d && !(d.replayAgeS() != null && cfg.drift().on()
        && new dev.georesolver.shadow.DriftCheck(cfg.drift().minAgeS() * 1000, cfg.drift().movedM())
            .due(d.answer().resolvedAtMs(), clock.millis()))) {
      return;
    }
    if (!s.sampler().decide(ThreadLocalRandom.current())) {
      return;
    }
    ShadowOffer offer = ShadowOffer.of(req, tenant.id(), reply);
    if (offer != null) {
      vertx.eventBus().send(Addresses.SHADOW_OFFER, offer, node.to(Addresses.SHADOW_OFFER));
    }
  }

  /** The debt a delivered (replayed or coalesced) degraded answer leaves {@code tenant}; never fails the request. */
  private void offerDelivered(ResolveRequest req, Tenant tenant, Redelivery delivered) {
    try {
      debts.offer(req, tenant.id(), delivered);
    } catch (RuntimeException e) {
      log.warn("debt of a delivered answer not queued: {}", e.toString());
    }
  }

  /** Fails the request on the bus, its walk span ended as failed with the code's name. */
  private static void refuse(Message<Object> msg, Hop walk, FailureCode code, String message) {
    walk.fail(code.name().toLowerCase(Locale.ROOT)).end();
    msg.fail(code.code(), message);
  }

  /** Ends the walk span with what came of it: resolved or refused (and by which rung), replayed or joined. */
  private static void ended(Hop walk, ResolveReply reply) {
    if (walk.recording()) {
      if (reply instanceof ResolveResult r) {
        walk.set(SpanNames.OUTCOME, r.status())
            .set(SpanNames.TIER, r.resolutionSource())
            .set(SpanNames.CLAIM, r.claim() == null ? null : r.claim().wire())
            .set(SpanNames.DEGRADED, r.degraded());
      } else {
        walk.set(SpanNames.OUTCOME, ((Redelivery) reply).coalesced() ? "joined" : "replayed");
      }
    }
    walk.end();
  }


  /**
   * One request, from dedupe claim to result; {@code batch}: a batch row, whose tier visits carry
   * {@link Addresses#PRIORITY_HEADER} so that tiers serve live traffic first.
   */
  private Future<ResolveReply> resolve(Snapshot s, ResolveRequest req, Tenant tenant, Deadline deadline, Stopwatch sw, Hop trace,
                                       boolean batch) {
    IntentConfig intent = s.manifest().intent(req.intent()).orElseThrow();
    // The residency rule of this request's revision (the reloaded one once a reload swapped it in).
    Residency residency = Residency.of(s.manifest(), tenant.id());
    List<TierConfig> ladder = s.ladders().ladderFor(intent.name(), req.direction(), residency);
    if (ladder.isEmpty()) {
      return Future.failedFuture(new Misconfigured("no rung can serve intent '" + intent.name() + "' ("
          + req.direction().name().toLowerCase(Locale.ROOT) + ")"
          + (residency.strict() ? " in region " + residency.region() + ", where tenant " + tenant.id() + "'s addresses must stay" : "")
          + disabledNote(s.manifest())));
    }
    String key = key(req);
    // Only requests that would walk the same ladder share a walk: a strict tenant's is its region's.
    String coalesceKey = key + "|" + intent.name() + "|" + req.direction() + (residency.strict() ? "|in:" + residency.region() : "");
    Walk walk = new Walk(s, req, intent, ladder, deadline, sw, key, trace, batch);
    return claim(s, key, coalesceKey, intent, deadline).<ResolveReply>compose(v -> switch (v.kind()) {
      case REPLAY -> Future.succeededFuture(v.answer().replayed(tenant.id(), clock.millis(), intent.name(), req.traceId(), sw.elapsedMs(),
          v.ageMs() / 1000));
      case JOINED -> Future.succeededFuture(v.answer().joined(tenant.id(), clock.millis(), intent.name(), req.traceId(), sw.elapsedMs()));
      case LEAD -> reply(step(walk, 0).andThen(ar -> complete(key, coalesceKey, ar.succeeded() ? ar.result() : null, tenant.id())));
      case BYPASS -> reply(step(walk, 0));
    });
  }

  /** A walk's result as the reply type (a future is only read, so the widening is safe and costs nothing). */
  @SuppressWarnings("unchecked")
  private static Future<ResolveReply> reply(Future<? extends ResolveReply> walk) {
    return (Future<ResolveReply>) walk;
  }

  private static String disabledNote(Manifest manifest) {
    return manifest.disabledTiers().isEmpty() ? "" : "; disabled at start: " + manifest.disabledTiers().entrySet().stream()
        .map(e -> e.getKey() + " (" + e.getValue() + ")").collect(Collectors.joining(", "));
  }

  /**
   * The request's idempotency key: the place asked (normalized address and box, or the point) and,
   * when the request names one, its language — an answer's label is in the language it was asked in,
   * so a request in another language is not served it.
   */
  private String key(ResolveRequest req) {
    String lang = req.language() == null || req.language().isEmpty() ? "" : "|lang:" + req.language();
    if (req.direction() == Direction.REVERSE) {
      return IdempotencyKey.sha256Hex(String.format(Locale.ROOT, "reverse|%.5f,%.5f", req.lat(), req.lon()) + lang);
    }
    String normalized = req.components().isEmpty() ? normalizer.normalize(req.text()) : normalizer.normalize(req.components());
    return IdempotencyKey.of(normalized + lang, req.bbox());
  }

  private Future<DedupeVerdict> claim(Snapshot s, String key, String coalesceKey, IntentConfig intent, Deadline deadline) {
    long left = deadline.remainingMs() - margins.chainReplyMs();
    if (left <= 0) {
      return Future.succeededFuture(DedupeVerdict.BYPASS);
    }
    DedupeClaim c = new DedupeClaim(key, coalesceKey, intent.maxCacheAgeMs(), s.acceptedClaims().get(intent.name()));
    DedupeVerdict replay = replays.replay(c, clock.millis());
    if (replay != null) {
      return Future.succeededFuture(replay);
    }
    DeliveryOptions o = node.to(Addresses.DEDUPE_CLAIM).setSendTimeout(left).addHeader(Addresses.DEADLINE_HEADER, Long.toString(left));
    return vertx.eventBus()
        .<DedupeVerdict>request(Addresses.DEDUPE_CLAIM, c, o)
        .map(Message::body)
        .otherwise(t -> {
          log.debug("dedupe unavailable ({}); walking without it", t.getMessage());
          return DedupeVerdict.BYPASS;
        });
  }

  private void complete(String key, String coalesceKey, ResolveResult r, String tenant) {
    long ttl = 0;
    if (r != null && r.resolved()) {
      var idem = manifest.routing().idempotency();
      ttl = (r.degraded() ? idem.degradedTtlSeconds() : idem.ttlSeconds()) * 1000L;
    }
    vertx.eventBus().send(Addresses.DEDUPE_COMPLETE, new DedupeComplete(key, coalesceKey, r, ttl, tenant), node.to(Addresses.DEDUPE_COMPLETE));
  }

  /** The state of one walk; confined to this verticle's context. */
  private record Walk(Snapshot s, ResolveRequest req, IntentConfig intent, List<TierConfig> ladder, Deadline deadline,
                      Stopwatch sw, String key, Hop trace, boolean batch, List<Attempt> attempts) {
    Walk(Snapshot s, ResolveRequest req, IntentConfig intent, List<TierConfig> ladder, Deadline deadline, Stopwatch sw, String key,
         Hop trace, boolean batch) {
      this(s, req, intent, ladder, deadline, sw, key, trace, batch, new ArrayList<>(ladder.size()));
    }

    double admissionFactor() {
      return s.manifest().routing().admissionFactor();
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
    Admission.Decision d = Admission.decide(left, reserve, 0, view.typical(tier), w.admissionFactor(), tier.timeoutMs());
    Hop rung = w.trace().child(SpanNames.RUNG, SpanKind.INTERNAL)
        .set(SpanNames.TIER, tier.name()).set(SpanNames.CLAIM, tier.claim().wire()).set(SpanNames.RUNG_INDEX, i);
    if (!d.admitted()) {
      w.attempts().add(new Attempt(tier.name(), "skipped_admission", 0, 0,
          "usable " + Math.max(0, d.usableMs()) + " ms < " + w.admissionFactor() + " x typical " + view.typical(tier) + " ms"));
      rung.set(SpanNames.OUTCOME, "skipped_admission").end();
      return step(w, i + 1);
    }
    DeliveryOptions o = rung.onto(node.to(w.s().revision().visitAddress(tier.name()))
        .setSendTimeout(Admission.visitWaitMs(left, view.neededBelow(w.ladder(), i, w.admissionFactor())))
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(left))
        .addHeader(Addresses.TRACE_HEADER, w.req().traceId()));
    if (w.batch()) {
      o.addHeader(Addresses.PRIORITY_HEADER, Addresses.PRIORITY_BATCH);
    }
    long t0 = ticker.nanoTime();
    return vertx.eventBus()
        .<TierReply>request(w.s().revision().visitAddress(tier.name()), tierRequest(w, reserve), o)
        .map(Message::body)
        .otherwise(ChainVerticle::busFailure)
        .compose(reply -> {
          long ms = (ticker.nanoTime() - t0) / 1_000_000L;
          // A hit in a country the query does not name is no answer: the next rung is asked.
          CountryCheck.Verdict verdict = reply.kind() == TierReply.Kind.HIT
              ? countries.check(countries.asked(w.req()), reply.hit()) : null;
          String outcome = verdict instanceof CountryCheck.Outside ? CountryCheck.OUTSIDE : reply.outcome();
          String detail = verdict instanceof CountryCheck.Outside out ? out.detail() : reply.detail();
          w.attempts().add(new Attempt(tier.name(), outcome, reply.tries(), ms, detail));
          rung.set(SpanNames.OUTCOME, outcome).set(SpanNames.TRIES, reply.tries()).end();
          if (verdict instanceof CountryCheck.Served served) {
            ResolveResult r = resolved(w, i, tier, served.hit(), served.inferred());
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
        r.confidence(), r.label(), r.precision(), r.resolvedAtMs(), null), node.to(Addresses.INDEX_WRITE));
  }

  private ResolveResult resolved(Walk w, int i, TierConfig tier, Hit hit, String inferred) {
    long now = clock.millis();
    return resultOf(w)
        .status(ResolveResult.RESOLVED)
        .lon(hit.lon())
        .lat(hit.lat())
        .label(hit.label())
        .precision(hit.precision())
        .distanceM(hit.distanceM())
        .address(hit.address())
        .resolutionSource(tier.name())
        .claim(tier.claim())
        .confidence(hit.confidence())
        .degraded(i > 0)
        .notice(Notices.withInferred(Notices.opener(tier, hit, now), inferred))
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
        .manifestRevision(w.s().manifest().revision())
        .traceId(w.req().traceId())
        .elapsedMs(w.sw().elapsedMs())
        .attempts(w.attempts());
  }

  private void onHealth(Message<Object> msg) {
    // The status first: a revision is swapped in before its status is reported, so the two never disagree.
    JsonObject reload = live.status().toJson();
    Manifest manifest = live.current().manifest();
    long timeout = margins.statusTimeoutMs();
    DeliveryOptions o = new DeliveryOptions().setSendTimeout(timeout);
    List<Future<JsonObject>> tiers = manifest.enabledTiers().stream()
        .map(t -> vertx.eventBus().<JsonObject>request(Addresses.tierStatus(t.name()), "", node.to(Addresses.tierStatus(t.name()))
                .setSendTimeout(timeout))
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
    Future<JsonObject> state = vertx.eventBus().<JsonObject>request(Addresses.STATE_STATUS, "", node.to(Addresses.STATE_STATUS)
            .setSendTimeout(timeout)).map(Message::body)
        .otherwise(e -> new JsonObject().put("reachable", false).put("detail", "state verticle did not answer"));
    Future<JsonObject> reconcile = vertx.eventBus().<JsonObject>request(Addresses.RECONCILE_STATUS, "",
            node.to(Addresses.RECONCILE_STATUS).setSendTimeout(timeout)).map(Message::body)
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
          .put("reconcile", reconcile.result())
          .put("reload", reload));
    });
  }
}
