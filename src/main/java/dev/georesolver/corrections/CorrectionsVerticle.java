package dev.georesolver.corrections;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.Node;
import dev.georesolver.config.CorrectionsConfig;
import dev.georesolver.config.Secret;
import dev.georesolver.config.WebhookConfig;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.reconcile.RetryBackoff;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Delivers corrections from the outbox, each consumer from its own cursor, at least once:
 *
 * <ul>
 *   <li>{@code publish} on {@link Addresses#CORRECTIONS} for the verticles of this process (dedupe and
 *       the memory index update themselves from it; the SSE stream forwards it). With SQLite its
 *       cursor is durable ({@code bus}), so a correction committed just before a crash is still
 *       published after the restart; with Redis each instance publishes what is committed from its
 *       start on (its memory starts empty).
 *   <li>each webhook: a signed, timestamped POST per correction of the tenants it names
 *       ({@link Signature}), in outbox order, retried with jittered exponential backoff
 *       ({@code corrections.retry_base_ms} … {@code retry_max_ms}); one correction refused
 *       {@code corrections.max_attempts} times is dead-lettered (logged, counted, skipped) and the
 *       webhook goes on; at most {@link #MAX_RESPONSE_BYTES} of a response are read. Its cursor is
 *       durable and its own, so a webhook that is down holds up nobody else — not the reconciler,
 *       not the other webhooks — and loses nothing across restarts.
 * </ul>
 * The outbox is read when the reconciler says it committed ({@link Addresses#CORRECTIONS_COMMITTED})
 * and every {@link #POLL_SHARED_MS} on Redis (another instance may have committed) or
 * {@link #POLL_OWN_MS} on SQLite.
 */
public final class CorrectionsVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(CorrectionsVerticle.class);

  /**
   * How often the outbox is read without being told, milliseconds: on a shared Redis another
   * instance may have committed; on an own SQLite file only this process commits (and says so), so
   * the poll is a safety net.
   */
  static final long POLL_SHARED_MS = 500;
  static final long POLL_OWN_MS = 5000;
  /** The most of a webhook's response body read (and dropped), bytes. */
  static final long MAX_RESPONSE_BYTES = 64 * 1024;
  /** Corrections read per page. */
  static final int PAGE = 200;
  /** The bus publisher's cursor name. */
  static final String BUS_CURSOR = "bus";

  private final CorrectionsConfig cfg;
  private final boolean durableBusCursor;
  private final Map<String, String> env;
  private final Supplier<RandomGenerator> random;
  private final Metrics metrics;
  private final List<Hook> hooks = new ArrayList<>();
  private HttpClient http;
  private String busCursor;
  private boolean busBusy;
  private boolean busAgain;

  /** One webhook's delivery state; confined to this verticle. */
  private static final class Hook {
    final WebhookConfig cfg;
    final Secret secret;
    String cursor;
    boolean busy;
    int failures;
    long retryTimer = -1;
    /** The correction whose delivery keeps failing, and how many times it failed. */
    String failingCursor;
    int failingAttempts;

    Hook(WebhookConfig cfg, Secret secret) {
      this.cfg = cfg;
      this.secret = secret;
    }
  }

  /**
   * @param durableBusCursor whether the bus publisher resumes from a stored cursor (one instance
   *     on its own file) or from the outbox's head at start (instances sharing Redis)
   * @param env where webhook secrets are read from
   */
  public CorrectionsVerticle(CorrectionsConfig cfg, boolean durableBusCursor, Map<String, String> env, Supplier<RandomGenerator> random,
      Metrics metrics) {
    this.cfg = cfg;
    this.durableBusCursor = durableBusCursor;
    this.env = env;
    this.random = random;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    http = vertx.httpClientBuilder().with(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true)).build();
    return vertx.executeBlocking(this::readSecrets)
        .compose(v -> cursor(BUS_CURSOR))
        .compose(c -> {
          if (durableBusCursor) {
            busCursor = c.getString("cursor");
            return Future.succeededFuture();
          }
          busCursor = c.getString("head");
          return Future.succeededFuture();
        })
        .compose(v -> Future.all(hooks.stream().map(h -> cursor(h.cfg.id()).map(c -> {
          h.cursor = c.getString("cursor");
          return null;
        })).toList()))
        .compose(v -> vertx.eventBus().localConsumer(Addresses.CORRECTIONS_COMMITTED, m -> pump()).completion())
        .onSuccess(v -> {
          vertx.setPeriodic(durableBusCursor ? POLL_OWN_MS : POLL_SHARED_MS, id -> pump());
          pump();
        });
  }

  @Override
  public Future<?> stop() {
    return http == null ? Future.succeededFuture() : http.close();
  }

  /** Reads each webhook's secret once; a webhook without one is left out, loudly. */
  private Void readSecrets() {
    for (WebhookConfig w : cfg.webhooks()) {
      try {
        hooks.add(new Hook(w, w.readSecret(env)));
        log.info("corrections: webhook {} enabled ({})", w.id(), w.secretSource());
      } catch (IllegalStateException e) {
        log.error("corrections: webhook {} LEFT OUT: {}", w.id(), e.getMessage());
      }
    }
    return null;
  }

  private Future<JsonObject> cursor(String name) {
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_CORRECTIONS_CURSOR, new JsonObject().put("name", name),
        Caller.SYSTEM.on(Node.of(vertx).to(Addresses.STATE_CORRECTIONS_CURSOR).setSendTimeout(10_000))).map(m -> m.body());
  }

  private Future<JsonObject> page(String after) {
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_CORRECTIONS_PAGE,
        new JsonObject().put("after", after).put("limit", PAGE),
        Caller.SYSTEM.on(Node.of(vertx).to(Addresses.STATE_CORRECTIONS_PAGE).setSendTimeout(10_000))).map(m -> m.body());
  }

  private void pump() {
    pumpBus();
    hooks.forEach(this::pumpHook);
  }

  private void pumpBus() {
    if (busBusy) {
      busAgain = true;
      return;
    }
    busBusy = true;
    busAgain = false;
    page(busCursor).compose(p -> {
      JsonArray cs = p.getJsonArray("corrections", new JsonArray());
      for (int i = 0; i < cs.size(); i++) {
        JsonObject c = cs.getJsonObject(i);
        vertx.eventBus().publish(Addresses.CORRECTIONS, c);
        vertx.eventBus().publish(Addresses.RECONCILE_EVENTS, forDashboard(c));
        metrics.correctionDelivery("bus", "ok");
      }
      if (cs.isEmpty()) {
        return Future.succeededFuture(false);
      }
      busCursor = p.getString("next");
      busAgain |= cs.size() == PAGE;
      return durableBusCursor ? saveCursor(BUS_CURSOR, busCursor).map(true) : Future.succeededFuture(true);
    }).onComplete(ar -> {
      busBusy = false;
      if (ar.failed()) {
        log.debug("corrections: reading the outbox failed: {}", ar.cause().getMessage());
      } else if (busAgain) {
        pumpBus();
      }
    });
  }

  private Future<Void> saveCursor(String name, String cursor) {
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_CORRECTIONS_CURSOR,
        new JsonObject().put("name", name).put("cursor", cursor),
        Caller.SYSTEM.on(Node.of(vertx).to(Addresses.STATE_CORRECTIONS_CURSOR).setSendTimeout(10_000))).mapEmpty();
  }

  private void pumpHook(Hook h) {
    if (h.busy || h.retryTimer >= 0) {
      return;
    }
    h.busy = true;
    page(h.cursor).compose(p -> deliver(h, p.getJsonArray("corrections", new JsonArray()), 0)).onComplete(ar -> {
      h.busy = false;
      if (ar.failed() && ar.cause() instanceof Refused r && deadLetter(h, r)) {
        return;
      }
      if (ar.failed()) {
        h.failures++;
        long delay = new RetryBackoff(cfg.retryBaseMs(), cfg.retryMaxMs(), random).delayMs(h.failures);
        log.warn("corrections: webhook {} failed ({}); retrying in {} ms (attempt {})", h.cfg.id(), ar.cause().getMessage(),
            delay, h.failures);
        h.retryTimer = vertx.setTimer(delay, id -> {
          h.retryTimer = -1;
          pumpHook(h);
        });
      } else if (Boolean.TRUE.equals(ar.result())) {
        pumpHook(h);
      }
    });
  }

  /** A webhook's refusal of one correction (its cursor and id), counted towards its dead-lettering. */
  static final class Refused extends RuntimeException {
    final String cursor;
    final String correctionId;

    Refused(String cursor, String correctionId, String why) {
      super(why, null, false, false);
      this.cursor = cursor;
      this.correctionId = correctionId;
    }
  }

  /**
   * Counts one more refusal of {@code r}'s correction; at {@code corrections.max_attempts} it is
   * dead-lettered: logged, counted, and skipped (the cursor saved past it), so the webhook goes on
   * with the rest. Whether it was.
   */
  private boolean deadLetter(Hook h, Refused r) {
    if (!r.cursor.equals(h.failingCursor)) {
      h.failingCursor = r.cursor;
      h.failingAttempts = 0;
    }
    h.failingAttempts++;
    if (h.failingAttempts < cfg.maxAttempts()) {
      return false;
    }
    log.warn("corrections: webhook {} DEAD-LETTERED correction {} (cursor {}) after {} refused deliveries (last: {}); going on "
        + "with the next; GET /v1/corrections?after=<the cursor before it> reads it again", h.cfg.id(), r.correctionId, r.cursor,
        h.failingAttempts, r.getMessage());
    metrics.correctionDelivery("webhook", "dead_lettered");
    h.failingCursor = null;
    h.failingAttempts = 0;
    h.failures = 0;
    h.cursor = r.cursor;
    h.busy = true;
    saveCursor(h.cfg.id(), h.cursor).onComplete(ar -> {
      h.busy = false;
      pumpHook(h);
    });
    return true;
  }

  /** Delivers corrections from {@code i} on, one POST at a time, skipping other tenants'; true when it moved on. */
  private Future<Boolean> deliver(Hook h, JsonArray cs, int i) {
    if (i >= cs.size()) {
      return Future.succeededFuture(i > 0);
    }
    JsonObject c = cs.getJsonObject(i);
    String cursor = c.getString("cursor");
    if (!h.cfg.receives(c.getString("tenant", "public"))) {
      // Not this webhook's: passed over, the cursor saved with the next delivery or at the page's end.
      h.cursor = cursor;
      return i + 1 < cs.size() ? deliver(h, cs, i + 1) : saveCursor(h.cfg.id(), h.cursor).map(true);
    }
    Buffer body = c.toBuffer();
    long ts = System.currentTimeMillis() / 1000;
    RequestOptions o = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(h.cfg.url())
        .setConnectTimeout(h.cfg.timeoutMs()).setIdleTimeout(h.cfg.timeoutMs())
        .putHeader("Content-Type", "application/json")
        .putHeader(Signature.TIMESTAMP_HEADER, Long.toString(ts))
        .putHeader(Signature.HEADER, Signature.of(h.secret.reveal(), ts, body.getBytes()))
        .putHeader("X-Georesolver-Correction-Id", c.getString("correction_id"))
        .putHeader("X-Georesolver-Cursor", cursor);
    return http.request(o)
        .compose(req -> req.send(body))
        .compose(this::statusAfterBoundedRead)
        .recover(t -> Future.failedFuture(t instanceof Refused ? t : new Refused(cursor, c.getString("correction_id"),
            String.valueOf(t.getMessage()))))
        .compose(status -> {
          if (status / 100 != 2) {
            metrics.correctionDelivery("webhook", "failed");
            return Future.failedFuture(new Refused(cursor, c.getString("correction_id"), "HTTP " + status));
          }
          metrics.correctionDelivery("webhook", "ok");
          h.failures = 0;
          h.failingCursor = null;
          h.failingAttempts = 0;
          h.cursor = cursor;
          return saveCursor(h.cfg.id(), h.cursor);
        })
        .compose(v -> deliver(h, cs, i + 1));
  }

  /**
   * The response's status once its body is read and dropped, at most {@link #MAX_RESPONSE_BYTES}:
   * past it the connection is closed (the status stands), so a receiver cannot make a delivery
   * buffer or wait on an endless body.
   */
  private Future<Integer> statusAfterBoundedRead(io.vertx.core.http.HttpClientResponse resp) {
    io.vertx.core.Promise<Integer> done = io.vertx.core.Promise.promise();
    long[] read = {0};
    resp.handler(b -> {
      read[0] += b.length();
      if (read[0] > MAX_RESPONSE_BYTES) {
        done.tryComplete(resp.statusCode());
        resp.request().reset();
      }
    });
    resp.exceptionHandler(t -> done.tryComplete(resp.statusCode()));
    resp.endHandler(v -> done.tryComplete(resp.statusCode()));
    return done.future();
  }

  /** A correction as the operator's live view shows it: who served, who corrected, how far it moved. */
  static JsonObject forDashboard(JsonObject c) {
    JsonObject before = c.getJsonObject("before", new JsonObject());
    JsonObject after = c.getJsonObject("after", new JsonObject());
    JsonObject answer = c.getJsonObject("answer", new JsonObject());
    return new JsonObject().put("type", "correction")
        .put("at_ms", c.getLong("corrected_at_ms"))
        .put("idempotency_key", c.getString("idempotency_key"))
        .put("served_by", before.getString("resolution_source"))
        .put("corrected_by", after.getString("resolution_source"))
        .put("moved_m", c.getValue("moved_m"))
        .put("reason", c.getString("reason", Correction.DEGRADED))
        .put("label", answer.getString("label"));
  }
}
