package dev.georesolver.state.redis;

import dev.georesolver.state.StateStore;
import dev.georesolver.redis.RedisKeys;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.redis.GuardedRedis;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code batches} module on Redis ({@link RedisKeys}): one hash per job, its rows and results
 * in two more, its slices in a sorted set scored by lease end. Each step over a job's keys is one
 * Lua script, and all of a job's keys share the hash tag {@code {batch:<id>}}. Use from the state
 * verticle's context.
 */
final class RedisBatches implements StateStore.Batches {

  /** Job ids looked at per lease. */
  private static final int OPEN_SCAN = 100;

  private static final String APPEND = """
      local job, rows, results = KEYS[1], KEYS[2], KEYS[3]
      local done, invalid = 0, 0
      for i = 1, #ARGV, 3 do
        if redis.call('HSETNX', rows, ARGV[i], ARGV[i + 1]) == 1 and ARGV[i + 2] ~= '' then
          redis.call('HSET', results, ARGV[i], ARGV[i + 2])
          done = done + 1
          if string.find(ARGV[i + 2], '"status":"invalid"', 1, true) then invalid = invalid + 1 end
        end
      end
      redis.call('HINCRBY', job, 'done', done)
      redis.call('HINCRBY', job, 'invalid', invalid)
      redis.call('HINCRBY', job, 'failed', done - invalid)
      return done
      """;

  private static final String SEAL = """
      local job, slices = KEYS[1], KEYS[2]
      if redis.call('HGET', job, 'state') ~= 'loading' then return 0 end
      local total, n = tonumber(ARGV[1]), tonumber(ARGV[3])
      local done = tonumber(redis.call('HGET', job, 'done') or '0')
      redis.call('HSET', job, 'total', total, 'spec', ARGV[2])
      if done >= total then
        redis.call('HSET', job, 'state', 'done', 'finished_at', ARGV[4])
        return 2
      end
      for s = 0, n - 1 do redis.call('ZADD', slices, 0, s) end
      redis.call('HSET', job, 'state', 'queued')
      return 1
      """;

  private static final String LEASE = """
      local job, slices, owners = KEYS[1], KEYS[2], KEYS[3]
      local st = redis.call('HGET', job, 'state')
      if st ~= 'queued' and st ~= 'running' then return -2 end
      local now, lease = tonumber(ARGV[2]), tonumber(ARGV[3])
      local free = redis.call('ZRANGEBYSCORE', slices, '-inf', now, 'LIMIT', 0, 1)
      if #free == 0 then return -1 end
      redis.call('ZADD', slices, now + lease, free[1])
      redis.call('HSET', owners, free[1], ARGV[1])
      if st == 'queued' then redis.call('HSET', job, 'state', 'running', 'started_at', now) end
      return tonumber(free[1])
      """;

  private static final String RENEW = """
      local job, slices, owners = KEYS[1], KEYS[2], KEYS[3]
      local st = redis.call('HGET', job, 'state')
      if (st ~= 'queued' and st ~= 'running') or redis.call('HGET', owners, ARGV[2]) ~= ARGV[1]
         or not redis.call('ZSCORE', slices, ARGV[2]) then return 0 end
      redis.call('ZADD', slices, 'XX', tonumber(ARGV[3]) + tonumber(ARGV[4]), ARGV[2])
      return 1
      """;

  private static final String RECORD = """
      local job, results = KEYS[1], KEYS[2]
      local c = {done = 0, resolved = 0, refused = 0, invalid = 0, failed = 0}
      for i = 2, #ARGV, 3 do
        if redis.call('HSETNX', results, ARGV[i], ARGV[i + 1]) == 1 then
          c.done = c.done + 1
          local s = ARGV[i + 2]
          if c[s] == nil or s == 'done' then s = 'failed' end
          c[s] = c[s] + 1
        end
      end
      for k, v in pairs(c) do if v > 0 then redis.call('HINCRBY', job, k, v) end end
      local st = redis.call('HGET', job, 'state')
      if (st == 'queued' or st == 'running') and tonumber(redis.call('HGET', job, 'done')) >= tonumber(redis.call('HGET', job, 'total')) then
        redis.call('HSET', job, 'state', 'done', 'finished_at', ARGV[1])
        return 1
      end
      return 0
      """;

  private static final String FINISH_SLICE = """
      redis.call('ZREM', KEYS[1], ARGV[1])
      redis.call('HDEL', KEYS[2], ARGV[1])
      return 1
      """;

  private static final String CANCEL = """
      local st = redis.call('HGET', KEYS[1], 'state')
      if st == 'loading' or st == 'queued' or st == 'running' then
        redis.call('HSET', KEYS[1], 'state', 'cancelled', 'finished_at', ARGV[1])
        redis.call('DEL', KEYS[2])
        return 1
      end
      return 0
      """;

  private final GuardedRedis redis;
  private final RedisKeys keys;
  private final Clock clock;

  RedisBatches(GuardedRedis redis, RedisKeys keys, Clock clock) {
    this.redis = redis;
    this.keys = keys;
    this.clock = clock;
  }

  private static Request eval(String script, List<String> ks, List<?> args) {
    Request r = Request.cmd(Command.EVAL).arg(script).arg(ks.size());
    ks.forEach(r::arg);
    for (Object a : args) {
      r.arg(a == null ? "" : a.toString());
    }
    return r;
  }

  @Override
  public Future<BatchJob> find(String tenant, String idemKey) {
    return redis.send(Request.cmd(Command.GET).arg(keys.batchIdem(tenant, idemKey)))
        .compose(id -> id == null ? Future.succeededFuture(null) : get(id.toString()));
  }

  @Override
  public Future<JsonObject> create(BatchJob job) {
    String idem = keys.batchIdem(job.tenant(), job.idemKey());
    return redis.send(Request.cmd(Command.SET).arg(idem).arg(job.id()).arg("NX")).compose(ok -> {
      if (ok != null) {
        return write(job);
      }
      return find(job.tenant(), job.idemKey()).compose(existing -> existing != null
          ? Future.succeededFuture(new JsonObject().put("created", false).put("job", existing.toJson()))
          // The name outlived its job (a crash between the two writes): this job takes it.
          : redis.send(Request.cmd(Command.SET).arg(idem).arg(job.id())).compose(v -> write(job)));
    });
  }

  private Future<JsonObject> write(BatchJob job) {
    Request h = Request.cmd(Command.HSET).arg(keys.batchJob(job.id()))
        .arg("id").arg(job.id()).arg("tenant").arg(job.tenant()).arg("idem_key").arg(job.idemKey())
        .arg("state").arg(BatchJob.LOADING).arg("spec").arg(job.spec().encode()).arg("total").arg(job.total()).arg("done").arg(0)
        .arg("resolved").arg(0).arg("refused").arg(0).arg("invalid").arg(0).arg("failed").arg(0)
        .arg("created_at").arg(job.createdAtMs());
    Request z = Request.cmd(Command.ZADD).arg(keys.batches()).arg(job.createdAtMs()).arg(job.id());
    return redis.batch(List.of(h, z)).compose(v -> get(job.id()))
        .map(j -> new JsonObject().put("created", true).put("job", j.toJson()));
  }

  @Override
  public Future<Void> append(String jobId, List<JsonObject> rows) {
    List<Object> args = new ArrayList<>(rows.size() * 3);
    for (JsonObject r : rows) {
      JsonObject result = r.getJsonObject("result");
      args.add(r.getLong("i"));
      args.add(r.getJsonObject("row").encode());
      args.add(result == null ? "" : result.encode());
    }
    return redis.send(eval(APPEND, List.of(keys.batchJob(jobId), keys.batchRows(jobId), keys.batchResults(jobId)), args))
        .mapEmpty();
  }

  @Override
  public Future<BatchJob> seal(String jobId, long total, JsonArray columns) {
    return get(jobId).compose(j -> {
      if (j == null) {
        return Future.succeededFuture(null);
      }
      long slices = (total + j.sliceRows() - 1) / j.sliceRows();
      String spec = j.spec().copy().put("columns", columns).encode();
      return redis.send(eval(SEAL, List.of(keys.batchJob(jobId), keys.batchSlices(jobId)),
              List.of(total, spec, slices, clock.millis())))
          .compose(r -> r.toInteger() == 1
              ? redis.send(Request.cmd(Command.ZADD).arg(keys.batchesOpen()).arg(j.createdAtMs()).arg(jobId)).mapEmpty()
              : Future.succeededFuture())
          .compose(v -> get(jobId));
    });
  }

  @Override
  public Future<BatchJob> get(String id) {
    return redis.send(Request.cmd(Command.HGETALL).arg(keys.batchJob(id))).map(r -> job(RedisStateStore.toMap(r)));
  }

  private static BatchJob job(Map<String, String> m) {
    if (m.isEmpty() || m.get("id") == null) {
      return null;
    }
    return new BatchJob(m.get("id"), m.get("tenant"), m.get("idem_key"), m.get("state"), new JsonObject(m.get("spec")),
        num(m, "total"), num(m, "done"), num(m, "resolved"), num(m, "refused"), num(m, "invalid"), num(m, "failed"),
        num(m, "created_at"), m.get("started_at") == null ? null : num(m, "started_at"),
        m.get("finished_at") == null ? null : num(m, "finished_at"));
  }

  private static long num(Map<String, String> m, String k) {
    String v = m.get(k);
    return v == null || v.isEmpty() ? 0 : Long.parseLong(v);
  }

  @Override
  public Future<List<BatchJob>> list(String tenant, int limit) {
    int scan = tenant == null ? limit : limit * 20;
    return redis.send(Request.cmd(Command.ZREVRANGE).arg(keys.batches()).arg(0).arg(scan - 1)).compose(ids -> {
      List<Future<BatchJob>> jobs = new ArrayList<>();
      if (ids != null) {
        for (Response id : ids) {
          jobs.add(get(id.toString()));
        }
      }
      return Future.all(jobs).map(all -> {
        List<BatchJob> out = new ArrayList<>();
        for (int i = 0; i < all.size() && out.size() < limit; i++) {
          BatchJob j = all.resultAt(i);
          if (j != null && (tenant == null || tenant.equals(j.tenant()))) {
            out.add(j);
          }
        }
        return out;
      });
    });
  }

  @Override
  public Future<BatchJob> cancel(String id) {
    return redis.send(eval(CANCEL, List.of(keys.batchJob(id), keys.batchSlices(id)), List.of(clock.millis())))
        .compose(r -> redis.send(Request.cmd(Command.ZREM).arg(keys.batchesOpen()).arg(id)))
        .compose(r -> get(id));
  }

  @Override
  public Future<JsonObject> lease(String owner, long leaseMs, List<String> skip) {
    return redis.send(Request.cmd(Command.ZRANGE).arg(keys.batchesOpen()).arg(0).arg(OPEN_SCAN - 1)).compose(ids -> {
      List<String> candidates = new ArrayList<>();
      if (ids != null) {
        ids.forEach(id -> {
          if (!skip.contains(id.toString())) {
            candidates.add(id.toString());
          }
        });
      }
      return leaseFrom(candidates, 0, owner, leaseMs);
    });
  }

  private Future<JsonObject> leaseFrom(List<String> ids, int at, String owner, long leaseMs) {
    if (at >= ids.size()) {
      return Future.succeededFuture(null);
    }
    String id = ids.get(at);
    return redis.send(eval(LEASE, List.of(keys.batchJob(id), keys.batchSlices(id), keys.batchOwners(id)),
        List.of(owner, clock.millis(), leaseMs))).compose(r -> {
          long s = r.toLong();
          if (s == -2) {
            return redis.send(Request.cmd(Command.ZREM).arg(keys.batchesOpen()).arg(id))
                .compose(v -> leaseFrom(ids, at + 1, owner, leaseMs));
          }
          if (s < 0) {
            return leaseFrom(ids, at + 1, owner, leaseMs);
          }
          return rowsLeft(id, (int) s).compose(leased -> {
            if (leased != null) {
              return Future.succeededFuture(leased);
            }
            return finishSlice(owner, id, (int) s).compose(v -> leaseFrom(ids, at, owner, leaseMs));
          });
        });
  }

  /** The slice's rows without a result, with the job; null when none is left. */
  private Future<JsonObject> rowsLeft(String id, int slice) {
    return get(id).compose(job -> {
      long from = (long) slice * job.sliceRows();
      long to = Math.min(job.total(), from + job.sliceRows());
      Request rows = Request.cmd(Command.HMGET).arg(keys.batchRows(id));
      Request results = Request.cmd(Command.HMGET).arg(keys.batchResults(id));
      for (long i = from; i < to; i++) {
        rows.arg(i);
        results.arg(i);
      }
      if (to <= from) {
        return Future.succeededFuture(null);
      }
      return redis.batch(List.of(rows, results)).map(rs -> {
        JsonArray left = new JsonArray();
        for (int k = 0; k < to - from; k++) {
          Response row = rs.get(0).get(k);
          if (row != null && rs.get(1).get(k) == null) {
            left.add(new JsonObject().put("i", from + k).put("row", new JsonObject(row.toString())));
          }
        }
        return left.isEmpty() ? null : new JsonObject().put("job", job.toJson()).put("slice", slice).put("rows", left);
      });
    });
  }

  @Override
  public Future<Boolean> renew(String owner, String jobId, int slice, long leaseMs) {
    return redis.send(eval(RENEW, List.of(keys.batchJob(jobId), keys.batchSlices(jobId), keys.batchOwners(jobId)),
        List.of(owner, slice, clock.millis(), leaseMs))).map(r -> r.toInteger() == 1);
  }

  @Override
  public Future<BatchJob> record(String jobId, List<JsonObject> results) {
    List<Object> args = new ArrayList<>(results.size() * 3 + 1);
    args.add(clock.millis());
    for (JsonObject r : results) {
      JsonObject result = r.getJsonObject("result");
      args.add(r.getLong("i"));
      args.add(result.encode());
      args.add(result.getString("status", "failed"));
    }
    return redis.send(eval(RECORD, List.of(keys.batchJob(jobId), keys.batchResults(jobId)), args))
        .compose(r -> r.toInteger() == 1
            ? redis.send(Request.cmd(Command.ZREM).arg(keys.batchesOpen()).arg(jobId)).mapEmpty()
            : Future.succeededFuture())
        .compose(v -> get(jobId));
  }

  @Override
  public Future<Void> finishSlice(String owner, String jobId, int slice) {
    return redis.send(eval(FINISH_SLICE, List.of(keys.batchSlices(jobId), keys.batchOwners(jobId)), List.of(slice))).mapEmpty();
  }

  @Override
  public Future<List<JsonObject>> page(String jobId, long from, int limit) {
    return get(jobId).compose(job -> {
      long to = job == null ? from : Math.min(job.total(), from + limit);
      if (to <= from) {
        return Future.succeededFuture(List.of());
      }
      Request rows = Request.cmd(Command.HMGET).arg(keys.batchRows(jobId));
      Request results = Request.cmd(Command.HMGET).arg(keys.batchResults(jobId));
      for (long i = from; i < to; i++) {
        rows.arg(i);
        results.arg(i);
      }
      return redis.batch(List.of(rows, results)).map(rs -> {
        List<JsonObject> out = new ArrayList<>();
        for (int k = 0; k < to - from; k++) {
          Response row = rs.get(0).get(k);
          if (row == null) {
            break;
          }
          JsonObject o = new JsonObject().put("i", from + k).put("row", new JsonObject(row.toString()));
          Response result = rs.get(1).get(k);
          if (result != null) {
            o.put("result", new JsonObject(result.toString()));
          }
          out.add(o);
        }
        return out;
      });
    });
  }

  @Override
  public Future<Integer> releaseLeases() {
    return Future.succeededFuture(0);
  }
}
