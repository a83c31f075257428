package dev.georesolver.state;

import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.BatchQuota;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.tables.Row;
import dev.georesolver.state.tables.Table;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Batch jobs over {@link Tables}. Each job is a group of its own ({@code batch:<id>}): the job (state
 * and counts), its rows as submitted, their results (each row's first result only), and its slices
 * (indexed while they have rows left, by when their lease ends). Group {@value #GROUP} lists the jobs
 * (newest first; the open ones oldest first) and maps a tenant's idempotency key to its job. Every
 * decision is {@link BatchRules}'. Use from the state verticle's context.
 */
final class BatchStore implements StateStore.Batches {

  static final String GROUP = "batches";
  /**
   * Every job: {@code created} scored by minus its creation time (newest first), {@code open} by it
   * (oldest first), {@code ended} by when it ended (the ones past {@code keep_days} are removed).
   */
  static final Table JOBS = Table.of(GROUP, "jobs", "created", "open", "ended");
  /**
   * {@code <tenant>} → its live jobs (not ended) and their rows, {@code {"<job id>": rows}}: what
   * its quota is checked against; changed in the transaction that lists a new job, so two
   * submissions cannot both take the last place.
   */
  static final Table USAGE = Table.of(GROUP, "usage", "tenants");
  /** {@code <job id>} → a removal under way ({@code {"total", "slices", "rows_from", "slices_from"}}): the job is gone, its rows go chunk by chunk. */
  static final Table EXPIRING = Table.of(GROUP, "expiring", "all");
  /** {@code <tenant>|<idem key>} → the job's id. */
  static final Table IDEM = Table.of(GROUP, "idem");
  /** {@code last} → the tenant the previous lease went to (tenants take turns: {@link BatchRules#fairOrder}). */
  static final Table FAIR = Table.of(GROUP, "fair");
  /** Slices free or leased (not done), scored by when their lease ends (0: free). */
  static final String FREE = "free";
  /** Jobs looked at per lease. */
  static final int OPEN_SCAN = 100;

  private final Tables tables;
  private final Clock clock;

  BatchStore(Tables tables, Clock clock) {
    this.tables = tables;
    this.clock = clock;
  }

  static String group(String jobId) {
    return "batch:" + jobId;
  }

  static Table job(String jobId) {
    return Table.of(group(jobId), "job");
  }

  static Table rows(String jobId) {
    return Table.of(group(jobId), "rows");
  }

  static Table results(String jobId) {
    return Table.of(group(jobId), "results");
  }

  static Table slices(String jobId) {
    return Table.of(group(jobId), "slices", FREE);
  }

  private static String idemKey(String tenant, String idemKey) {
    return tenant + "|" + idemKey;
  }

  private static Future<BatchJob> readJob(Txn x, String id) {
    return x.get(job(id), "job").map(r -> r.exists() ? StateCodec.job(r.body()) : null);
  }

  private static void writeJob(Txn x, BatchJob j) {
    x.put(job(j.id()), "job", StateCodec.job(j), Map.of());
  }

  private static BatchJob withSpec(BatchJob j, JsonObject spec) {
    return new BatchJob(j.id(), j.tenant(), j.idemKey(), j.state(), spec, j.total(), j.done(), j.resolved(), j.refused(), j.invalid(),
        j.failed(), j.createdAtMs(), j.startedAtMs(), j.finishedAtMs());
  }

  private static Map<String, Double> listing(BatchJob j) {
    if (j.open()) {
      return Map.of("created", (double) -j.createdAtMs(), "open", (double) j.createdAtMs());
    }
    if (j.finished() && j.finishedAtMs() != null) {
      return Map.of("created", (double) -j.createdAtMs(), "ended", (double) j.finishedAtMs());
    }
    return Map.of("created", (double) -j.createdAtMs());
  }

  /** A tenant's live jobs and their rows as stored (empty for none). */
  private static Map<String, Long> liveOf(Row usage) {
    Map<String, Long> live = new java.util.LinkedHashMap<>();
    if (usage.exists()) {
      StateCodec.json(usage.body()).forEach(e -> live.put(e.getKey(), ((Number) e.getValue()).longValue()));
    }
    return live;
  }

  private static void writeUsage(Txn x, String tenant, Map<String, Long> live) {
    if (live.isEmpty()) {
      x.delete(USAGE, tenant);
    } else {
      x.put(USAGE, tenant, StateCodec.bytes(new JsonObject(new java.util.LinkedHashMap<>(live))), Map.of("tenants", 0.0));
    }
  }

  /**
   * The job's entry in the list, moved to or out of {@code open} (and into {@code ended}) as its
   * state says; a job that ended no longer counts against its tenant's quota.
   */
  private Future<BatchJob> list(BatchJob j) {
    if (j == null) {
      return Future.succeededFuture(null);
    }
    return tables.transact(x -> {
      x.put(JOBS, j.id(), j.tenant().getBytes(StandardCharsets.UTF_8), listing(j));
      if (BatchRules.live(j)) {
        return Future.succeededFuture(j);
      }
      return x.get(USAGE, j.tenant()).map(u -> {
        Map<String, Long> live = liveOf(u);
        if (live.remove(j.id()) != null) {
          writeUsage(x, j.tenant(), live);
        }
        return j;
      });
    });
  }

  @Override
  public Future<BatchJob> find(String tenant, String idemKey) {
    return tables.read(x -> x.get(IDEM, idemKey(tenant, idemKey)))
        .compose(r -> r.exists() ? get(r.text()) : Future.succeededFuture(null))
        .map(j -> BatchRules.reusable(j) ? j : null);
  }

  @Override
  public Future<JsonObject> create(BatchJob job, BatchQuota quota) {
    String name = idemKey(job.tenant(), job.idemKey());
    return tables.read(x -> x.get(IDEM, name)).compose(seen -> {
      String seenId = seen.exists() ? seen.text() : null;
      return (seenId == null ? Future.<BatchJob>succeededFuture(null) : get(seenId)).compose(existing -> BatchRules.reusable(existing)
          ? Future.succeededFuture(new JsonObject().put("created", false).put("job", existing.toJson()))
          // A new name, one that outlived its job, or a failed job's: this job takes it, if its tenant has room.
          : claim(job, name, seenId, quota));
    });
  }

  /** Another submission took the idem name between our read of it and our claim. */
  private static final JsonObject RACED = new JsonObject().put("raced", true);

  /**
   * A fresh job: its row first (nothing lists it yet, so no one sees it), then, in one transaction,
   * its tenant's quota checked and its idem name, its entry in the list and its place in the
   * tenant's usage written; over quota nothing of it stays. A crash between the two leaves an
   * unlisted job row, never a listed job without one.
   */
  private Future<JsonObject> claim(BatchJob job, String name, String seenId, BatchQuota quota) {
    BatchJob fresh = new BatchJob(job.id(), job.tenant(), job.idemKey(), BatchJob.LOADING, job.spec(), job.total(), 0, 0, 0, 0, 0,
        job.createdAtMs(), null, null);
    return tables.transact(x -> {
      writeJob(x, fresh);
      return Future.succeededFuture();
    }).compose(v -> tables.transact(x -> x.get(IDEM, name).compose(idem -> x.get(USAGE, fresh.tenant()).map(u -> {
      if (!java.util.Objects.equals(idem.exists() ? idem.text() : null, seenId)) {
        return RACED;
      }
      Map<String, Long> live = liveOf(u);
      String over = BatchRules.overQuota(fresh.tenant(), live, quota, fresh.total());
      if (over != null) {
        return new JsonObject().put("over", over);
      }
      x.put(IDEM, name, fresh.id().getBytes(StandardCharsets.UTF_8), Map.of());
      x.put(JOBS, fresh.id(), fresh.tenant().getBytes(StandardCharsets.UTF_8), listing(fresh));
      live.put(fresh.id(), fresh.total());
      writeUsage(x, fresh.tenant(), live);
      return new JsonObject().put("created", true).put("job", fresh.toJson());
    })))).compose(r -> r.containsKey("created") ? Future.succeededFuture(r) : tables.transact(x -> {
      x.delete(job(fresh.id()), "job");
      return Future.succeededFuture();
    }).compose(v -> r.containsKey("over") ? Future.failedFuture(new BatchQuotaExceeded(r.getString("over"))) : create(job, quota)));
  }

  @Override
  public Future<Void> append(String jobId, List<JsonObject> in) {
    List<String> keys = in.stream().map(r -> Long.toString(r.getLong("i"))).toList();
    return tables.transact(x -> readJob(x, jobId).compose(j -> x.get(rows(jobId), keys).map(stored -> {
      if (j == null) {
        throw new StateStoreException("no batch job " + jobId);
      }
      List<String> statuses = new ArrayList<>();
      for (int k = 0; k < in.size(); k++) {
        if (stored.get(k).exists()) {
          continue;
        }
        JsonObject r = in.get(k);
        x.put(rows(jobId), keys.get(k), StateCodec.bytes(r.getJsonObject("row")), Map.of());
        JsonObject result = r.getJsonObject("result");
        if (result != null) {
          x.put(results(jobId), keys.get(k), StateCodec.bytes(result), Map.of());
          statuses.add(result.getString("status"));
        }
      }
      BatchJob counted = BatchRules.loaded(j, BatchRules.tally(statuses));
      writeJob(x, withSpec(counted, counted.spec().copy().put(BatchRules.LOADED_AT, clock.millis())));
      return (Void) null;
    })));
  }

  @Override
  public Future<BatchJob> seal(String jobId, long total, JsonArray columns) {
    return tables.transact(x -> readJob(x, jobId).map(j -> {
      if (j == null || !BatchJob.LOADING.equals(j.state())) {
        return j;
      }
      BatchJob withColumns = new BatchJob(j.id(), j.tenant(), j.idemKey(), j.state(), j.spec().copy().put("columns", columns), j.total(),
          j.done(), j.resolved(), j.refused(), j.invalid(), j.failed(), j.createdAtMs(), j.startedAtMs(), j.finishedAtMs());
      BatchJob sealed = BatchRules.sealed(withColumns, total, clock.millis());
      writeJob(x, sealed);
      if (sealed.open()) {
        byte[] free = StateCodec.slice(BatchRules.Slice.FREE);
        for (long s = 0; s < BatchRules.slices(total, sealed.sliceRows()); s++) {
          x.put(slices(jobId), Long.toString(s), free, Map.of(FREE, 0.0));
        }
      }
      return sealed;
    })).compose(this::list);
  }

  @Override
  public Future<BatchJob> get(String id) {
    return tables.read(x -> readJob(x, id));
  }

  @Override
  public Future<List<BatchJob>> list(String tenant, int limit) {
    int scan = tenant == null ? limit : limit * 20;
    return tables.read(x -> x.range(JOBS, "created", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, scan)
        .compose(ids -> x.get(JOBS, ids.stream().map(Txn.Scored::key).toList()))).compose(entries -> {
          List<Future<BatchJob>> jobs = new ArrayList<>();
          for (Row e : entries) {
            if (e.exists() && (tenant == null || tenant.equals(e.text()))) {
              jobs.add(get(e.key()));
            }
          }
          return Future.all(jobs).map(all -> {
            List<BatchJob> out = new ArrayList<>();
            for (int i = 0; i < all.size() && out.size() < limit; i++) {
              BatchJob j = all.resultAt(i);
              if (j != null) {
                out.add(j);
              }
            }
            return out;
          });
        });
  }

  @Override
  public Future<BatchJob> cancel(String id) {
    return tables.transact(x -> readJob(x, id).map(j -> {
      if (j == null) {
        return null;
      }
      BatchJob c = BatchRules.cancelled(j, clock.millis());
      if (c != j) {
        writeJob(x, c);
      }
      return c;
    })).compose(this::list);
  }

  @Override
  public Future<BatchJob> fail(String id, String reason) {
    return tables.transact(x -> readJob(x, id).map(j -> {
      if (j == null) {
        return null;
      }
      BatchJob f = BatchRules.failed(j, clock.millis());
      if (f != j) {
        f = withSpec(f, f.spec().copy().put(BatchRules.REASON, reason));
        writeJob(x, f);
      }
      return f;
    })).compose(this::list);
  }

  /** Jobs looked at per step of {@link #failStaleLoading}. */
  static final int STALE_SCAN = 500;

  @Override
  public Future<Integer> failStaleLoading(long staleMs, String reason) {
    return failStaleFrom(0, staleMs, reason, 0);
  }

  private Future<Integer> failStaleFrom(int offset, long staleMs, String reason, int failed) {
    long now = clock.millis();
    return tables.read(x -> x.range(JOBS, "created", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, offset, STALE_SCAN))
        .compose(ids -> {
          Future<Integer> step = Future.succeededFuture(failed);
          for (Txn.Scored id : ids) {
            step = step.compose(n -> get(id.key()).compose(j -> j != null && BatchRules.staleLoading(j, j.spec().getLong(BatchRules.LOADED_AT), tables.shared(), now, staleMs)
                ? fail(j.id(), reason).map(f -> n + 1) : Future.succeededFuture(n)));
          }
          return ids.size() < STALE_SCAN ? step : step.compose(n -> failStaleFrom(offset + STALE_SCAN, staleMs, reason, n));
        });
  }

  @Override
  public Future<JsonObject> lease(String owner, long leaseMs) {
    return tables.read(x -> x.range(JOBS, "open", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, OPEN_SCAN)
        .compose(ids -> {
          List<String> keys = ids.stream().map(Txn.Scored::key).toList();
          return x.get(JOBS, keys).compose(entries -> x.get(FAIR, "last").map(last -> {
            List<BatchRules.Open> open = new ArrayList<>();
            for (int k = 0; k < keys.size(); k++) {
              open.add(new BatchRules.Open(keys.get(k), entries.get(k).exists() ? entries.get(k).text() : ""));
            }
            return BatchRules.fairOrder(open, last.exists() ? last.text() : null);
          }));
        }))
        .compose(order -> leaseFrom(order, 0, owner, leaseMs));
  }

  private Future<JsonObject> leaseFrom(List<String> ids, int at, String owner, long leaseMs) {
    if (at >= ids.size()) {
      return Future.succeededFuture(null);
    }
    String id = ids.get(at);
    return leaseSlice(id, owner, leaseMs).compose(got -> {
      if (got == NOT_OPEN) {
        return get(id).compose(this::list).compose(v -> leaseFrom(ids, at + 1, owner, leaseMs));
      }
      return got == null ? leaseFrom(ids, at + 1, owner, leaseMs) : Future.succeededFuture(got);
    });
  }

  /** The job has ended: it leaves the open list. */
  private static final JsonObject NOT_OPEN = new JsonObject();

  /** One claimable slice of job {@code id} with its rows left, leased; slices found empty are finished on the way. */
  private Future<JsonObject> leaseSlice(String id, String owner, long leaseMs) {
    return tables.transact(x -> readJob(x, id).compose(j -> {
      if (j == null || !j.open()) {
        return Future.succeededFuture(NOT_OPEN);
      }
      long now = clock.millis();
      return x.range(slices(id), FREE, Double.NEGATIVE_INFINITY, now - 1, 0, 1).compose(free -> {
        if (free.isEmpty()) {
          return Future.succeededFuture((JsonObject) null);
        }
        String s = free.get(0).key();
        return x.get(slices(id), s).compose(row -> {
          BatchRules.Slice slice = row.exists() ? StateCodec.slice(row.body()) : BatchRules.Slice.FREE;
          if (!BatchRules.claimable(slice, now)) {
            return Future.succeededFuture((JsonObject) null);
          }
          int number = Integer.parseInt(s);
          return rowsLeft(x, j, number).map(left -> {
            if (left.isEmpty()) {
              x.put(slices(id), s, StateCodec.slice(new BatchRules.Slice(null, 0, true)), Map.of());
              return new JsonObject().put("retry", true);
            }
            BatchRules.Slice leased = BatchRules.lease(owner, leaseMs, now);
            x.put(slices(id), s, StateCodec.slice(leased), Map.of(FREE, (double) leased.leaseUntilMs()));
            BatchJob started = BatchRules.started(j, now);
            if (started != j) {
              writeJob(x, started);
            }
            return new JsonObject().put("job", started.toJson()).put("slice", number).put("rows", left);
          });
        });
      });
    })).compose(r -> r != null && r.getBoolean("retry", false) ? leaseSlice(id, owner, leaseMs) : Future.succeededFuture(r))
        .compose(r -> r == null || r == NOT_OPEN || !r.containsKey("job") ? Future.succeededFuture(r)
            // The turn moves on (a group of its own: a cluster transaction keeps to one); a hint, not a lock.
            : tables.transact(x -> {
              x.put(FAIR, "last", r.getJsonObject("job").getString("tenant", "").getBytes(StandardCharsets.UTF_8), Map.of());
              return Future.succeededFuture(r);
            }));
  }

  /** The rows of slice {@code number} without a result: {@code {"i", "row"}}. */
  private static Future<JsonArray> rowsLeft(Txn x, BatchJob j, int number) {
    long from = (long) number * j.sliceRows();
    long to = Math.min(j.total(), from + j.sliceRows());
    List<String> keys = new ArrayList<>();
    for (long i = from; i < to; i++) {
      keys.add(Long.toString(i));
    }
    return x.get(rows(j.id()), keys).compose(rs -> x.get(results(j.id()), keys).map(res -> {
      JsonArray left = new JsonArray();
      for (int k = 0; k < keys.size(); k++) {
        if (rs.get(k).exists() && !res.get(k).exists()) {
          left.add(new JsonObject().put("i", from + k).put("row", StateCodec.json(rs.get(k).body())));
        }
      }
      return left;
    }));
  }

  @Override
  public Future<Boolean> renew(String owner, String jobId, int slice, long leaseMs) {
    String s = Integer.toString(slice);
    return tables.transact(x -> readJob(x, jobId).compose(j -> x.get(slices(jobId), s).map(row -> {
      BatchRules.Slice current = row.exists() ? StateCodec.slice(row.body()) : null;
      if (!BatchRules.renewable(current, owner, j)) {
        return false;
      }
      BatchRules.Slice renewed = BatchRules.lease(owner, leaseMs, clock.millis());
      x.put(slices(jobId), s, StateCodec.slice(renewed), Map.of(FREE, (double) renewed.leaseUntilMs()));
      return true;
    })));
  }

  @Override
  public Future<BatchJob> record(String jobId, List<JsonObject> in) {
    List<String> keys = in.stream().map(r -> Long.toString(r.getLong("i"))).toList();
    return tables.transact(x -> readJob(x, jobId).compose(j -> x.get(results(jobId), keys).map(stored -> {
      if (j == null) {
        return null;
      }
      List<String> statuses = new ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int k = 0; k < in.size(); k++) {
        if (stored.get(k).exists() || !seen.add(keys.get(k))) {
          continue;
        }
        JsonObject result = in.get(k).getJsonObject("result");
        x.put(results(jobId), keys.get(k), StateCodec.bytes(result), Map.of());
        statuses.add(result.getString("status", "failed"));
      }
      BatchJob after = BatchRules.recorded(j, BatchRules.tally(statuses), clock.millis());
      writeJob(x, after);
      return after;
    }))).compose(j -> j != null && !j.open() ? list(j) : Future.succeededFuture(j));
  }

  @Override
  public Future<Void> finishSlice(String owner, String jobId, int slice) {
    return tables.transact(x -> {
      x.put(slices(jobId), Integer.toString(slice), StateCodec.slice(new BatchRules.Slice(null, 0, true)), Map.of());
      return Future.succeededFuture();
    });
  }

  @Override
  public Future<List<JsonObject>> page(String jobId, long from, int limit) {
    return tables.read(x -> readJob(x, jobId).compose(j -> {
      long to = j == null ? from : Math.min(j.total(), from + limit);
      if (to <= from) {
        return Future.succeededFuture(List.<JsonObject>of());
      }
      List<String> keys = new ArrayList<>();
      for (long i = from; i < to; i++) {
        keys.add(Long.toString(i));
      }
      return x.get(rows(jobId), keys).compose(rs -> x.get(results(jobId), keys).map(res -> {
        List<JsonObject> out = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
          if (!rs.get(k).exists()) {
            break;
          }
          JsonObject o = new JsonObject().put("i", from + k).put("row", StateCodec.json(rs.get(k).body()));
          if (res.get(k).exists()) {
            o.put("result", StateCodec.json(res.get(k).body()));
          }
          out.add(o);
        }
        return out;
      }));
    }));
  }

  @Override
  public Future<Integer> releaseLeases() {
    if (tables.shared()) {
      // Other resolvers may hold leases: theirs expire on their own.
      return Future.succeededFuture(0);
    }
    return tables.read(x -> x.range(JOBS, "open", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, Integer.MAX_VALUE))
        .compose(ids -> {
          Future<Integer> all = Future.succeededFuture(0);
          for (Txn.Scored id : ids) {
            all = all.compose(n -> tables.transact(x -> x.range(slices(id.key()), FREE, 1, Double.POSITIVE_INFINITY, 0, Integer.MAX_VALUE)
                .map(leased -> {
                  byte[] free = StateCodec.slice(BatchRules.Slice.FREE);
                  leased.forEach(s -> x.put(slices(id.key()), s.key(), free, Map.of(FREE, 0.0)));
                  return n + leased.size();
                })));
          }
          return all;
        });
  }

  // ---- expiry ----------------------------------------------------------------------------------

  /** Row keys removed per transaction while a job expires (rows and results each). */
  static final int EXPIRE_CHUNK = 1_000;
  /** Ended jobs looked at per expiry step. */
  static final int EXPIRE_SCAN = 50;

  @Override
  public Future<Integer> expire(long keepMs, int max) {
    long now = clock.millis();
    return repairUsage().compose(v -> tables.read(x -> x.range(EXPIRING, "all", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0,
        EXPIRE_SCAN))).compose(under -> removeAll(under.stream().map(Txn.Scored::key).toList(), 0, 0, max))
        .compose(n -> n >= max ? Future.succeededFuture(n) : tables.read(x -> x.range(JOBS, "ended", Double.NEGATIVE_INFINITY,
            (double) (now - keepMs - 1), 0, EXPIRE_SCAN)).compose(ended -> expireFrom(ended, 0, now, keepMs, n, max)));
  }

  /** The ended jobs from {@code at} on, one after the other, until {@code max} keys were removed. */
  private Future<Integer> expireFrom(List<Txn.Scored> ended, int at, long now, long keepMs, int removed, int max) {
    if (at >= ended.size() || removed >= max) {
      return Future.succeededFuture(removed);
    }
    String id = ended.get(at).key();
    return get(id).compose(j -> {
      if (j == null || BatchRules.expired(j, now, keepMs)) {
        return startRemoval(id, j).compose(v -> remove(id, removed, max));
      }
      // Listed as ended long ago but not (yet) expired by the rule: relisted as it stands.
      return list(j).map(v -> removed);
    }).compose(n -> expireFrom(ended, at + 1, now, keepMs, n, max));
  }

  /**
   * The job leaves the list, its idem name (when still its own) and its tenant's usage, and a
   * removal record takes its place; then the job itself goes, so from here on it reads as absent.
   */
  private Future<Void> startRemoval(String id, BatchJob j) {
    long total = j == null ? 0 : j.total();
    long slices = j == null ? 0 : BatchRules.slices(total, j.sliceRows());
    return tables.transact(x -> {
      Future<Void> idem = Future.succeededFuture();
      if (j != null) {
        String name = idemKey(j.tenant(), j.idemKey());
        idem = x.get(IDEM, name).compose(r -> x.get(USAGE, j.tenant()).map(u -> {
          if (r.exists() && id.equals(r.text())) {
            x.delete(IDEM, name);
          }
          Map<String, Long> live = liveOf(u);
          if (live.remove(id) != null) {
            writeUsage(x, j.tenant(), live);
          }
          return (Void) null;
        }));
      }
      return idem.compose(v -> x.get(EXPIRING, id)).map(under -> {
        x.delete(JOBS, id);
        // Another resolver sharing the store may have begun this removal: its record (and progress) stays.
        if (!under.exists()) {
          x.put(EXPIRING, id, StateCodec.bytes(new JsonObject().put("total", total).put("slices", slices).put("rows_from", 0L)
              .put("slices_from", 0L)), Map.of("all", 0.0));
        }
        return (Void) null;
      });
    }).compose(v -> tables.transact(x -> {
      x.delete(job(id), "job");
      return Future.succeededFuture();
    }));
  }

  private Future<Integer> removeAll(List<String> ids, int at, int removed, int max) {
    if (at >= ids.size() || removed >= max) {
      return Future.succeededFuture(removed);
    }
    // The job row again: a removal stopped between its record and the job's own delete.
    return tables.transact(x -> {
      x.delete(job(ids.get(at)), "job");
      return Future.succeededFuture();
    }).compose(v -> remove(ids.get(at), removed, max)).compose(n -> removeAll(ids, at + 1, n, max));
  }

  /**
   * One chunk of an expiring job's rows and results (then of its slices) removed, and the progress
   * kept in its removal record; again until none is left (the record then goes) or {@code max} keys
   * were removed in this step.
   */
  private Future<Integer> remove(String id, int removed, int max) {
    if (removed >= max) {
      return Future.succeededFuture(removed);
    }
    return tables.read(x -> x.get(EXPIRING, id)).compose(r -> {
      if (!r.exists()) {
        return Future.succeededFuture(removed);
      }
      JsonObject p = StateCodec.json(r.body());
      long total = p.getLong("total", 0L);
      long slices = p.getLong("slices", 0L);
      long rowsFrom = p.getLong("rows_from", 0L);
      long slicesFrom = p.getLong("slices_from", 0L);
      if (rowsFrom >= total && slicesFrom >= slices) {
        return tables.transact(x -> {
          x.delete(EXPIRING, id);
          return Future.succeededFuture(removed);
        });
      }
      boolean rows = rowsFrom < total;
      long from = rows ? rowsFrom : slicesFrom;
      long to = Math.min(rows ? total : slices, from + EXPIRE_CHUNK);
      return tables.transact(x -> {
        for (long i = from; i < to; i++) {
          String k = Long.toString(i);
          if (rows) {
            x.delete(rows(id), k);
            x.delete(results(id), k);
          } else {
            x.delete(slices(id), k);
          }
        }
        return Future.succeededFuture();
      }).compose(v -> tables.transact(x -> {
        x.put(EXPIRING, id, StateCodec.bytes(p.copy().put(rows ? "rows_from" : "slices_from", to)), Map.of("all", 0.0));
        return Future.succeededFuture();
      })).compose(v -> remove(id, removed + (int) (to - from), max));
    });
  }

  /**
   * Each tenant's usage without jobs that have ended or are gone: a job whose end was stored but
   * whose list entry was not (the store failed in between) would otherwise count for ever.
   */
  private Future<Void> repairUsage() {
    return tables.read(x -> x.range(USAGE, "tenants", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, Integer.MAX_VALUE)
        .compose(ts -> x.get(USAGE, ts.stream().map(Txn.Scored::key).toList()))).compose(rows -> {
          Future<Void> all = Future.succeededFuture();
          for (Row r : rows) {
            for (String id : liveOf(r).keySet()) {
              all = all.compose(v -> get(id)).compose(j -> BatchRules.live(j) ? Future.succeededFuture() : tables.transact(x -> x.get(USAGE,
                  r.key()).map(u -> {
                    Map<String, Long> live = liveOf(u);
                    if (live.remove(id) != null) {
                      writeUsage(x, r.key(), live);
                    }
                    return (Void) null;
                  })));
            }
          }
          return all;
        });
  }

  @Override
  public Future<Integer> indexEnded() {
    return tables.read(x -> x.count(JOBS, "ended")).compose(n -> n > 0 ? Future.succeededFuture(0) : indexEndedFrom(0, 0));
  }

  private Future<Integer> indexEndedFrom(int offset, int listed) {
    return tables.read(x -> x.range(JOBS, "created", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, offset, STALE_SCAN))
        .compose(ids -> {
          Future<Integer> step = Future.succeededFuture(listed);
          for (Txn.Scored id : ids) {
            step = step.compose(n -> get(id.key()).compose(j -> j != null && j.finished() ? list(j).map(v -> n + 1)
                : Future.succeededFuture(n)));
          }
          return ids.size() < STALE_SCAN ? step : step.compose(n -> indexEndedFrom(offset + STALE_SCAN, n));
        });
  }

  /**
   * Imports a job as an earlier release's layout stored it (the migration), with its state and
   * figures as they were: written when the id holds none, written again when an earlier import
   * wrote it and nothing changed it since, left alone when this store changed it; then its
   * idempotency name (unless there) and its place in the job list, as the job now stands. Import its
   * rows and slices first: the job list is what makes a job visible to the workers. Whether the job
   * was written.
   */
  Future<Boolean> importJob(BatchJob j) {
    return tables.transact(x -> x.get(job(j.id()), "job").map(r -> {
      if (r.exists() && (!StateCodec.isImported(r.body()) || StateCodec.job(r.body()).equals(j))) {
        return false;
      }
      x.put(job(j.id()), "job", StateCodec.imported(StateCodec.job(j)), Map.of());
      return true;
    })).compose(written -> get(j.id()).compose(current -> {
      String name = idemKey(current.tenant(), current.idemKey());
      return tables.transact(x -> x.get(IDEM, name).compose(idem -> x.get(USAGE, current.tenant()).map(u -> {
        if (!idem.exists()) {
          x.put(IDEM, name, current.id().getBytes(StandardCharsets.UTF_8), Map.of());
        }
        x.put(JOBS, current.id(), current.tenant().getBytes(StandardCharsets.UTF_8), listing(current));
        // A live job counts against its tenant's quota like one submitted here.
        Map<String, Long> live = liveOf(u);
        if (BatchRules.live(current) && !live.containsKey(current.id())) {
          live.put(current.id(), current.total());
          writeUsage(x, current.tenant(), live);
        }
        return written;
      })));
    }));
  }

  /**
   * Imports a job's rows and their results as an earlier release's layout stored them (the
   * migration), each unless there; the job's figures are imported with the job, not counted again.
   * How many rows were written.
   */
  Future<Integer> importRows(String jobId, List<Legacy.BatchRow> in) {
    if (in.isEmpty()) {
      return Future.succeededFuture(0);
    }
    List<String> keys = in.stream().map(r -> Long.toString(r.index())).toList();
    return tables.transact(x -> x.get(rows(jobId), keys).compose(stored -> x.get(results(jobId), keys).map(res -> {
      int written = 0;
      Set<String> seen = new HashSet<>();
      for (int k = 0; k < in.size(); k++) {
        if (!seen.add(keys.get(k))) {
          continue;
        }
        Legacy.BatchRow r = in.get(k);
        if (!stored.get(k).exists()) {
          x.put(rows(jobId), keys.get(k), StateCodec.bytes(r.row()), Map.of());
          written++;
        }
        if (r.result() != null && !res.get(k).exists()) {
          x.put(results(jobId), keys.get(k), StateCodec.bytes(r.result()), Map.of());
        }
      }
      return written;
    })));
  }

  /**
   * Imports a job's slices as an earlier release's layout stored them (the migration): a done one
   * out of the free index, one with rows left in it, scored by when its lease ends; each written
   * unless there, or again when an earlier import wrote it and nothing changed it since.
   */
  Future<Integer> importSlices(String jobId, List<Legacy.Slice> in) {
    if (in.isEmpty()) {
      return Future.succeededFuture(0);
    }
    List<String> keys = in.stream().map(s -> Long.toString(s.number())).toList();
    return tables.transact(x -> x.get(slices(jobId), keys).map(stored -> {
      int written = 0;
      for (int k = 0; k < in.size(); k++) {
        Row r = stored.get(k);
        BatchRules.Slice s = in.get(k).state();
        if (r.exists() && (!StateCodec.isImported(r.body()) || StateCodec.slice(r.body()).equals(s))) {
          continue;
        }
        x.put(slices(jobId), keys.get(k), StateCodec.imported(StateCodec.slice(s)),
            s.done() ? Map.of() : Map.of(FREE, (double) s.leaseUntilMs()));
        written++;
      }
      return written;
    }));
  }
}
