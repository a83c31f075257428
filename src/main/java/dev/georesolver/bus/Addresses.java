package dev.georesolver.bus;

/**
 * Every event-bus address and header name, each with its contract. Requests carry
 * {@link #DEADLINE_HEADER} on every hop, and resolution requests {@link #TENANT_HEADER}; failures
 * use {@link FailureCode} codes.
 *
 * <p><b>Trust boundary.</b> The event bus is inside it: a message's sender is trusted to name the
 * tenant it acts for, and no key travels on the bus. Clients outside are authenticated at the HTTP
 * ingress, which names the tenant it admitted. So the bus must never be opened to anything
 * untrusted: no SockJS/TCP bridge to clients, and a clustered bus only among the resolver's own
 * nodes on a private network.
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
   * manifest default), and {@link #TENANT_HEADER} when tenants are configured. Failures:
   * {@link FailureCode#BAD_REQUEST} (message: problem JSON; also a missing or unknown tenant),
   * {@link FailureCode#FORBIDDEN} (the tenant may not use the intent),
   * {@link FailureCode#DEADLINE_EXCEEDED}, {@link FailureCode#MISCONFIGURED} (also a strict tenant
   * left no rung in its region), {@link FailureCode#ROUTER_ERROR}.
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

  /** Header on every request: milliseconds left, measured by the sender at sending. */
  public static final String DEADLINE_HEADER = "x-deadline-ms";

  /** Header carrying the request's trace id, for logs. */
  public static final String TRACE_HEADER = "x-trace-id";

  /**
   * Header on {@link #RESOLVE} and {@link #REVERSE}: the id of the tenant the request is made for,
   * which decides the intents allowed and where the address may be sent (residency). Set by the
   * ingress to the tenant it authenticated; any other sender names the tenant it acts for (a batch
   * job its owner's, the reconciler the original request's). Believed without a key: see the trust
   * boundary above. Without tenants configured it is ignored and every request is {@code public};
   * with tenants, a missing or unknown id is {@link FailureCode#BAD_REQUEST}.
   */
  public static final String TENANT_HEADER = "x-tenant";

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
