package dev.georesolver.redis;


/**
 * Every Redis key the resolver uses, under the configured prefix (default {@code geo:}): the
 * dedupe and index verticles' keys, and the durable state's primitives ({@link #state}).
 *
 * <h2>The hash-tag rule (Redis Cluster)</h2>
 * A Redis Cluster runs a command, a {@code MULTI}/{@code EXEC}, a Lua script or a pipelined batch
 * only when every key it touches maps to one hash slot; the slot is CRC16 of the key modulo 16384,
 * or of the part between the first <code>{</code> and the next <code>}</code> when the key has one
 * (its <em>hash tag</em>). So:
 * <ol>
 *   <li>Keys that one operation touches together form a <em>group</em>, and every key of a group
 *       carries the same hash tag. For the dedupe and index keys, in cluster mode the key part that
 *       names the group is wrapped in braces ({@code geo:idem:{<key>}}); on one server they keep
 *       their plain names. The durable state's keys always carry their group's tag.
 *   <li>A group is as small as the operation allows, so the load spreads over the masters: a
 *       request's answer, claim and outcome share the request's tag; each cached-index cell is its
 *       own key; the reconcile queue and its outbox share one group (one transaction settles an item
 *       and appends its correction); each tenant's audit chain and each batch job is a group of its
 *       own.
 *   <li>An operation across groups is split into single-group steps, ordered so that a step that
 *       fails leaves nothing a reader could misread (a correction writes the shared cache's answer
 *       and index entry before the queue's transaction appends its outbox record).
 *   <li>The cross-instance claim is one key ({@code SET NX PX}): it is never made part of a group
 *       write, so a claim costs one command on one master.
 * </ol>
 * {@code RedisKeysTest} computes slots as the cluster does and checks each group maps to one.
 *
 * <table>
 *   <caption>keys (one server; in cluster mode the part in braces is wrapped)</caption>
 *   <tr><th>key</th><th>type</th><th>group</th><th>holds</th></tr>
 *   <tr><td>{@code idem:{key}}</td><td>string, TTL</td><td>request</td><td>the served answer (dedupe)</td></tr>
 *   <tr><td>{@code lock:{key}|intent|direction}</td><td>string, NX PX</td><td>request</td><td>the cross-instance in-flight claim</td></tr>
 *   <tr><td>{@code done:{key}|intent|direction}</td><td>string, TTL</td><td>request</td><td>the claim holder's outcome, for waiters on other instances</td></tr>
 *   <tr><td>{@code addr:{addrKey}}</td><td>hash, TTL</td><td>itself</td><td>a cached-index entry</td></tr>
 *   <tr><td>{@code index:{cell}}</td><td>GEO set</td><td>itself</td><td>address keys of the points in one geohash cell ({@link #INDEX_CELL_PRECISION} characters)</td></tr>
 *   <tr><td>{@code st:{<group>}:t:<table>}</td><td>hash</td><td>the group</td><td>a table's rows: row key → {@code <version>:<body>}</td></tr>
 *   <tr><td>{@code st:{<group>}:i:<table>:<index>}</td><td>sorted set</td><td>the group</td><td>an index of the table: row keys by score</td></tr>
 *   <tr><td>{@code st:{<group>}:c:<table>}</td><td>hash</td><td>the group</td><td>the table's counters</td></tr>
 *   <tr><td>{@code st:{<group>}:l:<log>}</td><td>stream</td><td>the group</td><td>a log: entry id {@code <seq>-0}, field {@code b} = the body</td></tr>
 *   <tr><td>{@code st:{<group>}:s:<log>}</td><td>string</td><td>the group</td><td>the last number the log took</td></tr>
 * </table>
 * The durable state's groups: {@code reconcile} (the queue, its outbox, corrected answers, delivery
 * cursors), {@code audit:<tenant>} (a tenant's chain and anchor), {@code audit} (the tenants with a
 * chain), {@code batch:<id>} (a job, its rows, results and slices), {@code batches} (the job list
 * and idempotency names). Keys of an earlier release's layout are moved into these at start
 * ({@code state.LegacyImport}).
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

  // ---- an earlier release's layout of the durable state: read only by its migration
  //      (state.redis.RedisLegacy), which moves it into the st:{<group>} keys and removes it

  // the reconcile queue and its outbox (one group)

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
