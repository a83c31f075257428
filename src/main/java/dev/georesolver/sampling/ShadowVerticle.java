package dev.georesolver.sampling;

import dev.georesolver.audit.AuditBuffer;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.Hit;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.bus.Role;
import dev.georesolver.bus.ShadowOffer;
import dev.georesolver.bus.TierReply;
import dev.georesolver.bus.TierRequest;
import dev.georesolver.chain.LadderView;
import dev.georesolver.config.IntentConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ShadowConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import dev.georesolver.ladder.Ladders;
import dev.georesolver.ladder.Repairs;
import dev.georesolver.shadow.DriftCheck;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.reload.LiveManifest;
import dev.georesolver.shadow.KeyHasher;
import dev.georesolver.shadow.LonLat;
import dev.georesolver.shadow.ShadowCeilings;
import dev.georesolver.shadow.ShadowSample;
import dev.georesolver.shadow.ShadowTable;
import dev.georesolver.shadow.ShadowView;
import dev.georesolver.shadow.WorstKept;
import dev.georesolver.config.TenantConfig;
import dev.georesolver.tenant.Tenant;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Shadow sampling's one verticle per node: takes the answers the chains sampled
 * ({@link Addresses#SHADOW_OFFER}, sent after each reply has left, so nothing here can delay or
 * change an answer), asks each one's shadow rung the same question, and counts how the two answers
 * compare ({@code shadow.ShadowTable}); writes what it counted to the state store once a second
 * ({@link Addresses#STATE_SHADOW_MERGE}), where every node's figures add up, and answers
 * {@link Addresses#SHADOW_VIEW} with the merged figures.
 *
 * <p>What a shadow call respects, every one checked against the revision serving when the call is
 * made (so a reload of {@code shadow:} or of the tenants applies to samples still queued):
 * <ul>
 *   <li><b>a bounded queue</b> of {@code shadow.queue} samples: one offered when it is full is
 *       dropped and counted ({@code queue_full}); at most {@link #CONCURRENCY} calls are in flight;
 *   <li><b>residency and the ladder</b>: only a rung of the request's own ladder, trimmed for its
 *       intent, direction and its tenant's residency by {@link Ladders} — the same rule the chain walks
 *       by ({@link ShadowTarget});
 *   <li><b>open breakers</b>: a rung whose breaker is open (as its tier announced, {@link LadderView})
 *       is not asked ({@code breaker_open});
 *   <li><b>the ceiling</b> of {@code shadow.max_per_s} calls per second per tier ({@link ShadowCeilings}):
 *       over it the sample is dropped and counted ({@code ceiling});
 *   <li><b>the batch share</b>: the call carries {@link Addresses#PRIORITY_BATCH}, so the tier lets it
 *       use at most {@code batch.max_share} of its rate limit and connections, as batch rows do.
 * </ul>
 * A call that fails (other than "not found") measures nothing and is counted ({@code failed}).
 *
 * <p>Privacy: the offer holds the address; it is dropped once measured. A sample is identified by a
 * keyed hash of its idempotency key ({@link KeyHasher}, a secret drawn per process) and folded into
 * counts at once: nothing of the address, point or label is kept or logged.
 */
public final class ShadowVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(ShadowVerticle.class);

  /** Shadow calls in flight at most on this node. */
  public static final int CONCURRENCY = 4;
  /** How often what was counted is written to the store, milliseconds. */
  public static final long FLUSH_MS = 1000;

  private final LiveManifest live;
  private final Clock clock;
  private final Ticker ticker;
  private final Metrics metrics;
  private final KeyHasher hasher;

  private final ArrayDeque<ShadowOffer> queue = new ArrayDeque<>();
  private int inFlight;
  /** Counted here and not yet in the store. */
  private ShadowTable pending = new ShadowTable();
  /** Being written to the store now, or null. */
  private Future<Void> flushing;
  private long offered;
  private long dropped;
  private long failed;
  private final Map<String, Long> skipped = new TreeMap<>();

  private LadderView view;
  private Node node;
  /** What was built from the revision last seen. */
  private LiveManifest.Revision seen;
  private Ladders ladders;
  private ShadowCeilings ceilings;
  private long timer = -1;
  /**
   * The audit records of the drift corrections this node commits; opened at the first one (its
   * session with the store costs nothing on a node that never corrects a drift).
   */
  private AuditBuffer audit;
  /** The worst disagreements of the tenants that allow keeping them; empty for every other tenant. */
  private final WorstKept worst = new WorstKept();
  /** The tenants that allow it, with their bounds, as the revision last seen says. */
  private Map<String, WorstKept.Limits> keepWorst = Map.of();

  /** A shadow verticle following the revisions {@code live} serves. */
  public ShadowVerticle(LiveManifest live, Clock clock, Ticker ticker, Metrics metrics) {
    this.live = live;
    this.clock = clock;
    this.ticker = ticker;
    this.metrics = metrics;
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    this.hasher = new KeyHasher(secret);
  }

  @Override
  public Future<?> start() {
    node = Node.of(vertx);
    Manifest m = live.current().manifest();
    view = new LadderView(m.enabledTiers(), m.routing().margins(), node.runs(Role.TIERS) ? node.id() : null, ticker);
    metrics.shadowDeclared();
    var bus = vertx.eventBus();
    timer = vertx.setPeriodic(FLUSH_MS, id -> flush());
    return Future.all(
        bus.<ShadowOffer>localConsumer(Addresses.SHADOW_OFFER, this::onOffer).completion(),
        bus.localConsumer(Addresses.SHADOW_VIEW, this::onView).completion(),
        bus.<JsonObject>localConsumer(Addresses.SHADOW_WORST, this::onWorst).completion(),
        bus.<JsonObject>consumer(Addresses.TIER_STATS, msg -> view.onStats(msg.body())).completion(),
        bus.<JsonObject>consumer(Addresses.BREAKER_EVENTS, msg -> view.onBreaker(msg.body())).completion());
  }

  /** Writes what is left to the store (best effort: a store already gone loses at most one flush interval). */
  @Override
  public Future<?> stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    return flush().otherwiseEmpty().compose(v -> audit == null ? Future.succeededFuture() : audit.close());
  }

  /** The revision serving, and what is built from it, rebuilt when it changed. */
  private LiveManifest.Revision revision() {
    LiveManifest.Revision r = live.current();
    if (r != seen) {
      Manifest m = r.manifest();
      ladders = Ladders.of(m);
      ceilings = new ShadowCeilings(m.enabledTiers().stream().map(TierConfig::name).toList(), m.shadow().maxPerS(), ticker);
      view.follow(m.enabledTiers());
      keepWorst = keepWorst(m);
      worst.retain(keepWorst, clock.millis());
      seen = r;
    }
    return r;
  }

  private void onOffer(Message<ShadowOffer> msg) {
    offered++;
    if (queue.size() >= revision().manifest().shadow().queue()) {
      dropped++;
      metrics.shadowDropped("queue_full");
      return;
    }
    queue.add(msg.body());
    pump();
  }

  private void pump() {
    while (inFlight < CONCURRENCY && !queue.isEmpty()) {
      ShadowOffer o = queue.poll();
      inFlight++;
      handle(o).onComplete(ar -> {
        inFlight--;
        if (ar.failed()) {
          log.warn("shadow sample not measured: {}", String.valueOf(ar.cause().getMessage()));
        }
        pump();
      });
    }
  }

  private void skip(String reason) {
    skipped.merge(reason, 1L, Long::sum);
    metrics.shadowSkipped(reason);
  }

  /** One sample: its shadow rung chosen and asked, the two answers compared and counted. */
  private Future<Void> handle(ShadowOffer o) {
    LiveManifest.Revision r = revision();
    Manifest m = r.manifest();
    ShadowConfig cfg = m.shadow();
    ResolveRequest req = o.request();
    Tenant tenant = r.tenants().byId(o.tenant());
    Optional<IntentConfig> intent = m.intent(req.intent());
    Optional<TierConfig> served = m.enabledTiers().stream().filter(t -> t.name().equals(o.served())).findFirst();
    if (tenant == null || intent.isEmpty() || served.isEmpty()) {
      skip("gone");
      return Future.succeededFuture();
    }
    if (!cfg.on() || cfg.optOutTenants().contains(tenant.id())) {
      skip("opted_out");
      return Future.succeededFuture();
    }
    List<TierConfig> ladder = ladders.ladder(intent.get().name(), req.direction(), tenant.strictRegion());
    ShadowTarget target = ShadowTarget.of(cfg, ladder, o.served(), o.replay());
    if (target.tier() == null) {
      skip(target.skip());
      return Future.succeededFuture();
    }
    TierConfig tier = target.tier();
    if (view.state(tier).refusesCalls()) {
      skip("breaker_open");
      return Future.succeededFuture();
    }
    if (!ceilings.tryAcquire(tier.name())) {
      dropped++;
      metrics.shadowDropped("ceiling");
      return Future.succeededFuture();
    }
    long t0 = ticker.nanoTime();
    if (o.replay()) {
      return ask(r, tier, intent.get(), o).compose(reply -> drift(r, ladder, tier, o, reply, (ticker.nanoTime() - t0) / 1_000_000));
    }
    return ask(r, tier, intent.get(), o).map(reply -> {
      double ms = (ticker.nanoTime() - t0) / 1e6;
      ShadowSample.Side shadow = side(tier, reply, ms);
      if (shadow == null) {
        failed++;
        metrics.shadowFailed(tier.name());
        return null;
      }
      ShadowSample s = new ShadowSample(hasher.idOf(o.idempotencyKey()), intent.get().name(), clock.millis(),
          ShadowSample.Side.found(o.served(), new LonLat(o.lon(), o.lat()), o.precision(), served.get().claim(), o.servedMs(),
              o.label()), shadow);
      if (pending.record(s)) {
        metrics.shadowSample(o.served(), tier.name(), s.distanceM().orElse(Double.NaN),
            s.agreement() != ShadowSample.Agreement.BOTH_FOUND);
      }
      WorstKept.Limits limits = keepWorst.get(tenant.id());
      if (limits != null) {
        worst.offer(new WorstKept.Case(tenant.id(), queryOf(req), s), limits, s.atMs());
      }
      return null;
    });
  }

  /**
   * A replay due for a drift check, asked again of the rung that produced it: when that rung now
   * places it more than {@code shadow.drift.moved_m} away, the stored answer is corrected
   * ({@code reason: drift}) through the outbox, as the reconciler's corrections are: the feed, the
   * stream, the webhooks, the audit trail and the caches take it. Counted by outcome in
   * {@code georesolver_shadow_drift_total{tier, outcome}} ({@code moved}, {@code steady},
   * {@code not_found}, {@code failed}, {@code known}: a drift recorded before).
   */
  private Future<Void> drift(LiveManifest.Revision r, List<TierConfig> ladder, TierConfig tier, ShadowOffer o, TierReply reply,
      long ms) {
    ShadowConfig.Drift cfg = r.manifest().shadow().drift();
    if (reply.kind() != TierReply.Kind.HIT) {
      boolean notFound = reply.kind() == TierReply.Kind.FAILED
          && (reply.failureClass() == FailureClass.NO_MATCH || reply.failureClass() == FailureClass.OUT_OF_BBOX);
      metrics.shadowDrift(tier.name(), notFound ? "not_found" : "failed");
      return Future.succeededFuture();
    }
    Hit hit = reply.hit();
    var moved = new DriftCheck(cfg.minAgeS() * 1000, cfg.movedM()).moved(new LonLat(o.lon(), o.lat()),
        new LonLat(hit.lon(), hit.lat()));
    if (moved.isEmpty()) {
      metrics.shadowDrift(tier.name(), "steady");
      return Future.succeededFuture();
    }
    long now = clock.millis();
    ResolveRequest q = o.request();
    Debt basis = new Debt(o.idempotencyKey(), q.intent(), q.direction(), o.tenant(), q, o.served(), "resolved", null,
        tier.claim().wire(), o.lon(), o.lat(), o.confidence(), o.resolvedAtMs(), now);
    Repair fresh = Repairs.of(r.manifest(), r.manifest().revision(), ladder, tier, hit, q,
        List.of(new Attempt(tier.name(), "ok", 1, ms, "drift check")), now);
    JsonObject body = new JsonObject().put("basis", basis.toJson()).put("repair", fresh.toJson());
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_DRIFT_CORRECT, body,
            Caller.SYSTEM.on(node.to(Addresses.STATE_DRIFT_CORRECT).setSendTimeout(10_000)))
        .map(m -> {
          JsonObject c = m.body().getJsonObject("correction");
          metrics.shadowDrift(tier.name(), c == null ? "known" : "moved");
          if (c != null) {
            Correction committed = Correction.fromJson(c);
            vertx.eventBus().send(Addresses.CORRECTIONS_COMMITTED, committed.cursor());
            if (audit == null) {
              audit = AuditBuffer.create(vertx, live.current().manifest().audit(), () -> live.current().manifest().audit(), true,
                  clock, metrics);
            }
            audit.offer(committed, q.traceId());
          }
          return null;
        });
  }

  /** The tenants whose manifest entry allows keeping their worst disagreements, with their bounds. */
  private static Map<String, WorstKept.Limits> keepWorst(Manifest m) {
    Map<String, WorstKept.Limits> out = new HashMap<>();
    for (TenantConfig t : m.tenants()) {
      TenantConfig.KeepWorst k = t.shadowKeepWorst();
      if (k != null) {
        out.put(t.id(), new WorstKept.Limits(k.count(), k.maxAgeS() * 1000, k.minM()));
      }
    }
    return Map.copyOf(out);
  }

  /** What was asked, as a kept case shows it: the address as given (structured components joined), or "lat,lon". */
  private static String queryOf(ResolveRequest q) {
    return q.direction() == Direction.REVERSE ? q.lat() + "," + q.lon() : Objects.requireNonNullElse(q.text(), "");
  }

  /** {@link Addresses#SHADOW_WORST}: the kept cases of the tenant asked for, or of every tenant. */
  private void onWorst(Message<JsonObject> msg) {
    revision();
    String tenant = msg.body() == null ? null : msg.body().getString("tenant");
    var kept = worst.of(tenant == null ? null : Set.of(tenant), keepWorst, clock.millis());
    JsonObject tenants = new JsonObject();
    kept.forEach((id, cases) -> tenants.put(id, new JsonArray(cases.stream().map(c -> (Object) c.toMap()).toList())));
    msg.reply(new JsonObject().put("tenants", tenants).put("node", node.id()));
  }

  /** The shadow rung's side of the sample; null when the call measured nothing (failed, skipped). */
  private static ShadowSample.Side side(TierConfig tier, TierReply reply, double ms) {
    return switch (reply.kind()) {
      case HIT -> ShadowSample.Side.found(tier.name(), new LonLat(reply.hit().lon(), reply.hit().lat()), reply.hit().precision(),
          tier.claim(), ms, reply.hit().label());
      case FAILED -> reply.failureClass() == FailureClass.NO_MATCH || reply.failureClass() == FailureClass.OUT_OF_BBOX
          ? ShadowSample.Side.notFound(tier.name(), tier.claim(), ms) : null;
      case SKIPPED -> null;
    };
  }

  /** The rung visit, as the chain makes it, with the batch priority and the routing's default budget. */
  private Future<TierReply> ask(LiveManifest.Revision r, TierConfig tier, IntentConfig intent, ShadowOffer o) {
    ResolveRequest q = o.request();
    long budget = r.manifest().routing().budgetMs();
    ForwardQuery f = q.direction() == Direction.FORWARD ? new ForwardQuery(q.text(), q.components(), q.bbox(), q.language()) : null;
    ReverseQuery rq = q.direction() == Direction.REVERSE ? new ReverseQuery(q.lat(), q.lon(), q.language()) : null;
    TierRequest req = new TierRequest(q.direction(), f, rq, o.idempotencyKey(), q.traceId(), 0, intent.maxCacheAgeMs());
    String address = r.visitAddress(tier.name());
    DeliveryOptions d = node.to(address).setSendTimeout(budget + r.manifest().routing().margins().tierReplyMs())
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(budget))
        .addHeader(Addresses.PRIORITY_HEADER, Addresses.PRIORITY_BATCH);
    if (q.traceId() != null) {
      d.addHeader(Addresses.TRACE_HEADER, q.traceId());
    }
    return vertx.eventBus().<TierReply>request(address, req, d).map(Message::body)
        .otherwise(t -> TierReply.skipped("unavailable", String.valueOf(t.getMessage()), 0));
  }

  /** Writes what was counted to the store; on failure it is kept and added to the next write. */
  private Future<Void> flush() {
    if (flushing != null) {
      return flushing;
    }
    if (pending.isEmpty()) {
      return Future.succeededFuture();
    }
    ShadowTable out = pending;
    pending = new ShadowTable();
    flushing = vertx.eventBus().<JsonObject>request(Addresses.STATE_SHADOW_MERGE, new JsonObject().put("table", out.encodeToString()),
            node.to(Addresses.STATE_SHADOW_MERGE).setSendTimeout(5000))
        .<Void>mapEmpty()
        .onFailure(t -> {
          log.debug("shadow figures not written yet ({}); kept for the next write", t.getMessage());
          try {
            pending.add(out);
          } catch (IllegalStateException tooMany) {
            log.warn("shadow figures of {} pairs dropped: more pairs than a table holds", out.size());
          }
        })
        .onComplete(x -> flushing = null);
    return flushing;
  }

  /** {@link Addresses#SHADOW_VIEW}: this node's figures written first, then every node's as the store holds them. */
  private void onView(Message<Object> msg) {
    flush().recover(t -> Future.succeededFuture())
        .compose(v -> vertx.eventBus().<JsonObject>request(Addresses.STATE_SHADOW_READ, "",
            node.to(Addresses.STATE_SHADOW_READ).setSendTimeout(5000)))
        .map(reply -> ShadowTable.decode(reply.body().getString("table")))
        .onSuccess(t -> {
          JsonObject view = new JsonObject(ShadowView.toMap(t.summaries()));
          view.put("node", new JsonObject().put("offered", offered).put("dropped", dropped).put("failed", failed)
              .put("queued", queue.size()).put("skipped", new JsonObject(new TreeMap<>(skipped))));
          msg.reply(view);
        })
        .onFailure(t -> msg.fail(FailureCode.STORE_UNAVAILABLE.code(), "the shadow figures could not be read: " + t.getMessage()));
  }
}
