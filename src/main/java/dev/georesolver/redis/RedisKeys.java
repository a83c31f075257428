package dev.georesolver.redis;


/**
 * Every Redis key the resolver uses, under the configured prefix (default {@code geo:}), by module:
 * the dedupe and index verticles' keys as well as the state store's. This class is where a module's
 * keys are registered: a new module (audit, batches) adds its own here, following the hash-tag rule.
 *
 * <h2>The hash-tag rule (Redis Cluster)</h2>
 * A Redis Cluster runs a command, a {@code MULTI}/{@code EXEC}, a Lua script or a pipelined batch
 * only when every key it touches maps to one hash slot; the slot is CRC16 of the key modulo 16384,
 * or of the part between the first <code>{</code> and the next <code>}</code> when the key has one
 * (its <em>hash tag</em>). So:
 * <ol>
 *   <li>Keys that one operation touches together form a <em>group</em>, and every key of a group
 *       carries the same hash tag. In cluster mode the key part that names the group is wrapped in
 *       braces ({@code geo:idem:{<key>}}); on one server the keys keep their plain names, so a
 *       deployment that moves to a cluster starts with a cold cache but nothing else changes.
 *   <li>A group is as small as the operation allows, so the load spreads over the masters: a
 *       request's answer, claim and outcome share the request's tag; each cached-index cell is its
 *       own key; only the reconcile queue and its outbox share one tag (<code>{reconcile}</code>),
 *       because its scripts take an item, its stream entry and the outbox record together.
 *   <li>Lua scripts name their keys in {@code KEYS}. A script that must compute a key from data
 *       (the lease script reads item keys from stream entries) computes it only inside its group's
 *       tag, from a prefix passed in {@code ARGV} that this class builds.
 *   <li>An operation across groups is split into single-group steps, ordered so that a step that
 *       fails leaves nothing a reader could misread (the correction writes the answer and the cached
 *       index before its outbox record, each step guarded and idempotent).
 *   <li>The cross-instance claim is one key ({@code SET NX PX}): it is never made part of a group
 *       write, so a claim costs one command on one master.
 * </ol>
 * A new module's keys: pick its group (tenant for {@code audit:{tenant}}, job id for
 * {@code batch:{id}} and {@code batch:{id}:items}), build every key through {@link #tagged}, and add
 * its groups to {@code RedisKeysTest}, which checks each group maps to one slot.
 *
 * <table>
 *   <caption>keys (one server; in cluster mode the part in braces is wrapped)</caption>
 *   <tr><th>key</th><th>type</th><th>group</th><th>holds</th></tr>
 *   <tr><td>{@code idem:{key}}</td><td>string, TTL</td><td>request</td><td>the served answer (dedupe)</td></tr>
 *   <tr><td>{@code lock:{key}|intent|direction}</td><td>string, NX PX</td><td>request</td><td>the cross-instance in-flight claim</td></tr>
 *   <tr><td>{@code done:{key}|intent|direction}</td><td>string, TTL</td><td>request</td><td>the claim holder's outcome, for waiters on other instances</td></tr>
 *   <tr><td>{@code addr:{addrKey}}</td><td>hash, TTL</td><td>itself</td><td>a cached-index entry</td></tr>
 *   <tr><td>{@code index:{cell}}</td><td>GEO set</td><td>itself</td><td>address keys of the points in one geohash cell ({@link #INDEX_CELL_PRECISION} characters)</td></tr>
 *   <tr><td>{@code reconcile}</td><td>stream + group {@code reconcilers}</td><td>queue</td><td>one entry per queued item ({@code k} = its debt key), oldest first</td></tr>
 *   <tr><td>{@code rq:{debtKey}}</td><td>hash</td><td>queue</td><td>the item: {@code debt}, {@code state}, {@code attempts}, {@code entry}, {@code lease_owner}, {@code lease_until}, {@code answer_resolved_at}, {@code accepted_at}, {@code outcome}, {@code last_error}; kept 7 days once done</td></tr>
 *   <tr><td>{@code reconcile:delayed}</td><td>sorted set</td><td>queue</td><td>items backing off, scored by when they are due</td></tr>
 *   <tr><td>{@code reconcile:dead}</td><td>hash</td><td>queue</td><td>dead letters: debt key → last error</td></tr>
 *   <tr><td>{@code reconcile:done}</td><td>string</td><td>queue</td><td>count of items done</td></tr>
 *   <tr><td>{@code corrections}</td><td>stream</td><td>queue</td><td>the outbox: field {@code c} = the correction JSON</td></tr>
 *   <tr><td>{@code corrected:{id}}</td><td>string</td><td>queue</td><td>the correction's cursor: no answer is corrected twice (kept 30 days)</td></tr>
 *   <tr><td>{@code corrections:cursors}</td><td>hash</td><td>queue</td><td>delivery cursors by name (webhooks)</td></tr>
 *   <tr><td>{@code audit:{tenant}}</td><td>stream</td><td>the tenant's audit partition</td><td>entry id {@code <seq>-0}, fields {@code s} (seq), {@code p} (prev_hash), {@code h} (hash), the record</td></tr>
 *   <tr><td>{@code audit:{tenant}:head}</td><td>string</td><td>the tenant's audit partition</td><td>{@code <seq>:<hash>} of the tenant's last record: an append checks it and moves it in one script</td></tr>
 *   <tr><td>{@code audit:{tenant}:anchor}</td><td>string</td><td>the tenant's audit partition</td><td>{@code <seq>:<hash>} of the last record retention removed (absent: none)</td></tr>
 *   <tr><td>{@code audit:tenants}</td><td>set</td><td>itself</td><td>tenants with a partition, for {@code audit verify} and retention</td></tr>
 *   <tr><td>{@code {batch:<id>}:job}</td><td>hash</td><td>the job</td><td>a batch job: {@code tenant}, {@code idem_key}, {@code state}, {@code spec}, the counts, the timestamps</td></tr>
 *   <tr><td>{@code {batch:<id>}:rows}</td><td>hash</td><td>the job</td><td>row index → the row as submitted</td></tr>
 *   <tr><td>{@code {batch:<id>}:results}</td><td>hash</td><td>the job</td><td>row index → its result (written once)</td></tr>
 *   <tr><td>{@code {batch:<id>}:slices}</td><td>sorted set</td><td>the job</td><td>slices with rows left, scored by when their lease ends (0: free)</td></tr>
 *   <tr><td>{@code {batch:<id>}:owners}</td><td>hash</td><td>the job</td><td>slice → the process holding its lease</td></tr>
 *   <tr><td>{@code batches}</td><td>sorted set</td><td>itself</td><td>every job id, scored by creation time</td></tr>
 *   <tr><td>{@code batches:open}</td><td>sorted set</td><td>itself</td><td>queued and running job ids, scored by creation time</td></tr>
 *   <tr><td>{@code batch-idem:<tenant>:<key>}</td><td>string</td><td>itself</td><td>the job id a tenant's idem key names</td></tr>
 * </table>
 * In cluster mode the queue's keys are {@code geo:{reconcile}}, {@code geo:{reconcile}:rq:<debtKey>},
 * {@code geo:{reconcile}:delayed} and so on: one slot, one master, for the whole queue.
 *
 * The three keys of a tenant's audit partition share the hash tag {@code {tenant}} on one server and
 * in a cluster alike, so every audit script stays in one slot.
 *
 * A batch job's keys share the hash tag {@code {batch:<id>}} on one server and in a cluster alike,
 * so each script over them touches one slot; the job list, the open set and the idem names are
 * single-key commands.
 *
 * <p>Immutable and thread-safe.
 */
public final class RedisKeys {

  /** The consumer group of the reconcile stream. */
  public static final String GROUP = "reconcilers";
  /** Geohash characters of a cached-index cell: 5 is about 4.9 km × 4.9 km at the equator (narrower east-west further north). */
  public static final int INDEX_CELL_PRECISION = 5;
  /** The hash tag of the reconcile queue and its outbox in cluster mode. */
  public static final String QUEUE_TAG = "reconcile";

  private final String prefix;
  private final boolean cluster;

  /**
   * @param prefix the configured key prefix; in cluster mode it must hold no brace, or it would
   *     become every key's hash tag and put the whole store on one master
   * @param cluster whether keys are for a Redis Cluster (hash tags) or one server (plain names)
   */
  public RedisKeys(String prefix, boolean cluster) {
    if (cluster && (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0)) {
      throw new IllegalArgumentException("routing.idempotency.key_prefix must not contain { or } with a Redis Cluster");
    }
    this.prefix = prefix;
    this.cluster = cluster;
  }

  /** Whether these are cluster keys. */
  public boolean cluster() {
    return cluster;
  }

  /** {@code part} as a hash tag in cluster mode, as itself on one server. */
  public String tagged(String part) {
    return cluster ? "{" + part + "}" : part;
  }

  /** A queue key: {@code prefix + plain} on one server, {@code prefix + {reconcile} + clusterSuffix} in a cluster. */
  private String queue(String plain, String clusterSuffix) {
    return cluster ? prefix + "{" + QUEUE_TAG + "}" + clusterSuffix : prefix + plain;
  }

  // ---- the durable state's primitives (state.tables): every key of a group under the group's tag

  /**
   * A key of the durable state's primitives: {@code <prefix>st:{<group>}:<kind>:<name>}. The group is
   * always a hash tag (on one server it changes nothing), so every key of a group is in one slot.
   *
   * @param kind {@code t} (a table's rows, a hash), {@code i} (an index, a sorted set), {@code c}
   *     (counters, a hash), {@code l} (a log, a stream), {@code s} (a log's last number, a string)
   */
  public String state(String group, String kind, String name) {
    return prefix + "st:{" + group + "}:" + kind + ":" + name;
  }

  // ---- dedupe (group: one request, tagged by its idempotency key)

  /** The stored answer of idempotency key {@code key}. */
  public String idem(String key) {
    return prefix + "idem:" + tagged(key);
  }

  /** The cross-instance claim of {@code coalesceKey} ({@code key|intent|direction}), in the group of its key. */
  public String lock(String coalesceKey) {
    return prefix + "lock:" + taggedCoalesce(coalesceKey);
  }

  /** The claim holder's outcome of {@code coalesceKey}, in the group of its key. */
  public String done(String coalesceKey) {
    return prefix + "done:" + taggedCoalesce(coalesceKey);
  }

  private String taggedCoalesce(String coalesceKey) {
    int bar = coalesceKey.indexOf('|');
    return bar < 0 ? tagged(coalesceKey) : tagged(coalesceKey.substring(0, bar)) + coalesceKey.substring(bar);
  }

  // ---- cached index (every key its own group)

  /** The cached-index entry of address key {@code addrKey}. */
  public String addr(String addrKey) {
    return prefix + "addr:" + tagged(addrKey);
  }

  /** The GEO set of one geohash cell ({@link #INDEX_CELL_PRECISION} characters). */
  public String indexCell(String cell) {
    return prefix + "index:" + tagged(cell);
  }

  /** The single GEO set of releases before the index was sharded; read by nothing, see the upgrade note in docs/clusters-and-redis.md. */
  public String legacyIndex() {
    return prefix + "index";
  }

  // ---- the reconcile queue and its outbox (one group)

  public String reconcile() {
    return queue("reconcile", "");
  }

  /** The prefix of item markers; the marker of an item is this plus its debt key. */
  public String markerPrefix() {
    return queue("rq:", ":rq:");
  }

  public String marker(String debtKey) {
    return markerPrefix() + debtKey;
  }

  public String delayed() {
    return queue("reconcile:delayed", ":delayed");
  }

  public String dead() {
    return queue("reconcile:dead", ":dead");
  }

  public String doneCount() {
    return queue("reconcile:done", ":done");
  }

  public String corrections() {
    return queue("corrections", ":corrections");
  }

  public String corrected(String correctionId) {
    return queue("corrected:" + correctionId, ":corrected:" + correctionId);
  }

  public String cursors() {
    return queue("corrections:cursors", ":corrections:cursors");
  }

  /** The tenant's audit stream; its head and anchor keys share its {@code {tenant}} hash tag. */
  public String audit(String tenant) {
    return prefix + "audit:{" + tenant + "}";
  }

  public String auditHead(String tenant) {
    return audit(tenant) + ":head";
  }

  public String auditAnchor(String tenant) {
    return audit(tenant) + ":anchor";
  }

  public String auditTenants() {
    return prefix + "audit:tenants";
  }

  /** The hash tag of one batch job's keys. */
  private String batchTag(String id) {
    return prefix + "{batch:" + id + "}:";
  }

  public String batchJob(String id) {
    return batchTag(id) + "job";
  }

  public String batchRows(String id) {
    return batchTag(id) + "rows";
  }

  public String batchResults(String id) {
    return batchTag(id) + "results";
  }

  public String batchSlices(String id) {
    return batchTag(id) + "slices";
  }

  public String batchOwners(String id) {
    return batchTag(id) + "owners";
  }

  public String batches() {
    return prefix + "batches";
  }

  public String batchesOpen() {
    return prefix + "batches:open";
  }

  public String batchIdem(String tenant, String idemKey) {
    return prefix + "batch-idem:" + tenant + ":" + idemKey;
  }
}
