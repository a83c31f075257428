package dev.georesolver.reconcile;

import dev.georesolver.state.rules.Debts;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.DebtBatch;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.config.Manifest;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.bus.WriteBuffer;
import io.vertx.core.Vertx;

import java.time.Clock;

/**
 * A chain instance's debts on their way to the queue: {@link Debts#of} decides whether a walked
 * result is one, and a {@link WriteBuffer} hands the debts to the state store in one message every
 * {@code state.flush_interval_ms}. Offering never delays or fails the answer. Confined to the
 * chain verticle's context.
 */
public final class DebtBuffer {

  private final WriteBuffer<Debt> buffer;
  private final Clock clock;

  private DebtBuffer(WriteBuffer<Debt> buffer, Clock clock) {
    this.buffer = buffer;
    this.clock = clock;
  }

  /**
   * A buffer for this chain instance, or one that keeps nothing when {@code reconcile.enabled} is
   * false or no state store takes debts ({@code stateTakesDebts}: the process runs none).
   */
  public static DebtBuffer create(Vertx vertx, Manifest manifest, boolean stateTakesDebts, Clock clock, Metrics metrics) {
    if (!manifest.reconcile().enabled() || !stateTakesDebts) {
      return new DebtBuffer(null, clock);
    }
    var s = manifest.state();
    return new DebtBuffer(new WriteBuffer<>(vertx, "debts", Addresses.STATE_DEBTS_ENQUEUE, s.flushIntervalMs(), s.bufferMax(),
        DebtBatch::new, Debt::idempotencyKey, refused -> metrics.stateRefused("debts", refused.size())), clock);
  }

  /**
   * Queues the debt a replayed or coalesced degraded answer leaves {@code tenant}, if any: the
   * stored answer is decoded only when it is degraded.
   */
  public void offer(ResolveRequest req, String tenant, dev.georesolver.bus.Redelivery delivered) {
    if (buffer == null || !delivered.degraded()) {
      return;
    }
    ResolveResult stored = ResolveResult.fromJson(delivered.answer().toJson()).toBuilder().intent(delivered.intent()).build();
    Debt d = Debts.ofDelivery(tenant, req, stored, clock.millis());
    if (d != null) {
      buffer.add(d);
    }
  }

  /** Queues the debt {@code result} leaves, if it leaves one. */
  public void offer(ResolveRequest req, String tenant, ResolveResult result) {
    if (buffer == null) {
      return;
    }
    Debt d = Debts.of(tenant, req, result, clock.millis());
    if (d != null) {
      buffer.add(d);
    }
  }
}
