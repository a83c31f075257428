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
 *   <tr><td>{@code audit:{tenant}}</td><td>stream</td><td>the tenant's audit partition: entry id {@code <seq>-0}, fields {@code s} (seq), {@code p} (prev_hash), {@code h} (hash), {@code t} (ts_ms), {@code b} (the canonical body)</td></tr>
 *   <tr><td>{@code audit:{tenant}:head}</td><td>string</td><td>{@code <seq>:<hash>} of the tenant's last record: an append checks it and moves it in one script</td></tr>
 *   <tr><td>{@code audit:{tenant}:anchor}</td><td>string</td><td>{@code <seq>:<hash>} of the last record retention removed (absent: none)</td></tr>
 *   <tr><td>{@code audit:tenants}</td><td>set</td><td>tenants with a partition, for {@code audit verify} and retention</td></tr>
 * </table>
 * The three keys of a tenant's partition share the hash tag {@code {tenant}}, so every script that
 * touches them stays in one Redis Cluster slot. Corrections also write the idempotency entry {@code idem:{key}} and the cached index
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

  /** The tenant's audit stream; its head and anchor keys share its {@code {tenant}} hash tag. */
  String audit(String tenant) {
    return prefix + "audit:{" + tenant + "}";
  }

  String auditHead(String tenant) {
    return audit(tenant) + ":head";
  }

  String auditAnchor(String tenant) {
    return audit(tenant) + ":anchor";
  }

  String auditTenants() {
    return prefix + "audit:tenants";
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
}
