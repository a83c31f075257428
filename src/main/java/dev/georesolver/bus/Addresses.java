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
 * nodes, which talk mutual TLS with certificates of the cluster's CA. The state store still
 * answers each request only with what the {@link Caller} it names ({@link #TENANT_HEADER},
 * {@link #ADMIN_HEADER}) may see, so no request crosses tenants by omission.
 *
 * <p>Records named below travel with local codecs ({@link Codecs}): inside one JVM the same
 * immutable instance is passed, never copied or re-encoded; between nodes they travel as JSON
 * (each codec's wire form is the record's {@code toJson()}, and every node registers the same
 * codecs by name). {@link #DEADLINE_HEADER} is relative (milliseconds left), so a request that
 * crosses nodes keeps its budget whatever their clocks say.
 *
 * <p><b>Which messages cross a clustered bus</b> ({@link #reach}, applied by {@link Node}):
 * <ul>
 *   <li>{@link Reach#NODE} — never leave the node: the dedupe claim and completion, the cached
 *       index, the memory store's write-behind, the operator's view and feed, the reconciler's
 *       wake-up of the corrections delivery. Their consumers are local ({@code localConsumer}), so
 *       a claim and its completion always reach the same in-flight map, and a node's write-behind
 *       its own state file;
 *   <li>{@link Reach#CHAIN}, {@link Reach#TIERS}, {@link Reach#STATE} — served by the node's own
 *       verticles when it runs that role, else by any node of the cluster that does (Vert.x picks
 *       one, round robin): resolution and health (chain), tier visits, status and commands
 *       (tiers), the durable store and the reconciler's figures (state);
 *   <li>{@link Reach#CLUSTER} — published to every node: breaker transitions, tier statistics,
 *       corrections, reconcile news.
 * </ul>
 */
public final class Addresses {

  private Addresses() {}

  /** Where messages to an address may go on a clustered bus (see the class comment). */
  public enum Reach {
    /** Never leaves the node. */
    NODE(null),
    /** This node's chains when it runs them, else any chain in the cluster. */
    CHAIN(Role.CHAIN),
    /** This node's tiers when it runs them, else any tier node. */
    TIERS(Role.TIERS),
    /** This node's store when it runs it, else any state node. */
    STATE(Role.STATE),
    /** Published to, or served by, the whole cluster. */
    CLUSTER(null);

    private final Role servedBy;

    Reach(Role servedBy) {
      this.servedBy = servedBy;
    }

    /** The role whose verticles serve the address, or null. */
    public Role servedBy() {
      return servedBy;
    }
  }

  /** Where messages to {@code address} may go on a clustered bus. */
  public static Reach reach(String address) {
    switch (address) {
      case DEDUPE_CLAIM, DEDUPE_COMPLETE, DEDUPE_STATUS, INDEX_LOOKUP, INDEX_WRITE, INDEX_STATUS, OPS_EVENTS, OPS_STATE,
          CORRECTIONS_COMMITTED, STATE_CACHE_WRITE, STATE_CACHE_LOAD, MANIFEST_RELOAD, MANIFEST_EVENTS, SHADOW_OFFER, SHADOW_VIEW,
          SHADOW_WORST:
        return Reach.NODE;
      case RESOLVE, REVERSE, HEALTH:
        return Reach.CHAIN;
      case BREAKER_EVENTS, TIER_STATS, CORRECTIONS, RECONCILE_EVENTS:
        return Reach.CLUSTER;
      case RECONCILE_STATUS:
        return Reach.STATE;
      default:
        if (address.startsWith("geocode.state.")) {
          return Reach.STATE;
        }
        return address.startsWith(TIER_PREFIX) ? Reach.TIERS : Reach.CLUSTER;
    }
  }

  /**
   * Forward resolution, request/reply. Sender: ingress, or any verticle. Body: a
   * {@link ResolveRequest} (reply: a {@link ResolveReply} — the {@link ResolveResult} of its own
   * walk, or a {@link Redelivery} of a stored answer) or the public JSON request
   * ({@code {"q"|"address", "bbox", "intent", "budget_ms", "language"}}; reply: the result JSON, the
   * same as HTTP). Header {@link #DEADLINE_HEADER} (else the body's {@code budget_ms}, else the
   * manifest default), {@link #TENANT_HEADER} when tenants are configured, and optionally
   * {@link #TRACE_HEADER} and {@link #TRACEPARENT_HEADER}. Failures:
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
   * Body {@link TierRequest}, header {@link #DEADLINE_HEADER} (and {@link #TRACEPARENT_HEADER}
   * when the chain has one); reply {@link TierReply} (a hit, a
   * classified failure, or a skip). Failure: {@link FailureCode#DEADLINE_EXCEEDED} when the message
   * arrives with its budget spent.
   */
  public static final String TIER_PREFIX = "geocode.tier.";

  /**
   * Breaker transitions, publish. Sender: each tier verticle. Body JSON
   * {@code {"tier", "from", "to", "at", "reason"}} with states
   * {@code closed|open|half_open|forced_open|forced_closed} ({@code at} an ISO-8601 instant; reasons
   * as {@code TierBreaker.Transition} lists them, {@code force_open}, {@code force_closed} and
   * {@code release} for an operator's commands).
   */
  public static final String BREAKER_EVENTS = "geocode.breaker";

  /**
   * Tier latency statistics, publish. Sender: each tier verticle when its observed median changes.
   * Body JSON: the tier's status, as {@link #tierStatus} answers it. Chains keep a view for
   * admission and reserves; the ops verticle for the dashboard.
   */
  public static final String TIER_STATS = "geocode.tier.stats";

  /**
   * The operator's feed, publish. Sender: the ops verticle only. Body JSON with a {@code type}:
   * <ul>
   *   <li>{@code snapshot}, once a second: {@code {"type", "at_ms", "second": {"requests",
   *       "routing": {source: answers}, "refused", "replayed"}, "window": {"seconds", "requests_per_s",
   *       "refusal_rate", "replayed_share", "routing_share": {source: 0..1}, "latency_ms": {"p50",
   *       "p90", "p99"}}, "tiers": [status, …]}} — {@code second} counts the results delivered in
   *       the last second, {@code window} the last {@code seconds}; latency in milliseconds, null
   *       when nothing was delivered;
   *   <li>{@code breaker}: a {@link #BREAKER_EVENTS} transition with {@code "type"} added;
   *   <li>{@code reconcile} and {@code correction}: relayed from {@link #RECONCILE_EVENTS};
   *   <li>{@code reload}: a {@link #MANIFEST_EVENTS} status with {@code "type"} added;
   *   <li>{@code shadow}, when the shadow figures changed (asked of {@link #SHADOW_VIEW} every 5 s
   *       while sampling is on): {@code {"type", "at_ms", "state": "off" | "waiting" | "unavailable"
   *       | "empty" | "live", "detail"?, "samples", "rungs": [name, …] (ladder order), "cells":
   *       [{"served", "shadow", "samples", "both_found", "within_250", "within_250_share",
   *       "found_disagreement", "intents": [{"intent", "samples", "both_found", "p50_m",
   *       "p90_m"}]}]}} — one cell per ordered pair of rungs, its intents added up
   *       ({@code ops.ShadowBoard}).
   * </ul>
   */
  public static final String OPS_EVENTS = "geocode.ops.events";

  /**
   * Reload the manifest now, request/reply, local only. Senders: the ingress
   * ({@code POST /admin/reload}) and the SIGHUP handler. Body JSON {@code {"trigger": "http" |
   * "signal", "git_sha"?: "<7 to 40 hex digits>"}} ({@code git_sha} replaces {@code MANIFEST_GIT_SHA}
   * in the revision from then on). Reply JSON: the reload status after the attempt
   * ({@code dev.georesolver.reload.ReloadStatus#toJson}), refused or not; never a failure, but
   * {@code NO_HANDLERS} when no reloader runs. The reply waits for the swap and for the old
   * revision's walks to drain: up to {@code max_budget_ms} and a second past the deploys.
   */
  public static final String MANIFEST_RELOAD = "geocode.manifest.reload";

  /**
   * Reload attempts, publish. Sender: the reloader, after each attempt. Body JSON: the reload
   * status ({@code dev.georesolver.reload.ReloadStatus#toJson}). The ops verticle follows the new
   * ladder on it and relays it to the operator's feed.
   */
  public static final String MANIFEST_EVENTS = "geocode.manifest.events";

  /**
   * The operator's picture now, request/reply. Sender: the ingress, when a dashboard connects. Body:
   * anything. Reply JSON {@code {"type": "hello", "manifest_revision", "tiers": [status, …] (ladder
   * order), "history": [snapshot without its tiers, …] (oldest first, at most five minutes),
   * "breaker_events": [transition, …] (the latest, oldest first), "reconcile": the last reconcile
   * status or null, "corrections": [correction, …], "shadow": the last {@code shadow} event}}.
   */
  public static final String OPS_STATE = "geocode.ops.state";

  /**
   * Reconciliation news for the operator, publish. Sender: the reconciler (the dashboard says "no
   * reconciler" until this address carries a status, and "reconciler silent" when the last one is
   * older than 30 s). Bodies JSON:
   * <ul>
   *   <li>{@code {"type": "reconcile", "pending", "in_progress", "done", "dead",
   *       "oldest_pending_age_s"}}, at least every 10 s while it runs: the queue's figures as the
   *       store counts them, the same on every node sharing the store — the items in each state
   *       now ({@code done}: corrected or confirmed, kept 7 days after they ended; {@code dead}: the
   *       dead letters, kept), and the age in seconds of the oldest item still waiting;
   *   <li>{@code {"type": "correction", "at_ms", "idempotency_key", "served_by", "corrected_by",
   *       "moved_m", "label"}} for each answer corrected (any field but {@code type} may be left
   *       out).
   * </ul>
   */
  public static final String RECONCILE_EVENTS = "geocode.reconcile.events";

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
   * "after": {…the same…}, "moved_m", "reason" ("degraded" | "drift"), "corrected_at", "corrected_at_ms", "manifest_revision",
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

  /**
   * A sampled answer, send (no reply). Sender: chain, after the reply has left. Body
   * {@link ShadowOffer}. The shadow verticle queues it (bounded: dropped and counted when full) and
   * asks the shadow rung, or for an old replay its own rung, with {@link #PRIORITY_BATCH}. Never
   * leaves the node (it holds the address).
   */
  public static final String SHADOW_OFFER = "geocode.shadow.offer";

  /**
   * The shadow figures, request/reply. Sender: ingress ({@code GET /v1/shadow}). Body: anything.
   * The node's shadow verticle writes what it counted to the store first, then replies the merged
   * figures of every node sharing the store: JSON {@code {"pairs": [...], "samples", "window",
   * "node": {"offered", "dropped", "skipped": {reason: n}, "failed"}}} (the {@code shadow.ShadowView}
   * shape plus this node's own counts). Fails with {@link FailureCode#STORE_UNAVAILABLE} when the
   * store cannot be read.
   */
  public static final String SHADOW_VIEW = "geocode.shadow.view";

  /**
   * The worst disagreements this node kept, request/reply. Sender: ingress
   * ({@code GET /v1/shadow/worst}), having decided whose the caller may see. Body JSON
   * {@code {"tenant": id}} for one tenant's, {@code {}} for every tenant's (an admin's); reply JSON
   * {@code {"tenants": {id: [case, …]}, "node"}} ({@code shadow.WorstKept.Case#toMap}). Only tenants
   * whose manifest entry has {@code shadow_keep_worst} have any; node-local (never leaves the node:
   * it holds addresses).
   */
  public static final String SHADOW_WORST = "geocode.shadow.worst";

  /**
   * Adds shadow figures to the stored ones, request/reply. Sender: the shadow verticle, once a
   * second while it counted something, and on stop. Body JSON {@code {"table": base64}} (a
   * {@code shadow.ShadowTable}'s durable form); reply JSON {@code {"pairs": n}} once written. Fails
   * with {@link FailureCode#STORE_UNAVAILABLE} (the sender keeps its figures and adds them next
   * time) or {@link FailureCode#BAD_REQUEST} for a body that is not such a table.
   */
  public static final String STATE_SHADOW_MERGE = "geocode.state.shadow.merge";

  /**
   * The stored shadow figures, request/reply. Body: anything; reply JSON {@code {"table": base64}}
   * (empty table when none are stored). Fails with {@link FailureCode#STORE_UNAVAILABLE}.
   */
  public static final String STATE_SHADOW_READ = "geocode.state.shadow.read";

  // The state verticle's addresses: one group per module of the store (debts, corrections, cache, audit).
  // A new module (batches) adds its own group here and its handlers in StateVerticle.

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

  /**
   * Correct a cached answer that drifted, request/reply. Sender: the shadow verticle, when the rung
   * that produced a sampled replay now places it more than {@code shadow.drift.moved_m} away. Body
   * JSON {@code {"basis": Debt (the stored answer as a debt describes it), "repair": Repair (the
   * rung's fresh answer)}}: the idempotency entry, the cached-index entry and the outbox record
   * ({@code reason: drift}) change in one transaction, once per stored answer. Reply
   * {@code {"correction"?: Correction JSON}}, absent when that drift was corrected before.
   */
  public static final String STATE_DRIFT_CORRECT = "geocode.state.drift.correct";

  /** Queue figures, request/reply: reply {@code {"pending", "in_progress", "done", "dead", "oldest_pending_age_s"}}. */
  public static final String STATE_DEBTS_STATS = "geocode.state.debts.stats";

  /**
   * The dead letters, request/reply. Body JSON {@code {"limit"}} (1–{@link #MAX_PAGE}); reply
   * {@code {"dead": [{"idempotency_key", "intent", "direction", "tenant", "served_rung", "attempts",
   * "last_error", "accepted_at_ms", "died_at_ms"}…]}}, the longest dead first.
   */
  public static final String STATE_DEBTS_DEAD = "geocode.state.debts.dead";

  /**
   * Page the outbox, request/reply. Body JSON {@code {"after": cursor|null, "limit"}}; reply
   * {@code {"corrections": [Correction JSON…], "next": cursor}}, oldest first; an empty page keeps
   * the cursor. A tenant's caller ({@link Caller}) gets only its own corrections of the page, and
   * {@code "scanned"}: how many entries the page read. Fails with {@link FailureCode#BAD_REQUEST}
   * for a cursor that is not one.
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

  /** Header of the {@link #STATE_CACHE_LOAD} reply: how often to write behind, milliseconds ({@code state.cache_flush_interval_ms}). */
  public static final String CACHE_FLUSH_HEADER = "x-flush-interval-ms";

  /** Header of the {@link #STATE_CACHE_LOAD} reply: the most write-behind records to buffer ({@code state.buffer_max}). */
  public static final String CACHE_BUFFER_HEADER = "x-buffer-max";

  /** The largest page any {@code geocode.state.*} page address serves (corrections, audit, batches list). */
  public static final int MAX_PAGE = 1000;

  /**
   * Append audit records, request/reply. Sender: each chain instance's and the reconciler's audit
   * buffer, one message per flush. Body {@link AuditBatch}; the store gives each record the next
   * sequence number of its tenant's chain, its {@code prev_hash} and {@code hash}, and replies
   * {@code {"written": n, "duplicate": n}} once they are durable. Fails with
   * {@link FailureCode#STORE_UNAVAILABLE} when the store cannot write (the sender keeps the batch
   * and retries it).
   */
  public static final String STATE_AUDIT_APPEND = "geocode.state.audit.append";

  /**
   * An audit writer's session, request/reply. Sender: each audit buffer, {@code {"session": id,
   * "op": "renew", "at_most": n}} every {@code AuditGaps.RENEW_MS} while it runs and
   * {@code {"session": id, "op": "close"}} once it stopped with nothing left to hand over; replies
   * {@code {}}. A session not renewed in time is declared lost and leaves a gap record in every
   * tenant's chain (its records in memory were lost with it).
   */
  public static final String STATE_AUDIT_SESSION = "geocode.state.audit.session";

  /**
   * Page one tenant's audit partition, request/reply. Sender: {@code GET /v1/audit} (the ingress
   * has already decided whose partition the caller may read). Body JSON {@code {"tenant", "after":
   * cursor|null, "from_ms"?, "to_ms"?, "limit"}}; reply {@code {"records": [record JSON…], "next":
   * cursor}}, oldest first, each record its body plus {@code seq}, {@code prev_hash} and
   * {@code hash}; {@code from_ms} inclusive, {@code to_ms} exclusive. Fails with
   * {@link FailureCode#BAD_REQUEST} for a cursor that is not one.
   */
  public static final String STATE_AUDIT_PAGE = "geocode.state.audit.page";

  /**
   * State store status, request/reply. Reply JSON {@code {"store", "reachable", "path"?,
   * "persistent", "disk_free_mb"?, "refusing", "refused_total", "detail"?}}.
   */
  public static final String STATE_STATUS = "geocode.state.status";

  // The batches module: jobs, their rows and results, slice leases. Sender: the batch verticle
  // (and the ingress's batch routes for get, list, cancel and page). Bodies JSON; a failure is
  // STORE_UNAVAILABLE (the store could not do it now) or BAD_REQUEST.

  /** A tenant's job by idem key: body {@code {"tenant", "idem_key"}}; reply {@link BatchJob} JSON or null. */
  public static final String STATE_BATCHES_FIND = "geocode.state.batches.find";

  /** Create a job (state loading) unless the tenant has its idem key: body {@link BatchJob} JSON; reply {@code {"created", "job"}}. */
  public static final String STATE_BATCHES_CREATE = "geocode.state.batches.create";

  /** Store rows of a loading job: body {@code {"job", "rows": [{"i", "row", "result"?}…]}}; reply {@code {}} once written. */
  public static final String STATE_BATCHES_APPEND = "geocode.state.batches.append";

  /** End loading: body {@code {"job", "total", "columns"}}; reply the job (queued, or done when no row is left). */
  public static final String STATE_BATCHES_SEAL = "geocode.state.batches.seal";

  /** One job: body {@code {"job"}}; reply {@link BatchJob} JSON or null. */
  public static final String STATE_BATCHES_GET = "geocode.state.batches.get";

  /** Jobs, newest first: body {@code {"tenant"|null, "limit"}}; reply {@code {"batches": [BatchJob JSON…]}}. */
  public static final String STATE_BATCHES_LIST = "geocode.state.batches.list";

  /** Cancel: body {@code {"job"}}; reply the job after, or null when there is none. */
  public static final String STATE_BATCHES_CANCEL = "geocode.state.batches.cancel";

  /** Fail a job that has not ended: body {@code {"job", "reason"}}; reply the job after, or null. */
  public static final String STATE_BATCHES_FAIL = "geocode.state.batches.fail";

  /**
   * Lease a slice of the oldest open job: body {@code {"owner", "lease_ms"}}; reply {@code {"job", "slice",
   * "rows": [{"i", "row"}…]}} (the rows without a result) or null when no open job has one.
   */
  public static final String STATE_BATCHES_LEASE = "geocode.state.batches.lease";

  /** Extend a slice's lease: body {@code {"owner", "job", "slice", "lease_ms"}}; reply {@code {"held": bool}} (false: lost, or the job ended). */
  public static final String STATE_BATCHES_RENEW = "geocode.state.batches.renew";

  /** Record results: body {@code {"job", "results": [{"i", "result"}…]}} (a row's first result only counts); reply the job after. */
  public static final String STATE_BATCHES_RECORD = "geocode.state.batches.record";

  /** A slice all of whose rows have a result: body {@code {"owner", "job", "slice"}}; reply {@code {}}. */
  public static final String STATE_BATCHES_FINISH = "geocode.state.batches.finish";

  /** Rows in input order: body {@code {"job", "from", "limit"}}; reply {@code {"rows": [{"i", "row", "result"?}…]}}. */
  public static final String STATE_BATCHES_PAGE = "geocode.state.batches.page";

  /**
   * Open a batch upload, request/reply. Sender: the ingress, before it reads the body. Body JSON
   * {@code {"tenant", "idem_key"|null, "intent"|null, "name"|null}}; the batch verticle replies
   * {@code {"upload": address, "chunk_bytes": n}}: the address (under {@link #BATCH_UPLOAD_PREFIX},
   * unguessable, served by that verticle alone) the content then goes to. No message ever names a
   * file: the receiver keeps the content where it alone reads and deletes it. Failures:
   * {@link FailureCode#BAD_REQUEST} (an unknown intent; a problem JSON), {@link FailureCode#REFUSED}
   * (status 503: {@code batch.max_uploads} uploads are in progress).
   */
  public static final String BATCH_UPLOAD_OPEN = "geocode.batch.upload.open";

  /**
   * Prefix of an open upload's address. Messages to it carry {@link #UPLOAD_OP_HEADER} and a
   * {@link io.vertx.core.buffer.Buffer} body: {@value #UPLOAD_CHUNK} (at most {@code chunk_bytes}
   * of content, in order, one at a time: the next is sent once this one's empty reply came, which
   * is the stream's backpressure), {@value #UPLOAD_END} (empty: the content is complete; reply
   * {@code {"created": bool, "job": BatchJob JSON}}) or {@value #UPLOAD_ABORT} (empty: the content
   * is discarded). Failures: {@link FailureCode#BAD_REQUEST} with a problem JSON whose
   * {@code status} is 400 (not a batch file, an unknown column set) or 413 (over
   * {@code batch.max_upload_mb} or {@code batch.max_rows}, a record too long);
   * {@link FailureCode#REFUSED} (507: the content could not be written; 429: a tenant quota);
   * {@link FailureCode#STORE_UNAVAILABLE}. After a failure, an end or an abort the address is gone;
   * an upload that receives nothing for twice {@code batch.upload_window_ms} is discarded.
   */
  public static final String BATCH_UPLOAD_PREFIX = "geocode.batch.upload.";

  /** Header naming what a message to an upload's address is. */
  public static final String UPLOAD_OP_HEADER = "x-upload-op";
  /** {@link #UPLOAD_OP_HEADER}: a piece of content. */
  public static final String UPLOAD_CHUNK = "chunk";
  /** {@link #UPLOAD_OP_HEADER}: the content is complete. */
  public static final String UPLOAD_END = "end";
  /** {@link #UPLOAD_OP_HEADER}: discard the content. */
  public static final String UPLOAD_ABORT = "abort";

  /** Header on every request: milliseconds left, measured by the sender at sending. */
  public static final String DEADLINE_HEADER = "x-deadline-ms";

  /**
   * Header carrying the request's trace id (32 lowercase hex digits, the W3C trace id, when the
   * sender is the ingress or any sender that made one; other senders may name their work, as the
   * reconciler's {@code reconcile}), for logs and the result's {@code trace_id}. Absent: the chain
   * takes the trace id of {@link #TRACEPARENT_HEADER}, else makes a new one.
   */
  public static final String TRACE_HEADER = "x-trace-id";

  /**
   * Header carrying the W3C trace context of the sender's span, exactly as the HTTP header of that
   * name ({@code 00-<trace id>-<parent span id>-<flags>}): on {@link #RESOLVE} and {@link #REVERSE}
   * (the ingress's server span), on {@link #tier} visits (the chain's span of that rung). The
   * receiver's spans are its children, and a tier sends it on to the provider (its attempt's span
   * when tracing is on; the header as received when it is off). Optional: absent, a chain starts a
   * new trace and a tier sends none.
   */
  public static final String TRACEPARENT_HEADER = "traceparent";

  /** Header carrying the W3C {@code tracestate} that goes with {@link #TRACEPARENT_HEADER}; optional. */
  public static final String TRACESTATE_HEADER = "tracestate";

  /**
   * Header on a {@link #RESOLVE} or {@link #REVERSE} request naming its traffic class:
   * {@value #PRIORITY_BATCH} for a row of a batch job; absent (or {@value #PRIORITY_LIVE}) for live
   * traffic. Senders: batch drivers (the command line's {@code batch}, the batch verticle); the
   * chain passes it on to each tier it visits for the request ({@link #tier}). The rule: tiers serve
   * live traffic first, and batch attempts use at most {@code batch.max_share} of a tier's rate
   * limit and connections; a batch visit over that share is skipped {@code batch_share} (the batch
   * verticle slows down and sends the row again).
   */
  public static final String PRIORITY_HEADER = "x-priority";

  /** {@link #PRIORITY_HEADER} value of a batch row. */
  public static final String PRIORITY_BATCH = "batch";

  /** {@link #PRIORITY_HEADER} value of live traffic (the same as no header). */
  public static final String PRIORITY_LIVE = "live";

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
   * Header on every {@code geocode.state.*} request but the status and the cache, with
   * {@link #TENANT_HEADER}: {@code true} when the request acts for all tenants — an admin the
   * ingress has authenticated as one, or the resolver's own work across tenants (the chain's audit
   * and debt buffers, the reconciler, the batch worker, the corrections delivery). Without it a
   * state request gets only the data of the tenant in {@link #TENANT_HEADER}, and a request with
   * neither header is {@link FailureCode#FORBIDDEN}. Both are set through {@link Caller}.
   */
  public static final String ADMIN_HEADER = "x-admin";

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
   * {@code {"tier", "adapter", "claim", "state", "typical_ms"}}, {@code state} as in
   * {@link #BREAKER_EVENTS}.
   */
  public static String tierStatus(String name) {
    return TIER_PREFIX + name + ".status";
  }

  /**
   * The visit address of one deployment of a tier: {@link #tier} for generation 0 (the verticle
   * deployed at start), {@code geocode.tier.<name>#<generation>} for one a reload deployed. A chain
   * sends to the address its manifest revision names, so the walks of the new revision never reach
   * a verticle about to be undeployed (a consumer removed from a busy address drops the messages
   * already routed to it). Such a verticle listens on {@link #tier} too, for senders that do not
   * follow reloads (the reconciler).
   */
  public static String tierVisit(String name, int generation) {
    return generation == 0 ? tier(name) : TIER_PREFIX + name + "#" + generation;
  }

  /**
   * The control address of one tier, request/reply: {@code geocode.tier.<name>.control}. Sender:
   * the ingress's admin routes. Body {@link TierAction#toJson()}; reply the tier's status after the
   * command (as {@link #tierStatus}). Failure {@link FailureCode#BAD_REQUEST} for a body that names
   * no action. A forced state lives in the tier's breaker and holds until {@code release}: it lasts
   * as long as the tier verticle does.
   */
  public static String tierControl(String name) {
    return TIER_PREFIX + name + ".control";
  }
}
