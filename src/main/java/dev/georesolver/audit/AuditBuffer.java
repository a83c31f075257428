package dev.georesolver.audit;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.AuditBatch;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.config.AuditConfig;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.bus.WriteBuffer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.Node;
import dev.georesolver.state.rules.AuditGaps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * One verticle's audit records on their way to the state store: {@link AuditRecords} decides what
 * is recorded, and a {@link WriteBuffer} hands the records over in batches of at most
 * {@code audit.batch_max} every {@code audit.flush_interval_ms}, so an answer pays a list append and
 * never waits for the store. A batch the store could not take is kept and retried at the next
 * flush, up to {@code audit.buffer_max} records; what does not fit is refused. Every record is
 * counted once as it settles in {@code georesolver_audit_records_total} by {@code result}
 * ({@code written}, {@code dropped}), and each retry in {@code retried}; a drop is also logged
 * (with the record's id) — never silent. Confined to the owning verticle's context.
 *
 * <p>Completeness is provable: records refused by the full buffer leave a gap record per tenant
 * in the chain (their count, the window of their times, cause {@code buffer_full}), placed as soon as
 * the buffer has room again; and the buffer holds a session with the store, renewed while it runs
 * and closed by {@link #close} once everything is handed over, so a writer that dies with records
 * in memory is declared lost by the store and leaves a gap record too ({@code writer_lost}, with the
 * buffer's size as the bound). See {@code AuditGaps}.
 *
 * <p>{@code audit.level} is read from the revision serving at each record, so a reload that turns
 * it on or off applies to the next answer; the buffer's sizes and flush interval are read at start.
 */
public final class AuditBuffer {

  private static final Logger log = LoggerFactory.getLogger(AuditBuffer.class);
  /** How long a clean stop waits for the store to take what is buffered, milliseconds. */
  static final long DRAIN_MS = 5_000;

  private final Vertx vertx;
  private final Supplier<AuditConfig> level;
  private final Clock clock;
  private final String session;
  /** Records refused per tenant whose gap record is not in the buffer yet. */
  private final Map<String, long[]> refused = new LinkedHashMap<>();
  private WriteBuffer<AuditEvent> buffer;
  private long renewTimer = -1;
  private boolean closed;
  /** The last session message: each waits for the one before, so a close never overtakes a renewal. */
  private Future<?> lastSession = Future.succeededFuture();

  private AuditBuffer(Vertx vertx, Supplier<AuditConfig> level, Clock clock) {
    this.vertx = vertx;
    this.level = level;
    this.clock = clock;
    byte[] id = new byte[16];
    ThreadLocalRandom.current().nextBytes(id);
    this.session = HexFormat.of().formatHex(id);
  }

  /**
   * A buffer for one verticle, or one that keeps nothing when no state store runs in this process
   * ({@code stateRuns} false). Call from the owning verticle's context: its session starts at once.
   *
   * @param cfg the start's {@code audit:} (sizes, flush interval)
   * @param level the serving revision's {@code audit:}, read at each record for its {@code level}
   */
  public static AuditBuffer create(Vertx vertx, AuditConfig cfg, Supplier<AuditConfig> level, boolean stateRuns, Clock clock,
      Metrics metrics) {
    AuditBuffer a = new AuditBuffer(vertx, level, clock);
    if (!stateRuns) {
      return a;
    }
    metrics.audit("written", 0);
    metrics.audit("retried", 0);
    metrics.audit("dropped", 0);
    a.buffer = new WriteBuffer<>(vertx, "audit", Addresses.STATE_AUDIT_APPEND, cfg.flushIntervalMs(), cfg.bufferMax(),
        cfg.batchMax(), AuditBatch::new, AuditEvent::id, dropped -> {
          metrics.audit("dropped", dropped.size());
          a.refused(dropped);
        }, new WriteBuffer.Counts() {
          @Override
          public void written(int n) {
            metrics.audit("written", n);
            a.placeGaps();
          }

          @Override
          public void retried(int n) {
            metrics.audit("retried", n);
          }
        });
    a.renew();
    a.renewTimer = vertx.setPeriodic(AuditGaps.RENEW_MS, id -> a.renew());
    return a;
  }

  /** Records {@code reply} to {@code tenant}'s partition if the level asks for it. */
  public void offer(String tenant, ResolveReply reply) {
    AuditConfig now = level.get();
    if (buffer == null || !now.enabled()) {
      return;
    }
    AuditEvent e = AuditRecords.of(tenant, reply, now.all(), clock.millis());
    if (e != null) {
      add(e);
    }
  }

  /** Records a committed correction to its tenant's partition. */
  public void offer(Correction c, String traceId) {
    if (buffer != null && level.get().enabled()) {
      add(AuditRecords.correction(c, traceId, clock.millis()));
    }
  }

  private void add(AuditEvent e) {
    if (!refused.isEmpty()) {
      placeGaps();
    }
    buffer.add(e);
  }

  /** Records waiting for the store. */
  public int size() {
    return buffer == null ? 0 : buffer.size();
  }

  /** This writer's session with the store: 32 lower-case hex digits. */
  public String session() {
    return session;
  }

  /**
   * A clean stop: hands over what is buffered (gap records included) within {@link #DRAIN_MS}, then
   * closes the session. What the store could not take in time stays unaccounted here, and the session
   * stays open, so the store declares this writer lost and the chains record the gap.
   */
  public Future<Void> close() {
    if (buffer == null || closed) {
      return Future.succeededFuture();
    }
    closed = true;
    vertx.cancelTimer(renewTimer);
    placeGaps();
    return buffer.drain(DRAIN_MS).compose(left -> {
      if (!left.isEmpty() || !refused.isEmpty()) {
        log.warn("audit: {} record(s) could not be handed over before the stop; the store will record this writer's gap", left.size());
        return Future.succeededFuture();
      }
      return session("close").<Void>mapEmpty().recover(t -> {
        log.warn("audit: closing the writer's session failed ({}); the store will record a gap for it", String.valueOf(t.getMessage()));
        return Future.succeededFuture();
      });
    });
  }

  private void renew() {
    session("renew").onFailure(t -> log.debug("audit: renewing the writer's session failed: {}", t.getMessage()));
  }

  private Future<Object> session(String op) {
    JsonObject body = new JsonObject().put("session", session).put("op", op).put("at_most", buffer.max());
    Future<Object> sent = lastSession.transform(x -> vertx.eventBus().request(Addresses.STATE_AUDIT_SESSION, body,
        Caller.SYSTEM.on(Node.of(vertx).to(Addresses.STATE_AUDIT_SESSION).setSendTimeout(3_000))).map(m -> m.body()));
    lastSession = sent;
    return sent;
  }

  /** Counts records the buffer refused, per tenant, with the window of their times. */
  private void refused(List<AuditEvent> dropped) {
    for (AuditEvent e : dropped) {
      long[] g = refused.computeIfAbsent(e.tenant(), t -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
      g[0]++;
      g[1] = Math.min(g[1], e.tsMs());
      g[2] = Math.max(g[2], e.tsMs());
    }
  }

  /** Puts a gap record for each tenant's refused records into the buffer, while there is room. */
  private void placeGaps() {
    var it = refused.entrySet().iterator();
    while (it.hasNext()) {
      var g = it.next();
      long[] c = g.getValue();
      long now = clock.millis();
      if (!buffer.tryAdd(AuditGaps.refused(AuditRecords.newId(now), g.getKey(), c[0], c[1], c[2], now))) {
        return;
      }
      log.warn("audit: {} record(s) of tenant {} were refused by the full buffer; a gap record says so in its chain", c[0],
          g.getKey());
      it.remove();
    }
  }
}
