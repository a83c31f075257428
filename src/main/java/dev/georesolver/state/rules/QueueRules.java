package dev.georesolver.state.rules;

import dev.georesolver.bus.Debt;
import dev.georesolver.bus.QueueStats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every decision of the reconcile queue, for every backend. Pure and thread-safe.
 *
 * <ul>
 *   <li><b>Once per key</b>: a debt for a key with no item opens one ({@link #PENDING}); a newer
 *       degraded answer for an open item replaces the debt and keeps the item's place, attempts and
 *       lease; a newer one for a {@link #DONE} item opens it again from the start; an older or equally
 *       old one, and any for a {@link #DEAD} item, is a duplicate ({@link #enqueue}).
 *   <li><b>Claimable</b>: pending and due (its backoff over), or in progress under a lease that
 *       ended ({@link #claimable}); leased oldest accepted first, then by key ({@link #leasable}).
 *   <li><b>Settled under the lease</b>: only by the reconciler holding it ({@link #held}); corrected
 *       or confirmed → done; failed again → pending after a backoff with one more attempt, or, past
 *       the last attempt, dead (kept, visible); not worked on → pending, no attempt counted
 *       ({@link #settle}).
 *   <li><b>The figures</b>: pending, in progress, done and dead are the number of items in each
 *       state, kept by the store as counters that every change moves ({@link #countChange}); the
 *       backlog's age is that of the oldest open item ({@link #stats}). The store indexes open items
 *       by when they were accepted and ended ones by when they ended ({@link #indexes}); done items
 *       are pruned {@link #DONE_KEEP_MS} after they ended, dead ones never.
 * </ul>
 */
public final class QueueRules {

  /** Waiting for a reconciler, due or backing off. */
  public static final String PENDING = "pending";
  /** Leased by a reconciler (until it settles it or its lease ends and another takes it). */
  public static final String IN_PROGRESS = "in_progress";
  /** Corrected or confirmed. */
  public static final String DONE = "done";
  /** Failed {@code reconcile.max_attempts} times: kept and counted, never walked again. */
  public static final String DEAD = "dead";
  /** Every state, in the order the figures list them. */
  public static final List<String> STATES = List.of(PENDING, IN_PROGRESS, DONE, DEAD);

  /** Index of open items, scored by when they were accepted. */
  public static final String OPEN = "open";
  /** Index of done items, scored by when they ended. */
  public static final String ENDED = "ended";
  /** Index of dead items, scored by when they died. */
  public static final String DEAD_LETTERS = "dead";

  /** How long a done item is kept (so a later degraded answer still finds it), milliseconds: 7 days. */
  public static final long DONE_KEEP_MS = 7L * 86_400_000L;
  /** The longest error text kept, characters. */
  public static final int MAX_ERROR_CHARS = 500;

  /** How a leased item is settled. */
  public enum Settlement {
    /** A rung above answered: the correction is in the outbox. */
    CORRECTED,
    /** Every rung above found nothing: the degraded answer stands. */
    CONFIRMED,
    /** A rung was called and failed again: back to the queue after a backoff, one attempt more. */
    RETRY,
    /** Failed for the last time: to the dead letters. */
    DEAD,
    /** No rung could be called: back to the queue, no attempt counted. */
    RELEASE
  }

  private QueueRules() {}

  /**
   * What the queue holds after {@code debt} arrives, or null when the debt changes nothing (a
   * duplicate: not newer than the item's, or the item is dead).
   *
   * @param current the item of the debt's key, or null when there is none
   */
  public static QueueItem enqueue(QueueItem current, Debt debt, long nowMs) {
    if (current == null) {
      return new QueueItem(debt.debtKey(), debt, PENDING, 0, 0, null, null, debt.acceptedAtMs(), null, null, nowMs);
    }
    if (DEAD.equals(current.state()) || debt.answerResolvedAtMs() <= current.answerResolvedAtMs()) {
      return null;
    }
    if (DONE.equals(current.state())) {
      return new QueueItem(current.key(), debt, PENDING, 0, 0, null, null, debt.acceptedAtMs(), null, null, nowMs);
    }
    // Open: the newer answer is what is owed now; the item keeps its place, attempts and lease.
    return new QueueItem(current.key(), current.debt().withAnswer(debt), current.state(), current.attempts(),
        current.notBeforeMs(), current.leaseOwner(), current.leaseUntilMs(), current.acceptedAtMs(), null, current.lastError(),
        nowMs);
  }

  /** Whether the item may be leased at {@code nowMs}. */
  public static boolean claimable(QueueItem i, long nowMs) {
    if (PENDING.equals(i.state())) {
      return i.notBeforeMs() <= nowMs;
    }
    return IN_PROGRESS.equals(i.state()) && i.leaseUntilMs() != null && i.leaseUntilMs() < nowMs;
  }

  /**
   * The items to lease of {@code candidates} (open items, in the open index's order: oldest accepted
   * first, then by key): the claimable ones, at most {@code max}.
   */
  public static List<QueueItem> leasable(List<QueueItem> candidates, int max, long nowMs) {
    List<QueueItem> out = new ArrayList<>();
    for (QueueItem i : candidates) {
      if (out.size() >= max) {
        break;
      }
      if (claimable(i, nowMs)) {
        out.add(i);
      }
    }
    return out;
  }

  /** The item leased by {@code owner} until {@code nowMs + leaseMs}. */
  public static QueueItem lease(QueueItem i, String owner, long leaseMs, long nowMs) {
    return new QueueItem(i.key(), i.debt(), IN_PROGRESS, i.attempts(), i.notBeforeMs(), owner, nowMs + leaseMs,
        i.acceptedAtMs(), null, i.lastError(), nowMs);
  }

  /** Whether {@code owner} holds the item's lease (it is in progress and leased by it). */
  public static boolean held(QueueItem i, String owner) {
    return i != null && IN_PROGRESS.equals(i.state()) && owner != null && owner.equals(i.leaseOwner());
  }

  /**
   * The item settled by {@code owner}, or null when it does not hold the lease (the settlement is
   * lost: another reconciler has it, or it ended).
   *
   * @param notBeforeMs when a retried or released item is due again (epoch ms)
   * @param error why it failed (retry, dead), or null
   */
  public static QueueItem settle(QueueItem i, String owner, Settlement how, long notBeforeMs, String error, long nowMs) {
    if (!held(i, owner)) {
      return null;
    }
    String err = bound(error);
    return switch (how) {
      case CORRECTED -> ended(i, DONE, "corrected", i.attempts(), i.lastError(), nowMs);
      case CONFIRMED -> ended(i, DONE, "confirmed", i.attempts(), i.lastError(), nowMs);
      case DEAD -> ended(i, DEAD, "dead", i.attempts() + 1, err == null ? i.lastError() : err, nowMs);
      case RETRY -> new QueueItem(i.key(), i.debt(), PENDING, i.attempts() + 1, notBeforeMs, null, null, i.acceptedAtMs(), null,
          err == null ? i.lastError() : err, nowMs);
      case RELEASE -> new QueueItem(i.key(), i.debt(), PENDING, i.attempts(), notBeforeMs, null, null, i.acceptedAtMs(), null,
          i.lastError(), nowMs);
    };
  }

  private static QueueItem ended(QueueItem i, String state, String outcome, int attempts, String error, long nowMs) {
    return new QueueItem(i.key(), i.debt(), state, attempts, 0, null, null, i.acceptedAtMs(), outcome, error, nowMs);
  }

  /** Whether a failed walk that already failed {@code attemptsBefore} times is the last allowed. */
  public static boolean lastAttempt(int attemptsBefore, int maxAttempts) {
    return attemptsBefore + 1 >= maxAttempts;
  }

  /** {@code error} cut to {@link #MAX_ERROR_CHARS}, or null. */
  static String bound(String error) {
    return error == null || error.length() <= MAX_ERROR_CHARS ? error : error.substring(0, MAX_ERROR_CHARS);
  }

  /**
   * The index memberships of an item: open items by when they were accepted, done and dead ones by
   * when they ended.
   */
  public static Map<String, Double> indexes(QueueItem i) {
    return switch (i.state()) {
      case PENDING, IN_PROGRESS -> Map.of(OPEN, (double) i.acceptedAtMs());
      case DONE -> Map.of(ENDED, (double) i.updatedAtMs());
      default -> Map.of(DEAD_LETTERS, (double) i.updatedAtMs());
    };
  }

  /** What the per-state counters move by when {@code before} (null: none) becomes {@code after} (null: removed). */
  public static Map<String, Long> countChange(QueueItem before, QueueItem after) {
    Map<String, Long> d = new HashMap<>();
    if (before != null) {
      d.merge(before.state(), -1L, Long::sum);
    }
    if (after != null) {
      d.merge(after.state(), 1L, Long::sum);
    }
    d.values().removeIf(v -> v == 0);
    return d;
  }

  /**
   * The queue's figures from its per-state counters and the acceptance time of its oldest open item
   * (null when none is open).
   */
  public static QueueStats stats(Map<String, Long> counts, Long oldestOpenAcceptedAtMs, long nowMs) {
    double age = oldestOpenAcceptedAtMs == null ? 0 : Math.max(0, nowMs - oldestOpenAcceptedAtMs) / 1000.0;
    return new QueueStats(count(counts, PENDING), count(counts, IN_PROGRESS), count(counts, DONE), count(counts, DEAD), age);
  }

  private static long count(Map<String, Long> counts, String state) {
    return Math.max(0, counts.getOrDefault(state, 0L));
  }

  /**
   * What an operator sees of a dead letter: the request's key, intent, direction and tenant, the
   * rung that served the degraded answer, the attempts it failed, its last error, and when it was
   * accepted and died (epoch ms). Never the request itself (it may hold an address).
   */
  public static java.util.Map<String, Object> deadLetter(QueueItem i) {
    java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("idempotency_key", i.debt().idempotencyKey());
    m.put("intent", i.debt().intent());
    m.put("direction", i.debt().direction().name().toLowerCase(java.util.Locale.ROOT));
    m.put("tenant", i.debt().tenant());
    m.put("served_rung", i.debt().servedRung());
    m.put("attempts", i.attempts());
    m.put("last_error", i.lastError());
    m.put("accepted_at_ms", i.acceptedAtMs());
    m.put("died_at_ms", i.updatedAtMs());
    return m;
  }

  /** Whether a done item has been kept long enough to be pruned. */
  public static boolean prunable(QueueItem i, long nowMs) {
    return DONE.equals(i.state()) && i.updatedAtMs() + DONE_KEEP_MS <= nowMs;
  }
}
