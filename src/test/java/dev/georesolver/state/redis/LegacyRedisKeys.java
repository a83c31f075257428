package dev.georesolver.state.redis;

import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.redis.RedisKeys;
import dev.georesolver.state.EarlierLayout;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import dev.georesolver.support.OnContext;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * Redis keys in the earlier release's layout under a prefix, on one server or a cluster: written
 * with raw commands to hold what the earlier scripts left (the key table of {@link RedisKeys}): item
 * hashes with their stream entry, delayed or dead membership, the outbox stream and its corrected
 * markers, the audit streams with their heads, anchors and the tenants' set, and the batch keys.
 */
public final class LegacyRedisKeys implements EarlierLayout {

  /** Done item hashes lived this long once done, seconds. */
  static final long DONE_TTL_S = 7 * 86_400;
  /** Corrected markers lived this long, seconds. */
  static final long CORRECTED_TTL_S = 30 * 86_400;

  private final OnContext on;
  private final GuardedRedis redis;
  private final RedisKeys keys;

  /** Keys under {@code prefix} in the Redis at {@code url}; the queue's stream and its group made, as the earlier store did at start. */
  public LegacyRedisKeys(OnContext on, String url, String prefix) {
    this(on, url, prefix, true);
  }

  /** @param started whether to make the queue's stream and group, as the earlier store did at start (false: only look) */
  public LegacyRedisKeys(OnContext on, String url, String prefix, boolean started) {
    this.on = on;
    this.redis = new GuardedRedis(on.vertx(), "legacy-fixture", url, 5000, new Metrics());
    this.keys = new RedisKeys(prefix, redis.cluster());
    if (started) {
      on.await(() -> redis.send(Request.cmd(Command.XGROUP).arg("CREATE").arg(keys.reconcile()).arg(RedisKeys.GROUP).arg("0")
          .arg("MKSTREAM")).otherwise((Response) null));
    }
  }

  /** The earlier key rules. */
  public RedisKeys keys() {
    return keys;
  }

  /** Sends one command and waits. */
  public Response send(Request r) {
    return on.await(() -> redis.send(r));
  }

  private String debtKeyOf(QueueItem i) {
    return i.key();
  }

  @Override
  public void item(QueueItem i) {
    String k = debtKeyOf(i);
    String m = keys.marker(k);
    Request h = Request.cmd(Command.HSET).arg(m).arg("debt").arg(i.debt().toJson().encode()).arg("state").arg(i.state())
        .arg("attempts").arg(i.attempts()).arg("answer_resolved_at").arg(i.answerResolvedAtMs()).arg("accepted_at").arg(i.acceptedAtMs());
    String entry = "";
    boolean backingOff = QueueRules.PENDING.equals(i.state()) && i.notBeforeMs() > 0;
    if (i.open() && !backingOff) {
      entry = send(Request.cmd(Command.XADD).arg(keys.reconcile()).arg("*").arg("k").arg(k)).toString();
    }
    h.arg("entry").arg(entry);
    if (QueueRules.IN_PROGRESS.equals(i.state())) {
      h.arg("lease_owner").arg(i.leaseOwner()).arg("lease_until").arg(i.leaseUntilMs());
    }
    if (i.outcome() != null) {
      h.arg("outcome").arg(i.outcome());
    }
    if (i.lastError() != null) {
      h.arg("last_error").arg(i.lastError());
    }
    send(h);
    if (backingOff) {
      send(Request.cmd(Command.ZADD).arg(keys.delayed()).arg(i.notBeforeMs()).arg(k));
    }
    if (QueueRules.DONE.equals(i.state())) {
      send(Request.cmd(Command.EXPIRE).arg(m).arg(DONE_TTL_S));
      send(Request.cmd(Command.INCR).arg(keys.doneCount()));
    }
    if (QueueRules.DEAD.equals(i.state())) {
      send(Request.cmd(Command.HSET).arg(keys.dead()).arg(k).arg(i.lastError() == null ? "failed" : i.lastError()));
    }
  }

  /** {@inheritDoc} The entry's id is {@code <atMs>-<n>}, the next free one of that millisecond. */
  @Override
  public String correction(Correction c, long atMs) {
    String id = send(Request.cmd(Command.XADD).arg(keys.corrections()).arg(atMs + "-*").arg("c").arg(c.toJson().encode())).toString();
    send(Request.cmd(Command.SET).arg(keys.corrected(c.correctionId())).arg(id).arg("EX").arg(CORRECTED_TTL_S));
    return id;
  }

  @Override
  public void cursor(String name, String cursor) {
    send(Request.cmd(Command.HSET).arg(keys.cursors()).arg(name).arg(cursor));
  }

  @Override
  public void audit(String tenant, List<AuditEvent> events) {
    Response h = send(Request.cmd(Command.GET).arg(keys.auditHead(tenant)));
    Response a = send(Request.cmd(Command.GET).arg(keys.auditAnchor(tenant)));
    AuditChain.Anchor head = h != null ? RedisStateStoreAnchors.parse(h.toString())
        : a != null ? RedisStateStoreAnchors.parse(a.toString()) : AuditChain.Anchor.NONE;
    for (AuditEvent e : events) {
      long seq = head.seq() + 1;
      String hash = AuditChain.hash(head.hash(), seq, e.body());
      send(Request.cmd(Command.XADD).arg(keys.audit(tenant)).arg(seq + "-0").arg("s").arg(seq).arg("p").arg(head.hash()).arg("h")
          .arg(hash).arg("t").arg(e.tsMs()).arg("b").arg(e.body()));
      head = new AuditChain.Anchor(seq, hash);
    }
    send(Request.cmd(Command.SET).arg(keys.auditHead(tenant)).arg(head.seq() + ":" + head.hash()));
    send(Request.cmd(Command.SADD).arg(keys.auditTenants()).arg(tenant));
  }

  @Override
  public void retain(String tenant, long upTo) {
    Response es = send(Request.cmd(Command.XRANGE).arg(keys.audit(tenant)).arg("-").arg(upTo + "-0"));
    String hash = null;
    List<String> ids = new ArrayList<>();
    for (Response e : es) {
      ids.add(e.get(0).toString());
      Response f = e.get(1);
      for (int i = 0; i + 1 < f.size(); i += 2) {
        if ("h".equals(f.get(i).toString())) {
          hash = f.get(i + 1).toString();
        }
      }
    }
    send(Request.cmd(Command.SET).arg(keys.auditAnchor(tenant)).arg(upTo + ":" + hash));
    for (String id : ids) {
      send(Request.cmd(Command.XDEL).arg(keys.audit(tenant)).arg(id));
    }
  }

  @Override
  public void job(BatchJob j) {
    Request h = Request.cmd(Command.HSET).arg(keys.batchJob(j.id())).arg("id").arg(j.id()).arg("tenant").arg(j.tenant())
        .arg("idem_key").arg(j.idemKey()).arg("state").arg(j.state()).arg("spec").arg(j.spec().encode()).arg("total").arg(j.total())
        .arg("done").arg(j.done()).arg("resolved").arg(j.resolved()).arg("refused").arg(j.refused()).arg("invalid").arg(j.invalid())
        .arg("failed").arg(j.failed()).arg("created_at").arg(j.createdAtMs());
    if (j.startedAtMs() != null) {
      h.arg("started_at").arg(j.startedAtMs());
    }
    if (j.finishedAtMs() != null) {
      h.arg("finished_at").arg(j.finishedAtMs());
    }
    send(h);
    send(Request.cmd(Command.ZADD).arg(keys.batches()).arg(j.createdAtMs()).arg(j.id()));
    if (j.open()) {
      send(Request.cmd(Command.ZADD).arg(keys.batchesOpen()).arg(j.createdAtMs()).arg(j.id()));
    }
    send(Request.cmd(Command.SET).arg(keys.batchIdem(j.tenant(), j.idemKey())).arg(j.id()));
  }

  @Override
  public void row(String jobId, long i, JsonObject row, JsonObject result) {
    send(Request.cmd(Command.HSET).arg(keys.batchRows(jobId)).arg(i).arg(row.encode()));
    if (result != null) {
      send(Request.cmd(Command.HSET).arg(keys.batchResults(jobId)).arg(i).arg(result.encode()));
    }
  }

  /** {@inheritDoc} A done slice left the slice set: nothing is written for it. */
  @Override
  public void slice(String jobId, long number, BatchRules.Slice s) {
    if (s.done()) {
      return;
    }
    send(Request.cmd(Command.ZADD).arg(keys.batchSlices(jobId)).arg(s.leaseUntilMs()).arg(number));
    if (s.owner() != null) {
      send(Request.cmd(Command.HSET).arg(keys.batchOwners(jobId)).arg(number).arg(s.owner()));
    }
  }

  @Override
  public void idem(String key, StoredEntry e, long resolvedAtMs) {
    throw new UnsupportedOperationException("the earlier Redis store kept no write-behind");
  }

  @Override
  public void index(IndexEntry e, long expiresAtMs) {
    throw new UnsupportedOperationException("the earlier Redis store kept no write-behind");
  }

  @Override
  public void close() {
    on.await(redis::close);
  }

  /** {@code <seq>:<hash>} as the earlier store wrote heads and anchors. */
  private static final class RedisStateStoreAnchors {
    static AuditChain.Anchor parse(String v) {
      int colon = v.indexOf(':');
      return new AuditChain.Anchor(Long.parseLong(v.substring(0, colon)), v.substring(colon + 1));
    }
  }
}
