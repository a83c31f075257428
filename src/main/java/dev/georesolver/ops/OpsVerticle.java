package dev.georesolver.ops;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import dev.georesolver.config.Manifest;
import dev.georesolver.reload.LiveManifest;
import dev.georesolver.tenant.Tenants;
import dev.georesolver.config.TierConfig;
import dev.georesolver.metrics.Metrics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The operator's live view, one instance per process: aggregates what the bus already carries —
 * breaker transitions ({@link Addresses#BREAKER_EVENTS}), tier statistics
 * ({@link Addresses#TIER_STATS}), the reconciler's news ({@link Addresses#RECONCILE_EVENTS}) — and,
 * once a second, a snapshot of the traffic read from {@link Metrics} (routing distribution, refusal
 * rate, latency percentiles), and publishes all of it on {@link Addresses#OPS_EVENTS}. Every
 * {@value #SHADOW_POLL_MS} ms, while shadow sampling is on, it also asks the node's shadow verticle
 * for the merged figures ({@link Addresses#SHADOW_VIEW}) and relays them as the agreement matrix
 * ({@link ShadowBoard}) when they changed: the dashboard reads them on its one stream, behind the
 * one guard of {@code /admin/events}. Answers {@link Addresses#OPS_STATE} with the whole picture for
 * a dashboard that connects.
 *
 * <p>Nothing on the request path changes for it: the chain records results in {@link Metrics}
 * anyway, and this verticle reads the totals once a second ({@link TrafficRollup}).
 */
public final class OpsVerticle extends VerticleBase {

  /** Milliseconds between snapshots. */
  public static final long TICK_MS = 1000;
  /** Milliseconds between two questions to the shadow verticle. */
  public static final long SHADOW_POLL_MS = 5000;
  /** How long the shadow verticle's answer is waited for, milliseconds (less than a poll: they never overlap). */
  public static final long SHADOW_TIMEOUT_MS = 4000;

  /** The feed is this node's: its dashboards, its figures (on a clustered bus another node has its own). */
  private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);

  private final LiveManifest live;
  private final Metrics metrics;
  private final Clock clock;
  private LadderBoard ladder;
  private ReconcileBoard reconcile;
  private TrafficRollup traffic;
  private ShadowBoard shadow;
  /** Whether a question to the shadow verticle is waiting for its answer. */
  private boolean askingShadow;
  private long timer = -1;
  private long shadowTimer = -1;

  /** @param clock the wall clock snapshots are stamped with (their rates are per second of it) */
  public OpsVerticle(Manifest manifest, Metrics metrics, Clock clock) {
    this(LiveManifest.fixed(manifest, Tenants.of(manifest)), metrics, clock);
  }

  /** An ops verticle that follows the revisions {@code live} serves (the ladder after a reload). */
  public OpsVerticle(LiveManifest live, Metrics metrics, Clock clock) {
    this.live = live;
    this.metrics = metrics;
    this.clock = clock;
  }

  @Override
  public Future<?> start() {
    ladder = new LadderBoard(live.current().manifest().enabledTiers());
    reconcile = new ReconcileBoard();
    traffic = new TrafficRollup();
    shadow = new ShadowBoard(live.current().manifest().shadow().on(), clock.millis());
    var bus = vertx.eventBus();
    List<Future<?>> ready = new ArrayList<>(List.of(
        bus.<Object>consumer(Addresses.BREAKER_EVENTS, m -> json(m).ifPresent(this::onTransition)).completion(),
        bus.<Object>consumer(Addresses.TIER_STATS, m -> json(m).ifPresent(ladder::onStatus)).completion(),
        bus.<Object>consumer(Addresses.RECONCILE_EVENTS, m -> json(m).ifPresent(this::onReconcile)).completion(),
        bus.<Object>localConsumer(Addresses.MANIFEST_EVENTS, m -> json(m).ifPresent(this::onReload)).completion(),
        bus.localConsumer(Addresses.OPS_STATE, m -> m.reply(hello())).completion()));
    return Future.all(ready).compose(v -> seedStatuses()).onSuccess(v -> {
      traffic.tick(metrics.reading(), clock.millis());
      timer = vertx.setPeriodic(TICK_MS, id -> tick());
      pollShadow();
      shadowTimer = vertx.setPeriodic(SHADOW_POLL_MS, id -> pollShadow());
    });
  }

  @Override
  public Future<?> stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    if (shadowTimer >= 0) {
      vertx.cancelTimer(shadowTimer);
    }
    return Future.succeededFuture();
  }

  private static Optional<JsonObject> json(Message<Object> m) {
    return m.body() instanceof JsonObject j ? Optional.of(j) : Optional.empty();
  }

  /** Asks each tier for its status once, so the board starts from the tiers' word; a silent tier keeps its seed. */
  private Future<Void> seedStatuses() {
    Manifest manifest = live.current().manifest();
    List<Future<Void>> asked = new ArrayList<>();
    for (TierConfig t : manifest.enabledTiers()) {
      DeliveryOptions o = Node.of(vertx).to(Addresses.tierStatus(t.name())).setSendTimeout(manifest.routing().margins().statusTimeoutMs());
      asked.add(vertx.eventBus().<Object>request(Addresses.tierStatus(t.name()), "", o)
          .map(m -> {
            json(m).ifPresent(ladder::onStatus);
            return (Void) null;
          })
          .otherwise((Void) null));
    }
    return Future.all(asked).mapEmpty();
  }

  private void tick() {
    JsonObject snapshot = traffic.tick(metrics.reading(), clock.millis());
    vertx.eventBus().publish(Addresses.OPS_EVENTS, snapshot.copy().put("tiers", ladder.tiers()), LOCAL);
  }

  /** Relays the shadow figures when they changed; asks nothing while sampling is off, nor while a question is out. */
  private void pollShadow() {
    if (!live.current().manifest().shadow().on()) {
      relay(shadow.off(clock.millis()));
      return;
    }
    if (askingShadow) {
      return;
    }
    askingShadow = true;
    askShadow().onComplete(ar -> {
      askingShadow = false;
      relay(ar.result());
    });
  }

  /** The shadow verticle's figures as a {@code shadow} event (null when unchanged); never fails. */
  private Future<JsonObject> askShadow() {
    DeliveryOptions o = Node.of(vertx).to(Addresses.SHADOW_VIEW).setSendTimeout(SHADOW_TIMEOUT_MS);
    return vertx.eventBus().<Object>request(Addresses.SHADOW_VIEW, "", o)
        .map(m -> shadow.onView(m.body(), ladder.names(), clock.millis()))
        .otherwise(t -> shadow.unavailable(whyNoShadow(t), clock.millis()));
  }

  /** What the operator reads when the shadow verticle gave no figures. */
  static String whyNoShadow(Throwable t) {
    if (t instanceof ReplyException r && r.failureType() == ReplyFailure.NO_HANDLERS) {
      return "no shadow sampler runs on this node";
    }
    if (t instanceof ReplyException r && r.failureType() == ReplyFailure.TIMEOUT) {
      return "the shadow sampler did not answer within " + SHADOW_TIMEOUT_MS / 1000 + " s";
    }
    return String.valueOf(t.getMessage());
  }

  private void relay(JsonObject event) {
    if (event != null) {
      vertx.eventBus().publish(Addresses.OPS_EVENTS, event, LOCAL);
    }
  }

  private void onTransition(JsonObject e) {
    JsonObject relayed = ladder.onTransition(e);
    if (relayed != null) {
      vertx.eventBus().publish(Addresses.OPS_EVENTS, relayed, LOCAL);
    }
  }

  /** A reload attempt: an applied one changes the board's ladder (asked again for each tier's status); each is relayed. */
  private void onReload(JsonObject status) {
    JsonObject last = status.getJsonObject("last_attempt");
    if (last != null && "applied".equals(last.getString("outcome"))) {
      ladder.follow(live.current().manifest().enabledTiers());
      seedStatuses();
    }
    vertx.eventBus().publish(Addresses.OPS_EVENTS, status.copy().put("type", "reload"));
  }

  private void onReconcile(JsonObject e) {
    JsonObject relayed = reconcile.on(e, clock.millis());
    if (relayed != null) {
      vertx.eventBus().publish(Addresses.OPS_EVENTS, relayed, LOCAL);
    }
  }

  private JsonObject hello() {
    return new JsonObject()
        .put("type", "hello")
        .put("now_ms", clock.millis())
        .put("manifest_revision", live.current().name())
        .put("reload", live.status().toJson())
        .put("tiers", ladder.tiers())
        .put("history", traffic.history())
        .put("breaker_events", ladder.transitions())
        .put("reconcile", reconcile.status())
        .put("corrections", reconcile.corrections())
        .put("shadow", shadow.last());
  }
}
