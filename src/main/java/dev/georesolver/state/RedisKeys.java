package dev.georesolver.state;

/**
 * Every Redis key the state store uses, under the configured prefix (default {@code geo:}), by
 * module. This class is where a module's keys are registered: a new module (audit, batches) adds
 * its own here.
 *
 * <table>
 *   <caption>keys</caption>
 *   <tr><th>key</th><th>type</th><th>holds</th></tr>
 *   <tr><td>{@code reconcile}</td><td>stream + group {@code reconcilers}</td><td>one entry per queued item ({@code k} = its debt key), oldest first</td></tr>
 *   <tr><td>{@code rq:{debtKey}}</td><td>hash</td><td>the item: {@code debt}, {@code state}, {@code attempts}, {@code entry}, {@code lease_owner}, {@code lease_until}, {@code answer_resolved_at}, {@code accepted_at}, {@code outcome}, {@code last_error}; kept 7 days once done</td></tr>
 *   <tr><td>{@code reconcile:delayed}</td><td>sorted set</td><td>items backing off, scored by when they are due</td></tr>
 *   <tr><td>{@code reconcile:dead}</td><td>hash</td><td>dead letters: debt key → last error</td></tr>
 *   <tr><td>{@code reconcile:done}</td><td>string</td><td>count of items done</td></tr>
 *   <tr><td>{@code corrections}</td><td>stream</td><td>the outbox: field {@code c} = the correction JSON</td></tr>
 *   <tr><td>{@code corrected:{id}}</td><td>string</td><td>the correction's cursor: no answer is corrected twice (kept 30 days)</td></tr>
 *   <tr><td>{@code corrections:cursors}</td><td>hash</td><td>delivery cursors by name (webhooks)</td></tr>
 *   <tr><td>{@code {batch:<id>}:job}</td><td>hash</td><td>a batch job: {@code tenant}, {@code idem_key}, {@code state}, {@code spec}, the counts, the timestamps</td></tr>
 *   <tr><td>{@code {batch:<id>}:rows}</td><td>hash</td><td>row index → the row as submitted</td></tr>
 *   <tr><td>{@code {batch:<id>}:results}</td><td>hash</td><td>row index → its result (written once)</td></tr>
 *   <tr><td>{@code {batch:<id>}:slices}</td><td>sorted set</td><td>slices with rows left, scored by when their lease ends (0: free)</td></tr>
 *   <tr><td>{@code {batch:<id>}:owners}</td><td>hash</td><td>slice → the process holding its lease</td></tr>
 *   <tr><td>{@code batches}</td><td>sorted set</td><td>every job id, scored by creation time</td></tr>
 *   <tr><td>{@code batches:open}</td><td>sorted set</td><td>queued and running job ids, scored by creation time</td></tr>
 *   <tr><td>{@code batch-idem:<tenant>:<key>}</td><td>string</td><td>the job id a tenant's idem key names</td></tr>
 * </table>
 * A job's keys share the hash tag {@code {batch:<id>}}, so each script over them touches one slot
 * (Redis Cluster); the job list, the open set and the idem names are single-key commands.
 * Corrections also write the idempotency entry {@code idem:{key}} and the cached index
 * ({@code addr:{addrKey}}, {@code index}) that the dedupe and index verticles read.
 */
final class RedisKeys {

  /** The consumer group of the reconcile stream. */
  static final String GROUP = "reconcilers";

  private final String prefix;

  RedisKeys(String prefix) {
    this.prefix = prefix;
  }

  String reconcile() {
    return prefix + "reconcile";
  }

  /** The prefix of item markers; the marker of an item is this plus its debt key. */
  String markerPrefix() {
    return prefix + "rq:";
  }

  String marker(String debtKey) {
    return markerPrefix() + debtKey;
  }

  String delayed() {
    return prefix + "reconcile:delayed";
  }

  String dead() {
    return prefix + "reconcile:dead";
  }

  String done() {
    return prefix + "reconcile:done";
  }

  String corrections() {
    return prefix + "corrections";
  }

  String corrected(String correctionId) {
    return prefix + "corrected:" + correctionId;
  }

  String cursors() {
    return prefix + "corrections:cursors";
  }

  String idem(String key) {
    return prefix + "idem:" + key;
  }

  String addr(String addrKey) {
    return prefix + "addr:" + addrKey;
  }

  String index() {
    return prefix + "index";
  }

  /** The hash tag of one batch job's keys. */
  private String batchTag(String id) {
    return prefix + "{batch:" + id + "}:";
  }

  String batchJob(String id) {
    return batchTag(id) + "job";
  }

  String batchRows(String id) {
    return batchTag(id) + "rows";
  }

  String batchResults(String id) {
    return batchTag(id) + "results";
  }

  String batchSlices(String id) {
    return batchTag(id) + "slices";
  }

  String batchOwners(String id) {
    return batchTag(id) + "owners";
  }

  String batches() {
    return prefix + "batches";
  }

  String batchesOpen() {
    return prefix + "batches:open";
  }

  String batchIdem(String tenant, String idemKey) {
    return prefix + "batch-idem:" + tenant + ":" + idemKey;
  }
}
