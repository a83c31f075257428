package dev.georesolver.state.contract;

import dev.georesolver.bus.Debt;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Settled;
import dev.georesolver.state.StateStore;
import dev.georesolver.state.TablesStore;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.Stateful;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.UUID;

import static dev.georesolver.reconcile.Samples.debt;
import static dev.georesolver.reconcile.Samples.repair;

/**
 * Random sequences of queue operations — enqueue, lease, every settlement, the clock moving on,
 * pruning, the figures — run against a backend and against {@link QueueModel}, every answer
 * compared; a disagreement is shrunk to the shortest sequence that shows it. Each backend's test
 * extends this.
 */
public abstract class QueuePropertiesContract {

  /** Sequences run per backend, and their length. */
  static final int SEQUENCES = 25;
  static final int LENGTH = 40;
  static final long SEED = 20_261_202L;

  protected abstract OnContext context();

  /** A fresh, empty store on {@code clock}, under {@code namespace}. */
  protected abstract TablesStore open(OnContext on, FakeClock clock, String namespace);

  /** One operation. */
  sealed interface Op permits Enqueue, Lease, Settle, Advance, Prune, Stats {}

  record Enqueue(String key, long resolvedAt) implements Op {}

  record Lease(String owner, int max) implements Op {}

  record Settle(String owner, String key, String how, long delayMs) implements Op {}

  record Advance(long ms) implements Op {}

  record Prune() implements Op {}

  record Stats() implements Op {}

  static final String[] KEYS = {"a", "b", "c", "d"};
  static final String[] OWNERS = {"r1", "r2"};
  static final String[] HOW = {"correct", "confirm", "retry", "release", "dead"};
  static final long LEASE_MS = 30_000;

  static Op generate(Random r) {
    int k = r.nextInt(100);
    if (k < 30) {
      return new Enqueue(KEYS[r.nextInt(KEYS.length)], 100L * (1 + r.nextInt(4)));
    }
    if (k < 50) {
      return new Lease(OWNERS[r.nextInt(OWNERS.length)], 1 + r.nextInt(3));
    }
    if (k < 75) {
      return new Settle(OWNERS[r.nextInt(OWNERS.length)], KEYS[r.nextInt(KEYS.length)], HOW[r.nextInt(HOW.length)],
          r.nextBoolean() ? 0 : 20_000);
    }
    if (k < 85) {
      long[] steps = {1_000, 31_000, 8L * 86_400_000L};
      return new Advance(steps[r.nextInt(r.nextInt(10) == 0 ? 3 : 2)]);
    }
    if (k < 90) {
      return new Prune();
    }
    return new Stats();
  }

  /** A store and its model, side by side. */
  final class Pair {
    final FakeClock clock = new FakeClock();
    final String ns = "p" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    final OnContext on = context();
    final TablesStore store = open(on, clock, ns);
    final QueueModel model = new QueueModel();

    StateStore.Debts q() {
      return store.debts();
    }

    Debt debt(String key, long resolvedAt) {
      return dev.georesolver.reconcile.Samples.debt(ns + key, resolvedAt, clock.millis());
    }

    String step(Op op) {
      long now = clock.millis();
      if (op instanceof Enqueue e) {
        JsonObject got = on.await(() -> q().enqueue(List.of(debt(e.key(), e.resolvedAt()))));
        boolean want = model.enqueue(e.key(), e.resolvedAt(), now);
        return same("accepted", want ? 1 : 0, got.getInteger("accepted"));
      }
      if (op instanceof Lease l) {
        List<LeasedDebt> got = on.await(() -> q().lease(l.owner(), l.max(), LEASE_MS));
        List<QueueModel.Item> want = model.lease(l.owner(), l.max(), LEASE_MS, now);
        String g = got.stream().map(x -> x.debt().idempotencyKey().substring(ns.length()) + "#" + x.attempts()).toList().toString();
        String w = want.stream().map(x -> x.key + "#" + x.attempts).toList().toString();
        return same("leased", w, g);
      }
      if (op instanceof Settle s) {
        Debt d = debt(s.key(), 0);
        LeasedDebt leased = new LeasedDebt(d.debtKey(), d, 0);
        Settled got = on.await(() -> switch (s.how()) {
          case "correct" -> q().correct(s.owner(), leased, repair(now, null));
          case "confirm" -> q().confirm(s.owner(), leased);
          case "retry" -> q().retry(s.owner(), leased, now + s.delayMs(), "failed again");
          case "release" -> q().release(s.owner(), leased, now + s.delayMs());
          default -> q().dead(s.owner(), leased, "failed for good");
        });
        boolean[] want = model.settle(s.owner(), s.key(), s.how(), now + s.delayMs(), now);
        String why = same("settled", want[0], got.ok());
        return why != null ? why : same("correction appended", want[1], got.correction() != null);
      }
      if (op instanceof Advance a) {
        clock.advanceMs(a.ms());
        return null;
      }
      if (op instanceof Prune) {
        on.await(() -> store.housekeeping());
        model.prune(now);
        return null;
      }
      QueueStats got = on.await(() -> q().stats());
      String want = List.of(model.count("pending"), model.count("in_progress"), model.count("done"), model.count("dead")) + " age "
          + model.oldestAgeS(now);
      String have = List.of(got.pending(), got.inProgress(), got.done(), got.dead()) + " age " + got.oldestPendingAgeS();
      return same("figures [pending, in progress, done, dead]", want, have);
    }

    void close() {
      on.await(() -> store.close());
    }
  }

  static String same(String what, Object want, Object got) {
    return want.equals(got) ? null : what + ": the model says " + want + ", the store " + got;
  }

  @Test
  @DisplayName("random sequences of queue operations give the model's answers, every one")
  void randomSequencesMatchTheModel() {
    new Stateful<Op>(QueuePropertiesContract::generate, Stateful.stepwise(Pair::new, Pair::step, Pair::close))
        .run(SEED, SEQUENCES, LENGTH);
  }
}
