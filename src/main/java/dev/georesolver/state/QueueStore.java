package dev.georesolver.state;

import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.Settled;
import dev.georesolver.state.rules.Corrections;
import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import dev.georesolver.state.rules.QueueRules.Settlement;
import dev.georesolver.state.tables.Row;
import dev.georesolver.state.tables.Table;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reconcile queue over {@link Tables}, for every backend: one row per debt key in
 * {@link #ITEMS}, indexed by {@link QueueRules#indexes}, with per-state counters; every decision is
 * {@link QueueRules}'. A correction settles its item and appends to the {@link OutboxStore outbox}
 * in the same transaction (both in group {@value #GROUP}), so a correction is in the feed exactly when
 * its item is done. Use from the state verticle's context.
 */
final class QueueStore implements StateStore.Debts {

  /** The queue's group: its items, its outbox and the answers corrected share one transaction. */
  static final String GROUP = "reconcile";
  static final Table ITEMS = Table.of(GROUP, "queue", QueueRules.OPEN, QueueRules.ENDED, QueueRules.DEAD_LETTERS);
  /** How many open items one lease looks through at most, per page. */
  static final int LEASE_PAGE = 200;
  /** Pages of open items one lease looks through at most. */
  static final int LEASE_PAGES = 10;

  private final Tables tables;
  private final OutboxStore outbox;
  private final CacheCorrection cache;
  private final Clock clock;

  /**
   * @param cache how a correction replaces the stored answer and the cached-index entry on this
   *     backend (inside the transaction, or before it in a shared cache)
   */
  QueueStore(Tables tables, OutboxStore outbox, CacheCorrection cache, Clock clock) {
    this.tables = tables;
    this.outbox = outbox;
    this.cache = cache;
    this.clock = clock;
  }

  static QueueItem item(Row r) {
    return r.exists() ? StateCodec.item(r.key(), r.body()) : null;
  }

  /** Writes {@code after} in place of {@code before}: the row, its indexes and the counters. */
  static void write(Txn x, QueueItem before, QueueItem after) {
    x.put(ITEMS, after.key(), StateCodec.item(after), QueueRules.indexes(after));
    QueueRules.countChange(before, after).forEach((state, d) -> x.add(ITEMS, state, d));
  }

  @Override
  public Future<JsonObject> enqueue(List<Debt> debts) {
    if (debts.isEmpty()) {
      return Future.succeededFuture(new JsonObject().put("accepted", 0).put("duplicate", 0));
    }
    List<String> keys = debts.stream().map(Debt::debtKey).distinct().toList();
    return tables.transact(x -> x.get(ITEMS, keys).map(rows -> {
      long now = clock.millis();
      Map<String, QueueItem> stored = new HashMap<>();
      rows.forEach(r -> stored.put(r.key(), item(r)));
      Map<String, QueueItem> now0 = new HashMap<>(stored);
      int accepted = 0;
      for (Debt d : debts) {
        QueueItem next = QueueRules.enqueue(now0.get(d.debtKey()), d, now);
        if (next != null) {
          now0.put(d.debtKey(), next);
          accepted++;
        }
      }
      for (String k : keys) {
        QueueItem after = now0.get(k);
        if (after != null && after != stored.get(k)) {
          write(x, stored.get(k), after);
        }
      }
      return new JsonObject().put("accepted", accepted).put("duplicate", debts.size() - accepted);
    }));
  }

  @Override
  public Future<List<LeasedDebt>> lease(String owner, int max, long leaseMs) {
    return tables.transact(x -> pick(x, max, 0, new ArrayList<>()).map(chosen -> {
      long now = clock.millis();
      List<LeasedDebt> out = new ArrayList<>(chosen.size());
      for (QueueItem i : chosen) {
        QueueItem leased = QueueRules.lease(i, owner, leaseMs, now);
        write(x, i, leased);
        out.add(new LeasedDebt(leased.key(), leased.debt(), leased.attempts()));
      }
      return out;
    }));
  }

  /** The claimable items among the open ones, oldest first, page by page. */
  private Future<List<QueueItem>> pick(Txn x, int max, int page, List<QueueItem> chosen) {
    return x.range(ITEMS, QueueRules.OPEN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, page * LEASE_PAGE, LEASE_PAGE)
        .compose(members -> x.get(ITEMS, members.stream().map(Txn.Scored::key).toList()).compose(rows -> {
          List<QueueItem> candidates = new ArrayList<>(rows.size());
          rows.forEach(r -> {
            QueueItem i = item(r);
            if (i != null && i.open()) {
              candidates.add(i);
            }
          });
          chosen.addAll(QueueRules.leasable(candidates, max - chosen.size(), clock.millis()));
          boolean more = members.size() == LEASE_PAGE && chosen.size() < max && page + 1 < LEASE_PAGES;
          return more ? pick(x, max, page + 1, chosen) : Future.succeededFuture(chosen);
        }));
  }

  @Override
  public Future<Settled> correct(String owner, LeasedDebt leased, Repair repair) {
    // The shared cache (Redis) is written before the queue's transaction, from the debt as stored;
    // the transaction then settles only if that debt is still the one owed.
    return tables.read(x -> x.get(ITEMS, leased.id())).compose(r -> {
      QueueItem i = item(r);
      if (!QueueRules.held(i, owner)) {
        return Future.succeededFuture(Settled.LOST);
      }
      Correction c = Corrections.build(i.debt(), repair);
      return cache.before(i.debt(), c, repair).compose(v -> settleCorrected(owner, leased.id(), i.answerResolvedAtMs(), c, repair));
    });
  }

  @Override
  public Future<Correction> drift(Debt basis, Repair fresh) {
    Correction c = Corrections.drift(basis, fresh);
    return cache.before(basis, c, fresh).compose(v -> tables.transact(x -> outbox.appendOnce(x, c, clock.millis())
        .compose(cursor -> cursor == null ? Future.<Correction>succeededFuture(null)
            : cache.within(x, basis, c, fresh).map(w -> c.withCursor(cursor)))));
  }

  private Future<Settled> settleCorrected(String owner, String key, long basisMs, Correction built, Repair repair) {
    return tables.transact(x -> x.get(ITEMS, key).compose(r -> {
      QueueItem i = item(r);
      if (!QueueRules.held(i, owner)) {
        return Future.succeededFuture(Settled.LOST);
      }
      if (i.answerResolvedAtMs() != basisMs && cache.shared()) {
        // A newer degraded answer arrived since the shared cache was written: correct it afresh.
        return Future.failedFuture(new Stale());
      }
      Correction c = i.answerResolvedAtMs() == basisMs ? built : Corrections.build(i.debt(), repair);
      long now = clock.millis();
      return cache.within(x, i.debt(), c, repair)
          .compose(v -> outbox.appendOnce(x, c, now))
          .map(cursor -> {
            write(x, i, QueueRules.settle(i, owner, Settlement.CORRECTED, 0, null, now));
            return new Settled(true, cursor == null ? null : c.withCursor(cursor));
          });
    })).recover(t -> t instanceof Stale
        ? correct(owner, new LeasedDebt(key, null, 0), repair)
        : Future.failedFuture(t));
  }

  /** The debt changed between the shared cache's write and the queue's transaction. */
  private static final class Stale extends RuntimeException {
    Stale() {
      super("a newer degraded answer arrived", null, false, false);
    }
  }

  @Override
  public Future<Settled> confirm(String owner, LeasedDebt item) {
    return settle(owner, item, Settlement.CONFIRMED, 0, null);
  }

  @Override
  public Future<Settled> retry(String owner, LeasedDebt item, long notBeforeMs, String error) {
    return settle(owner, item, Settlement.RETRY, notBeforeMs, error == null ? "failed" : error);
  }

  @Override
  public Future<Settled> dead(String owner, LeasedDebt item, String error) {
    return settle(owner, item, Settlement.DEAD, 0, error == null ? "failed" : error);
  }

  @Override
  public Future<Settled> release(String owner, LeasedDebt item, long notBeforeMs) {
    return settle(owner, item, Settlement.RELEASE, notBeforeMs, null);
  }

  private Future<Settled> settle(String owner, LeasedDebt leased, Settlement how, long notBeforeMs, String error) {
    return tables.transact(x -> x.get(ITEMS, leased.id()).map(r -> {
      QueueItem i = item(r);
      QueueItem after = i == null ? null : QueueRules.settle(i, owner, how, notBeforeMs, error, clock.millis());
      if (after == null) {
        return Settled.LOST;
      }
      write(x, i, after);
      return Settled.OK;
    }));
  }

  @Override
  public Future<QueueStats> stats() {
    return tables.read(x -> x.counters(ITEMS).compose(counts -> x.range(ITEMS, QueueRules.OPEN, Double.NEGATIVE_INFINITY,
        Double.POSITIVE_INFINITY, 0, 1).map(oldest -> QueueRules.stats(counts,
            oldest.isEmpty() ? null : (long) oldest.get(0).score(), clock.millis()))));
  }

  @Override
  public Future<JsonArray> deadLetters(int limit) {
    return items(QueueRules.DEAD_LETTERS, limit).map(dead -> {
      JsonArray out = new JsonArray();
      dead.forEach(i -> out.add(QueueRules.deadLetter(i)));
      return out;
    });
  }

  /** Removes up to {@code slice} done items kept past {@link QueueRules#DONE_KEEP_MS}; how many. */
  Future<Integer> prune(int slice) {
    long now = clock.millis();
    return tables.transact(x -> x.range(ITEMS, QueueRules.ENDED, Double.NEGATIVE_INFINITY, now - QueueRules.DONE_KEEP_MS, 0, slice)
        .compose(members -> x.get(ITEMS, members.stream().map(Txn.Scored::key).toList())).map(rows -> {
          int n = 0;
          for (Row r : rows) {
            QueueItem i = item(r);
            if (i != null && QueueRules.prunable(i, now)) {
              x.delete(ITEMS, i.key());
              QueueRules.countChange(i, null).forEach((state, d) -> x.add(ITEMS, state, d));
              n++;
            }
          }
          return n;
        }));
  }

  /**
   * Imports items as an earlier release's layout stored them (the migration), with their state,
   * attempts, lease and times: an item is written when its key holds none, written again when it
   * holds one an earlier import wrote that nothing changed since (the earlier release went on
   * with it in between: a downgrade, or an earlier resolver still running), and left alone when
   * this store changed it. How many were written.
   */
  Future<Integer> importItems(List<QueueItem> items) {
    if (items.isEmpty()) {
      return Future.succeededFuture(0);
    }
    List<String> keys = items.stream().map(QueueItem::key).distinct().toList();
    return tables.transact(x -> x.get(ITEMS, keys).map(rows -> {
      Map<String, Row> stored = new HashMap<>();
      rows.forEach(r -> stored.put(r.key(), r));
      Map<String, Long> counts = new HashMap<>();
      Set<String> done = new HashSet<>();
      int written = 0;
      for (QueueItem i : items) {
        Row r = stored.get(i.key());
        if (!done.add(i.key()) || r.exists() && !StateCodec.isImported(r.body())) {
          continue;
        }
        QueueItem before = item(r);
        if (before != null && before.equals(i)) {
          continue;
        }
        x.put(ITEMS, i.key(), StateCodec.imported(StateCodec.item(i)), QueueRules.indexes(i));
        QueueRules.countChange(before, i).forEach((state, d) -> counts.merge(state, d, Long::sum));
        written++;
      }
      counts.forEach((state, d) -> x.add(ITEMS, state, d));
      return written;
    }));
  }

  /** Every item in {@code state} (tests and migration checks): keys in index order. */
  Future<List<QueueItem>> items(String index, int limit) {
    return tables.read(x -> x.range(ITEMS, index, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, limit)
        .compose(m -> x.get(ITEMS, m.stream().map(Txn.Scored::key).toList()))
        .map(rows -> {
          Map<String, QueueItem> out = new LinkedHashMap<>();
          rows.forEach(r -> out.put(r.key(), item(r)));
          return new ArrayList<>(out.values());
        }));
  }
}
