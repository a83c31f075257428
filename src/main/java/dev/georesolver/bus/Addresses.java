package dev.georesolver.bus;

/**
 * Every event-bus address and header name, each with its contract. Requests carry
 * {@link #DEADLINE_HEADER} on every hop; failures use {@link FailureCode} codes.
 *
 * <p>Records named below travel with local codecs ({@link Codecs}): inside one JVM the same
 * immutable instance is passed, never copied or re-encoded; between nodes they travel as JSON.
 */
public final class Addresses {

  private Addresses() {}

  /**
   * Forward resolution, request/reply. Sender: ingress, or any verticle. Body: a
   * {@link ResolveRequest} (reply: a {@link ResolveReply} — the {@link ResolveResult} of its own
   * walk, or a {@link Redelivery} of a stored answer) or the public JSON request
   * ({@code {"q"|"address", "bbox", "intent", "budget_ms", "language"}}; reply: the result JSON, the
   * same as HTTP). Header {@link #DEADLINE_HEADER} (else the body's {@code budget_ms}, else the
   * manifest default). Failures: {@link FailureCode#BAD_REQUEST} (message: problem JSON),
   * {@link FailureCode#DEADLINE_EXCEEDED}, {@link FailureCode#MISCONFIGURED},
   * {@link FailureCode#ROUTER_ERROR}.
   */
  public static final String RESOLVE = "geocode.resolve";

  /**
   * Reverse resolution, request/reply: as {@link #RESOLVE}, body a {@link ResolveRequest} of
   * direction REVERSE or JSON {@code {"lat", "lon", "intent", "budget_ms", "language"}}.
   */
  public static final String REVERSE = "geocode.reverse";

  /**
   * Prefix of each tier's address: {@code geocode.tier.<name>}, request/reply. Sender: chain.
   * Body {@link TierRequest}, header {@link #DEADLINE_HEADER}; reply {@link TierReply} (a hit, a
   * classified failure, or a skip). Failure: {@link FailureCode#DEADLINE_EXCEEDED} when the message
   * arrives with its budget spent.
   */
  public static final String TIER_PREFIX = "geocode.tier.";

  /**
   * Breaker transitions, publish. Sender: each tier verticle. Body JSON
   * {@code {"tier", "from", "to", "at", "reason"}} with states {@code closed|open|half_open}.
   */
  public static final String BREAKER_EVENTS = "geocode.breaker";

  /**
   * Tier latency statistics, publish. Sender: each tier verticle when its observed median changes.
   * Body JSON {@code {"tier", "typical_ms", "state"}}. Chains keep a view for admission and reserves.
   */
  public static final String TIER_STATS = "geocode.tier.stats";

  /**
   * Idempotency and coalescing claim, request/reply. Sender: chain. Body {@link DedupeClaim}, header
   * {@link #DEADLINE_HEADER}; reply {@link DedupeVerdict}: a replay, "you lead", an answer shared by
   * the leader of an identical request, or "bypass" (no coalescing possible).
   */
  public static final String DEDUPE_CLAIM = "geocode.dedupe.claim";

  /**
   * A leader's outcome, send (no reply). Sender: chain. Body {@link DedupeComplete}: stores the
   * answer (resolved answers only) and releases the waiters.
   */
  public static final String DEDUPE_COMPLETE = "geocode.dedupe.complete";

  /**
   * Store status, request/reply. Body: anything; reply JSON {@code {"store", "reachable", ...}}.
   */
  public static final String DEDUPE_STATUS = "geocode.dedupe.status";

  /**
   * Cached-index lookup, request/reply. Sender: the cached-index rung. Body {@link IndexQuery};
   * reply the {@link IndexEntry}, or null when there is none. Never fails for a store outage: that
   * reads as "none".
   */
  public static final String INDEX_LOOKUP = "geocode.index.lookup";

  /** Cached-index write-through, send. Sender: chain, for answers from non-cache rungs. Body {@link IndexEntry}. */
  public static final String INDEX_WRITE = "geocode.index.write";

  /** Cached-index status, request/reply: JSON {@code {"store", "reachable", "entries"?}}. */
  public static final String INDEX_STATUS = "geocode.index.status";

  /**
   * Readiness, request/reply. Sender: ingress. Reply JSON {@code {"ready", "tiers": [...],
   * "store": {...}}}, gathered from each tier's status address and the store.
   */
  public static final String HEALTH = "geocode.health";

  /**
   * Corrections, publish. Sender: the corrections delivery verticle, for every correction it reads
   * from the outbox (at least once; consumers de-duplicate by {@code correction_id} or
   * {@code cursor}). Body: the {@link Correction} JSON —
   * {@code {"correction_id", "cursor", "idempotency_key", "intent", "direction", "tenant",
   * "before": {"lon", "lat", "claim", "resolution_source", "confidence", "resolved_at_ms"},
   * "after": {…the same…}, "moved_m", "corrected_at", "corrected_at_ms", "manifest_revision",
   * "addr_key"?, "answer": {the corrected result's stable fields}}}}. Dedupe and the memory index
   * apply it when it is newer than what they hold.
   */
  public static final String CORRECTIONS = "geocode.corrections";

  /**
   * A correction was committed, send (no reply). Sender: the reconciler; body: its cursor. The
   * corrections delivery verticle reads the outbox at once instead of at its next poll.
   */
  public static final String CORRECTIONS_COMMITTED = "geocode.corrections.committed";

  /**
   * Reconcile figures, request/reply. Sender: ingress ({@code GET /v1/reconcile}), health. Reply
   * JSON {@code {"pending", "in_progress", "done", "dead", "oldest_pending_age_s",
   * "drain_rate_per_s", "store", "draining"}}.
   */
  public static final String RECONCILE_STATUS = "geocode.reconcile.status";

  // The state verticle's addresses: one group per module of the store (debts, corrections, cache).
  // A new module (audit, batches) adds its own group here and its handlers in StateVerticle.

  /**
   * Queue debts, request/reply. Sender: each chain instance's buffer, one message per flush. Body
   * {@link DebtBatch}; reply JSON {@code {"accepted": n, "duplicate": n, "refused": n}} once written
   * (refused: disk nearly full). Fails with {@link FailureCode#STORE_UNAVAILABLE} when the store
   * cannot write (the sender keeps the batch and retries).
   */
  public static final String STATE_DEBTS_ENQUEUE = "geocode.state.debts.enqueue";

  /**
   * Lease debts, request/reply. Sender: the reconciler. Body JSON {@code {"owner", "max",
   * "lease_ms"}}; reply {@code {"items": [LeasedDebt JSON…]}}, oldest {@code accepted_at} first:
   * due pending items and items whose lease expired.
   */
  public static final String STATE_DEBTS_LEASE = "geocode.state.debts.lease";

  /**
   * Settle one leased debt, request/reply. Sender: the reconciler. Body JSON {@code {"op",
   * "owner", "item": LeasedDebt}} plus, by op: {@code correct} {@code "repair": Repair} (the
   * idempotency entry, the cached-index entry, the outbox record and the debt change in one
   * transaction); {@code confirm}; {@code retry} {@code "not_before_ms", "error"};
   * {@code dead} {@code "error"}; {@code release} {@code "not_before_ms"} (no attempt counted).
   * Reply {@code {"ok": bool, "correction"?: Correction JSON}}; {@code ok} false when the lease was
   * lost (another reconciler owns the item).
   */
  public static final String STATE_DEBTS_SETTLE = "geocode.state.debts.settle";

  /** Queue figures, request/reply: reply {@code {"pending", "in_progress", "done", "dead", "oldest_pending_age_s"}}. */
  public static final String STATE_DEBTS_STATS = "geocode.state.debts.stats";

  /**
   * Page the outbox, request/reply. Body JSON {@code {"after": cursor|null, "limit"}}; reply
   * {@code {"corrections": [Correction JSON…], "next": cursor}}, oldest first; an empty page keeps
   * the cursor. Fails with {@link FailureCode#BAD_REQUEST} for a cursor that is not one.
   */
  public static final String STATE_CORRECTIONS_PAGE = "geocode.state.corrections.page";

  /**
   * A delivery cursor, request/reply. Body JSON {@code {"name"}} (read) or {@code {"name",
   * "cursor"}} (write); reply {@code {"cursor": cursor|null, "head": the newest cursor|null}}.
   */
  public static final String STATE_CORRECTIONS_CURSOR = "geocode.state.corrections.cursor";

  /**
   * The memory store's write-behind, request/reply. Sender: dedupe and index (memory store only),
   * one message per flush. Body {@link CacheWrites}; reply {@code {"written": n}} (newer answers
   * are never replaced by older ones). No handler when the state store keeps no cache (Redis).
   */
  public static final String STATE_CACHE_WRITE = "geocode.state.cache.write";

  /**
   * Load the memory store back at start, request/reply. Body JSON {@code {"kind": "idem"|"index",
   * "limit"}}; reply {@link CacheWrites}: the most recent entries first, expired ones left out.
   */
  public static final String STATE_CACHE_LOAD = "geocode.state.cache.load";

  /**
   * State store status, request/reply. Reply JSON {@code {"store", "reachable", "path"?,
   * "persistent", "disk_free_mb"?, "refusing", "refused_total", "detail"?}}.
   */
  public static final String STATE_STATUS = "geocode.state.status";

  /** Header on every request: milliseconds left, measured by the sender at sending. */
  public static final String DEADLINE_HEADER = "x-deadline-ms";

  /** Header carrying the request's trace id, for logs. */
  public static final String TRACE_HEADER = "x-trace-id";

  /**
   * The milliseconds left that a message carries in {@link #DEADLINE_HEADER}; 0 (spent) when the
   * header is missing or not a number.
   */
  public static long deadlineMs(io.vertx.core.MultiMap headers) {
    String h = headers.get(DEADLINE_HEADER);
    if (h == null) {
      return 0;
    }
    try {
      return Long.parseLong(h);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The address of one tier. */
  public static String tier(String name) {
    return TIER_PREFIX + name;
  }

  /**
   * The status address of one tier, request/reply: reply JSON
   * {@code {"tier", "state", "typical_ms", "claim"}}.
   */
  public static String tierStatus(String name) {
    return TIER_PREFIX + name + ".status";
  }
}
