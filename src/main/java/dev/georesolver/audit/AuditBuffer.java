package dev.georesolver.audit;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.AuditBatch;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.config.AuditConfig;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.bus.WriteBuffer;
import io.vertx.core.Vertx;

import java.time.Clock;
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
 * <p>{@code audit.level} is read from the revision serving at each record, so a reload that turns
 * it on or off applies to the next answer; the buffer's sizes and flush interval are read at start.
 */
public final class AuditBuffer {

  private final WriteBuffer<AuditEvent> buffer;
  private final Supplier<AuditConfig> level;
  private final Clock clock;

  private AuditBuffer(WriteBuffer<AuditEvent> buffer, Supplier<AuditConfig> level, Clock clock) {
    this.buffer = buffer;
    this.level = level;
    this.clock = clock;
  }

  /**
   * A buffer for one verticle, or one that keeps nothing when no state store runs in this process
   * ({@code stateRuns} false).
   *
   * @param cfg the start's {@code audit:} (sizes, flush interval)
   * @param level the serving revision's {@code audit:}, read at each record for its {@code level}
   */
  public static AuditBuffer create(Vertx vertx, AuditConfig cfg, Supplier<AuditConfig> level, boolean stateRuns, Clock clock,
      Metrics metrics) {
    if (!stateRuns) {
      return new AuditBuffer(null, level, clock);
    }
    metrics.audit("written", 0);
    metrics.audit("retried", 0);
    metrics.audit("dropped", 0);
    return new AuditBuffer(new WriteBuffer<>(vertx, "audit", Addresses.STATE_AUDIT_APPEND, cfg.flushIntervalMs(), cfg.bufferMax(),
        cfg.batchMax(), AuditBatch::new, AuditEvent::id, n -> metrics.audit("dropped", n), new WriteBuffer.Counts() {
          @Override
          public void written(int n) {
            metrics.audit("written", n);
          }

          @Override
          public void retried(int n) {
            metrics.audit("retried", n);
          }
        }), level, clock);
  }

  /** Records {@code reply} to {@code tenant}'s partition if the level asks for it. */
  public void offer(String tenant, ResolveReply reply) {
    AuditConfig now = level.get();
    if (buffer == null || !now.enabled()) {
      return;
    }
    AuditEvent e = AuditRecords.of(tenant, reply, now.all(), clock.millis());
    if (e != null) {
      buffer.add(e);
    }
  }

  /** Records a committed correction to its tenant's partition. */
  public void offer(Correction c, String traceId) {
    if (buffer != null && level.get().enabled()) {
      buffer.add(AuditRecords.correction(c, traceId, clock.millis()));
    }
  }

  /** Records waiting for the store. */
  public int size() {
    return buffer == null ? 0 : buffer.size();
  }
}
