package dev.georesolver.state.redis;

import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Debt;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.redis.RedisKeys;
import dev.georesolver.state.Legacy;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.AuditRules;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.Cursors;
import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The earlier layout of the state on Redis, read: the keys {@link RedisKeys} documents besides the
 * primitives' ({@code reconcile} and its item hashes {@code rq:<debtKey>}, {@code reconcile:delayed},
 * {@code reconcile:dead}, {@code reconcile:done}, the outbox stream {@code corrections}, the
 * {@code corrected:<id>} markers, {@code corrections:cursors}, each tenant's {@code audit:{tenant}}
 * stream with its head and anchor, {@code audit:tenants}, each job's {@code {batch:<id>}:*} keys,
 * {@code batches}, {@code batches:open} and the {@code batch-idem:*} names), on one server or a
 * cluster alike. Item hashes and markers are found with {@code SCAN}, run by a read-only script
 * named after the queue's key, so on a cluster it runs on the master that holds the queue's slot;
 * everything else is reached from its registry (the tenants' set, the job list). Every command keeps
 * to one slot. Use from the state verticle's context.
 */
public final class RedisLegacy implements Legacy {

  private static final Logger log = LoggerFactory.getLogger(RedisLegacy.class);

  /** {@code SCAN} in the slot of KEYS[1]: ARGV cursor, pattern, count. */
  static final String SCAN = "return redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3])";

  private final GuardedRedis redis;
  private final RedisKeys keys;
  private final String prefix;

  /**
   * @param prefix the configured key prefix, as the earlier release used it
   */
  public RedisLegacy(GuardedRedis redis, String prefix) {
    this.redis = redis;
    this.keys = new RedisKeys(prefix, redis.cluster());
    this.prefix = prefix;
  }

  @Override
  public String describe() {
    return "the earlier Redis keys under " + Legacy.printable(prefix);
  }

  /** The queue group's keys that always exist once the earlier store ran (the stream was made at its start). */
  private List<String> queueRoots() {
    return List.of(keys.reconcile(), keys.delayed(), keys.dead(), keys.doneCount(), keys.corrections(), keys.cursors());
  }

  private List<String> otherRoots() {
    return List.of(keys.auditTenants(), keys.batches(), keys.batchesOpen());
  }

  @Override
  public Future<Boolean> present() {
    List<Future<Response>> all = new ArrayList<>();
    // The queue's keys share one slot on a cluster: one command; the registries are a command each.
    Request q = Request.cmd(Command.EXISTS);
    queueRoots().forEach(q::arg);
    all.add(redis.send(q));
    otherRoots().forEach(k -> all.add(redis.send(Request.cmd(Command.EXISTS).arg(k))));
    return Future.all(all).map(cf -> {
      for (int i = 0; i < cf.size(); i++) {
        Response r = cf.resultAt(i);
        if (r != null && r.toLong() > 0) {
          return true;
        }
      }
      return false;
    });
  }

  /**
   * {@inheritDoc} What every write of the earlier scripts moves: the queue stream and its group
   * (an enqueue, a lease, a settlement), the outbox stream, the done count, the delayed set, the dead
   * letters, the delivery cursors, each tenant's head and anchor, the job lists and each open job's
   * figures.
   */
  @Override
  public Future<String> fingerprint() {
    List<Supplier<Future<String>>> probes = List.of(
        () -> xinfo("STREAM", keys.reconcile()),
        () -> xinfo("GROUPS", keys.reconcile()),
        () -> xinfo("STREAM", keys.corrections()),
        () -> probe(Request.cmd(Command.GET).arg(keys.doneCount())),
        () -> probe(Request.cmd(Command.ZRANGE).arg(keys.delayed()).arg(0).arg(-1).arg("WITHSCORES")),
        () -> probe(Request.cmd(Command.HLEN).arg(keys.dead())),
        () -> probe(Request.cmd(Command.HGETALL).arg(keys.cursors())),
        () -> probe(Request.cmd(Command.ZCARD).arg(keys.batches())));
    Future<List<String>> parts = Future.succeededFuture(new ArrayList<>());
    for (Supplier<Future<String>> p : probes) {
      parts = parts.compose(out -> p.get().map(v -> {
        out.add(v);
        return out;
      }));
    }
    return parts.compose(out -> auditTenants().compose(ts -> {
      Future<List<String>> all = Future.succeededFuture(out);
      for (String t : ts) {
        all = all.compose(o -> probe(Request.cmd(Command.GET).arg(keys.auditHead(t))).compose(h -> probe(Request.cmd(Command.GET)
            .arg(keys.auditAnchor(t))).map(a -> {
              o.add(t + "=" + h + "/" + a);
              return o;
            })));
      }
      return all;
    })).compose(out -> redis.send(Request.cmd(Command.ZRANGE).arg(keys.batchesOpen()).arg(0).arg(-1)).compose(ids -> {
      Future<List<String>> all = Future.succeededFuture(out);
      for (Response id : ids == null ? List.<Response>of() : ids) {
        all = all.compose(o -> probe(Request.cmd(Command.HMGET).arg(keys.batchJob(id.toString())).arg("state").arg("done"))
            .map(v -> {
              o.add(id + "=" + v);
              return o;
            }));
      }
      return all;
    })).map(out -> String.join("|", out));
  }

  private Future<String> probe(Request r) {
    return redis.send(r).map(RedisLegacy::text);
  }

  /** {@code XINFO <sub> key}, only when the stream is there: it fails on a missing key, and a failure counts against the breaker. */
  private Future<String> xinfo(String sub, String key) {
    return redis.send(Request.cmd(Command.EXISTS).arg(key))
        .compose(n -> num(n) == 0 ? Future.succeededFuture("-") : probe(Request.cmd(Command.XINFO).arg(sub).arg(key)));
  }

  /** A reply, nested ones included, as text. */
  static String text(Response r) {
    if (r == null) {
      return "-";
    }
    if (r.type() == ResponseType.MULTI) {
      StringBuilder sb = new StringBuilder("[");
      try {
        if (!r.getKeys().isEmpty()) {
          for (String k : new TreeSet<>(r.getKeys())) {
            sb.append(k).append('=').append(text(r.get(k))).append(',');
          }
          return sb.append(']').toString();
        }
      } catch (RuntimeException notAMap) {
        // an array
      }
      for (Response e : r) {
        sb.append(text(e)).append(',');
      }
      return sb.append(']').toString();
    }
    return r.toString();
  }

  @Override
  public Future<Map<String, Long>> counts() {
    Map<String, Long> out = new LinkedHashMap<>();
    return redis.batch(List.of(Request.cmd(Command.XLEN).arg(keys.corrections()), Request.cmd(Command.HLEN).arg(keys.cursors()),
            Request.cmd(Command.HLEN).arg(keys.dead()), Request.cmd(Command.ZCOUNT).arg(keys.delayed()).arg("(0").arg("+inf")))
        .compose(r -> {
          out.put("outbox", num(r.get(0)));
          out.put("cursors", num(r.get(1)));
          out.put("queue.dead", num(r.get(2)));
          out.put("queue.delayed", num(r.get(3)));
          return auditTenants();
        })
        .compose(tenants -> {
          List<Future<Response>> lens = new ArrayList<>();
          tenants.forEach(t -> lens.add(redis.send(Request.cmd(Command.XLEN).arg(keys.audit(t)))));
          return Future.all(lens).map(cf -> {
            long n = 0;
            for (int i = 0; i < cf.size(); i++) {
              n += num(cf.resultAt(i));
            }
            out.put("audit", n);
            return null;
          });
        })
        .compose(v -> countJobs(0, new long[2]))
        .map(jobs -> {
          out.put("jobs", jobs[0]);
          out.put("batch_rows", jobs[1]);
          return out;
        });
  }

  /** The jobs that have their hash, and their rows, from rank {@code from} of the job list on. */
  private Future<long[]> countJobs(long from, long[] sum) {
    return redis.send(Request.cmd(Command.ZRANGE).arg(keys.batches()).arg(from).arg(from + JOB_PAGE - 1)).compose(ids -> {
      List<Future<List<Response>>> each = new ArrayList<>();
      for (Response id : ids == null ? List.<Response>of() : ids) {
        each.add(redis.batch(List.of(Request.cmd(Command.EXISTS).arg(keys.batchJob(id.toString())),
            Request.cmd(Command.HLEN).arg(keys.batchRows(id.toString())))));
      }
      return Future.all(each).compose(cf -> {
        for (int i = 0; i < cf.size(); i++) {
          List<Response> r = cf.resultAt(i);
          if (num(r.get(0)) > 0) {
            sum[0]++;
            sum[1] += num(r.get(1));
          }
        }
        return cf.size() < JOB_PAGE ? Future.succeededFuture(sum) : countJobs(from + JOB_PAGE, sum);
      });
    });
  }

  /** Jobs read per step of the job list. */
  static final int JOB_PAGE = 200;

  private static long num(Response r) {
    return r == null ? 0 : r.toLong();
  }

  private static String str(Response r) {
    return r == null ? null : r.toString();
  }

  /** {@code s} as a literal in a {@code SCAN MATCH} pattern. */
  static String glob(String s) {
    return s.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
  }

  /** One {@code SCAN} step over the keys starting with {@code keyPrefix}, in the queue's slot: {@code [cursor, keys]}. */
  private Future<Response> scan(String keyPrefix, String cursor, int count) {
    return redis.send(Request.cmd(Command.EVAL).arg(SCAN).arg(1).arg(keys.reconcile()).arg(cursor == null ? "0" : cursor)
        .arg(glob(keyPrefix) + "*").arg(count));
  }

  private static String nextCursor(Response scanned) {
    String c = scanned.get(0).toString();
    return "0".equals(c) ? null : c;
  }

  private static List<String> scannedKeys(Response scanned) {
    List<String> out = new ArrayList<>();
    for (Response k : scanned.get(1)) {
      out.add(k.toString());
    }
    return out;
  }

  @Override
  public Future<Page<QueueItem>> queue(String after, int limit, long nowMs) {
    String markers = keys.markerPrefix();
    // SCAN's count is the slots looked at, not the keys found: most keys of the server are not items.
    return scan(markers, after, limit * 4).compose(scanned -> {
      List<String> ks = scannedKeys(scanned);
      String next = nextCursor(scanned);
      if (ks.isEmpty()) {
        return Future.succeededFuture(new Page<QueueItem>(List.of(), next));
      }
      List<Request> rs = new ArrayList<>(ks.size() * 2);
      for (String k : ks) {
        rs.add(Request.cmd(Command.HGETALL).arg(k));
        rs.add(Request.cmd(Command.ZSCORE).arg(keys.delayed()).arg(k.substring(markers.length())));
      }
      return redis.batch(rs).map(out -> {
        List<QueueItem> items = new ArrayList<>(ks.size());
        int unreadable = 0;
        for (int i = 0; i < ks.size(); i++) {
          Map<String, String> h = toMap(out.get(2 * i));
          if (h.isEmpty()) {
            continue; // a done item's hash expired since the scan found it
          }
          try {
            items.add(item(h, str(out.get(2 * i + 1)), nowMs));
          } catch (RuntimeException e) {
            unreadable++;
            log.warn("state store: queue item {} of the earlier layout is unreadable and is left out: {}",
                Legacy.printable(ks.get(i).substring(markers.length())), Legacy.printable(e.getMessage()));
          }
        }
        return new Page<>(items, next, unreadable);
      });
    });
  }

  /**
   * An item hash as the earlier scripts kept it: the debt, its state and attempts, the lease, the
   * answer's and the acceptance's times; a pending item backing off is in the delayed set, scored by
   * when it is due. The layout kept no time of the last change: {@code nowMs} stands for it, so done
   * items are kept a week from the migration.
   */
  static QueueItem item(Map<String, String> h, String delayedScore, long nowMs) {
    JsonObject debt = new JsonObject(h.get("debt"));
    if (h.get("answer_resolved_at") != null) {
      debt.put("answer_resolved_at_ms", longOr(h.get("answer_resolved_at"), 0));
    }
    if (longOr(h.get("accepted_at"), 0) > 0) {
      debt.put("accepted_at_ms", longOr(h.get("accepted_at"), 0));
    }
    Debt d = Debt.fromJson(debt);
    String state = h.get("state");
    boolean inProgress = QueueRules.IN_PROGRESS.equals(state);
    Long leaseUntil = inProgress ? Long.valueOf(longOr(h.get("lease_until"), 0)) : null;
    long notBefore = QueueRules.PENDING.equals(state) && delayedScore != null ? (long) Double.parseDouble(delayedScore) : 0;
    return new QueueItem(d.debtKey(), d, state, (int) longOr(h.get("attempts"), 0), notBefore, inProgress ? empty(h.get("lease_owner")) : null,
        leaseUntil, d.acceptedAtMs(), empty(h.get("outcome")), empty(h.get("last_error")), nowMs);
  }

  /** A number as the earlier scripts wrote it (an integer, or Lua's rendering of one), or {@code dflt}. */
  private static long longOr(String v, long dflt) {
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException notAnInteger) {
      return (long) Double.parseDouble(v);
    }
  }

  private static String empty(String v) {
    return v == null || v.isEmpty() ? null : v;
  }

  @Override
  public Future<Page<OutboxEntry>> outbox(String after, int limit) {
    String from = after == null ? "-" : "(" + after;
    return redis.send(Request.cmd(Command.XRANGE).arg(keys.corrections()).arg(from).arg("+").arg("COUNT").arg(limit)).map(r -> {
      List<OutboxEntry> out = new ArrayList<>();
      int unreadable = 0;
      String last = after;
      int n = r == null ? 0 : r.size();
      for (int i = 0; i < n; i++) {
        Response e = r.get(i);
        last = e.get(0).toString();
        try {
          JsonObject c = new JsonObject(toMap(e.get(1)).get("c"));
          c.remove("cursor");
          out.add(new OutboxEntry(Cursors.seq(last), c));
        } catch (RuntimeException bad) {
          unreadable++;
          log.warn("state store: outbox entry {} of the earlier layout is unreadable and is left out", Legacy.printable(last));
        }
      }
      return new Page<>(out, n < limit ? null : last, unreadable);
    });
  }

  @Override
  public Future<List<DeliveryCursor>> cursors() {
    return redis.send(Request.cmd(Command.HGETALL).arg(keys.cursors())).map(r -> {
      List<DeliveryCursor> out = new ArrayList<>();
      toMap(r).forEach((name, v) -> {
        if (Cursors.valid(v)) {
          // A stream id becomes the number its entry was migrated to.
          out.add(new DeliveryCursor(name, Long.toString(Cursors.seq(v))));
        } else {
          log.warn("state store: delivery cursor {} of the earlier layout holds no cursor ({}); it is left out and delivery starts "
              + "from the head", Legacy.printable(name), Legacy.printable(v));
          out.add(new DeliveryCursor(name, null));
        }
      });
      return out;
    });
  }

  @Override
  public Future<List<String>> auditTenants() {
    return redis.send(Request.cmd(Command.SMEMBERS).arg(keys.auditTenants())).map(r -> {
      List<String> out = new ArrayList<>();
      if (r != null) {
        r.forEach(t -> out.add(t.toString()));
      }
      out.sort(null);
      return out;
    });
  }

  @Override
  public Future<AuditChain.Anchor> auditAnchor(String tenant) {
    return redis.send(Request.cmd(Command.GET).arg(keys.auditAnchor(tenant))).map(r -> {
      if (r == null) {
        return AuditChain.Anchor.NONE;
      }
      String v = r.toString();
      int colon = v.indexOf(':');
      return new AuditChain.Anchor(Long.parseLong(v.substring(0, colon)), v.substring(colon + 1));
    });
  }

  @Override
  public Future<Page<AuditRules.Link>> audit(String tenant, String after, int limit) {
    long from = after == null ? 0 : Long.parseLong(after);
    return redis.send(Request.cmd(Command.XRANGE).arg(keys.audit(tenant)).arg((from + 1) + "-0").arg("+").arg("COUNT").arg(limit))
        .map(r -> {
          List<AuditRules.Link> out = new ArrayList<>();
          long last = from;
          int n = r == null ? 0 : r.size();
          for (int i = 0; i < n; i++) {
            Response e = r.get(i);
            String id = e.get(0).toString();
            Map<String, String> f = toMap(e.get(1));
            last = f.get("s") != null ? Long.parseLong(f.get("s")) : Long.parseLong(id.substring(0, id.indexOf('-')));
            out.add(new AuditRules.Link(last, recordId(f.get("b")), longOr(f.get("t"), 0), f.get("p"), f.get("h"), f.get("b")));
          }
          return new Page<>(out, n < limit ? null : Long.toString(last));
        });
  }

  /** The record's id from its body (the earlier layout kept it there only); null when the body is not JSON. */
  private static String recordId(String body) {
    try {
      return new JsonObject(body).getString("id");
    } catch (RuntimeException notJson) {
      return null;
    }
  }

  @Override
  public Future<Page<BatchJob>> jobs(String after, int limit) {
    long from = after == null ? 0 : Long.parseLong(after);
    return redis.send(Request.cmd(Command.ZRANGE).arg(keys.batches()).arg(from).arg(from + limit - 1)).compose(ids -> {
      List<String> idList = new ArrayList<>();
      if (ids != null) {
        ids.forEach(id -> idList.add(id.toString()));
      }
      List<Future<Response>> each = new ArrayList<>();
      idList.forEach(id -> each.add(redis.send(Request.cmd(Command.HGETALL).arg(keys.batchJob(id)))));
      return Future.all(each).map(cf -> {
        List<BatchJob> out = new ArrayList<>();
        int unreadable = 0;
        for (int i = 0; i < cf.size(); i++) {
          Map<String, String> m = toMap(cf.resultAt(i));
          if (m.isEmpty()) {
            continue;
          }
          try {
            out.add(job(m));
          } catch (RuntimeException e) {
            unreadable++;
            log.warn("state store: batch job {} of the earlier layout is unreadable and is left out", Legacy.printable(idList.get(i)));
          }
        }
        return new Page<>(out, idList.size() < limit ? null : Long.toString(from + limit), unreadable);
      });
    });
  }

  static BatchJob job(Map<String, String> m) {
    return new BatchJob(m.get("id"), m.get("tenant"), m.get("idem_key"), m.get("state"), new JsonObject(m.get("spec")),
        longOr(m.get("total"), 0), longOr(m.get("done"), 0), longOr(m.get("resolved"), 0), longOr(m.get("refused"), 0),
        longOr(m.get("invalid"), 0), longOr(m.get("failed"), 0), longOr(m.get("created_at"), 0),
        m.get("started_at") == null ? null : longOr(m.get("started_at"), 0),
        m.get("finished_at") == null ? null : longOr(m.get("finished_at"), 0));
  }

  @Override
  public Future<Page<BatchRow>> batchRows(BatchJob job, String after, int limit) {
    return redis.send(Request.cmd(Command.HSCAN).arg(keys.batchRows(job.id())).arg(after == null ? "0" : after).arg("COUNT").arg(limit))
        .compose(scanned -> {
          String c = scanned.get(0).toString();
          String next = "0".equals(c) ? null : c;
          Response pairs = scanned.get(1);
          List<String> idx = new ArrayList<>();
          List<String> rows = new ArrayList<>();
          for (int i = 0; i + 1 < pairs.size(); i += 2) {
            idx.add(pairs.get(i).toString());
            rows.add(pairs.get(i + 1).toString());
          }
          if (idx.isEmpty()) {
            return Future.succeededFuture(new Page<BatchRow>(List.of(), next));
          }
          Request results = Request.cmd(Command.HMGET).arg(keys.batchResults(job.id()));
          idx.forEach(results::arg);
          return redis.send(results).map(res -> {
            List<BatchRow> out = new ArrayList<>(idx.size());
            int unreadable = 0;
            for (int i = 0; i < idx.size(); i++) {
              try {
                Response result = res.get(i);
                out.add(new BatchRow(Long.parseLong(idx.get(i)), new JsonObject(rows.get(i)),
                    result == null ? null : new JsonObject(result.toString())));
              } catch (RuntimeException e) {
                unreadable++;
                log.warn("state store: row {} of batch job {} of the earlier layout is unreadable and is left out",
                    Legacy.printable(idx.get(i)), Legacy.printable(job.id()));
              }
            }
            return new Page<>(out, next, unreadable);
          });
        });
  }

  /**
   * An open job's slices: one with rows left is in the job's slice set, scored by when its lease
   * ends (0: free), its holder in the owners hash; one not in the set is done. An ended job's slices
   * are of no use (a lease never looks at them): none.
   */
  @Override
  public Future<List<Slice>> slices(BatchJob job, long from, int limit) {
    long to = Math.min(BatchRules.slices(job.total(), job.sliceRows()), from + limit);
    if (!job.open() || to <= from) {
      return Future.succeededFuture(List.of());
    }
    List<Request> rs = new ArrayList<>();
    for (long s = from; s < to; s++) {
      rs.add(Request.cmd(Command.ZSCORE).arg(keys.batchSlices(job.id())).arg(s));
      rs.add(Request.cmd(Command.HGET).arg(keys.batchOwners(job.id())).arg(s));
    }
    return redis.batch(rs).map(out -> {
      List<Slice> slices = new ArrayList<>();
      for (long s = from; s < to; s++) {
        int i = (int) (s - from) * 2;
        String score = str(out.get(i));
        slices.add(new Slice(s, score == null ? new BatchRules.Slice(null, 0, true)
            : new BatchRules.Slice(str(out.get(i + 1)), (long) Double.parseDouble(score), false)));
      }
      return slices;
    });
  }

  @Override
  public Future<Page<CacheEntry>> cache(String kind, String after, int limit) {
    // The earlier Redis store kept no write-behind: the shared cache is Redis itself.
    return Future.succeededFuture(new Page<>(List.of(), null));
  }

  /**
   * Removes the earlier keys, the ones found from a registry before the registry itself, so that a
   * removal cut short leaves the registries, and the next start finds what is left: each tenant's
   * chain, each job's keys and its idempotency name, the item hashes and the corrected markers, and
   * last the queue's keys and the registries. {@code UNLINK}: a large hash is freed in the
   * background, not while the server waits.
   */
  @Override
  public Future<Void> remove() {
    return auditTenants().compose(ts -> {
      List<Future<Response>> all = new ArrayList<>();
      ts.forEach(t -> all.add(redis.send(Request.cmd(Command.UNLINK).arg(keys.audit(t)).arg(keys.auditHead(t)).arg(keys.auditAnchor(t)))));
      return Future.all(all);
    }).compose(v -> removeJobs())
        .compose(v -> removeScanned(keys.markerPrefix(), null))
        .compose(v -> removeScanned(correctedPrefix(), null))
        .compose(v -> {
          Request q = Request.cmd(Command.UNLINK);
          queueRoots().forEach(q::arg);
          return redis.send(q);
        })
        .compose(v -> {
          List<Future<Response>> all = new ArrayList<>();
          otherRoots().forEach(k -> all.add(redis.send(Request.cmd(Command.UNLINK).arg(k))));
          return Future.all(all);
        }).mapEmpty();
  }

  /** The prefix of the markers of answers corrected: a marker is this plus the correction's id. */
  private String correctedPrefix() {
    return keys.corrected("");
  }

  private Future<Void> removeJobs() {
    return redis.send(Request.cmd(Command.ZRANGE).arg(keys.batches()).arg(0).arg(JOB_PAGE - 1)).compose(ids -> {
      List<Future<Response>> each = new ArrayList<>();
      for (Response r : ids == null ? List.<Response>of() : ids) {
        String id = r.toString();
        each.add(redis.send(Request.cmd(Command.HMGET).arg(keys.batchJob(id)).arg("tenant").arg("idem_key"))
            .compose(h -> h == null || h.get(0) == null || h.get(1) == null ? Future.succeededFuture((Response) null)
                : redis.send(Request.cmd(Command.UNLINK).arg(keys.batchIdem(h.get(0).toString(), h.get(1).toString()))))
            .compose(x -> redis.send(Request.cmd(Command.UNLINK).arg(keys.batchJob(id)).arg(keys.batchRows(id)).arg(keys.batchResults(id))
                .arg(keys.batchSlices(id)).arg(keys.batchOwners(id))))
            .compose(x -> redis.send(Request.cmd(Command.ZREM).arg(keys.batchesOpen()).arg(id)))
            .compose(x -> redis.send(Request.cmd(Command.ZREM).arg(keys.batches()).arg(id))));
      }
      int n = each.size();
      return Future.all(each).compose(cf -> n < JOB_PAGE ? Future.succeededFuture() : removeJobs());
    });
  }

  /** Unlinks every key starting with {@code keyPrefix} in the queue's slot, a scan step at a time. */
  private Future<Void> removeScanned(String keyPrefix, String cursor) {
    return scan(keyPrefix, cursor, 1000).compose(scanned -> {
      List<String> ks = scannedKeys(scanned);
      String next = nextCursor(scanned);
      Future<Response> gone = Future.succeededFuture();
      if (!ks.isEmpty()) {
        Request u = Request.cmd(Command.UNLINK);
        ks.forEach(u::arg);
        gone = redis.send(u);
      }
      return gone.compose(v -> next == null ? Future.succeededFuture() : removeScanned(keyPrefix, next));
    });
  }

  /** A flat field/value reply (RESP2) or a RESP3 map, as a map. */
  static Map<String, String> toMap(Response r) {
    Map<String, String> m = new HashMap<>();
    if (r == null) {
      return m;
    }
    if (r.type() == ResponseType.MULTI) {
      try {
        if (!r.getKeys().isEmpty()) {
          for (String k : r.getKeys()) {
            Response v = r.get(k);
            m.put(k, v == null ? null : v.toString());
          }
          return m;
        }
      } catch (RuntimeException notAMap) {
        // an array: read it as pairs below
      }
    }
    for (int i = 0; i + 1 < r.size(); i += 2) {
      Response v = r.get(i + 1);
      m.put(r.get(i).toString(), v == null ? null : v.toString());
    }
    return m;
  }
}
