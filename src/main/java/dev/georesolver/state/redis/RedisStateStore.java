package dev.georesolver.state.redis;

import dev.georesolver.state.StateStore;
import dev.georesolver.state.AuditRows;
import dev.georesolver.bus.Page;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Settled;
import dev.georesolver.state.StateStoreException;
import dev.georesolver.redis.RedisKeys;
import dev.georesolver.state.rules.Cursors;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.Repair;
import dev.georesolver.redis.GeoCells;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.state.rules.Corrections;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared backend: a stream with a consumer group for the queue (each entry goes to exactly one
 * reconciler; a dead reconciler's entries are taken over with {@code XAUTOCLAIM} once idle longer
 * than the lease), a hash per item, and a stream for the outbox ({@link RedisKeys}). Each step that
 * must be atomic is one Lua script — queueing once, leasing, settling under the lease, and the
 * correction's settlement (outbox record and item state together).
 * A script runs alone on the server, so it is as atomic as {@code WATCH}/{@code MULTI} and needs no
 * connection held between the check and the write.
 *
 * <p>Durability is Redis's own: at start the server's {@code appendonly} and {@code save} settings
 * are read, and a server that keeps nothing on disk is reported in the log and in the status.
 * On a Redis Cluster every queue and outbox key carries the queue's hash tag ({@link RedisKeys}), so
 * each script runs in one slot; the lease script computes item keys from stream entries, inside that
 * tag. The correction writes the idempotency and index entries first, each a one-key command, then
 * settles the item and appends the outbox record in one script: a correction is in the feed only
 * once its answer is stored.
 * The audit scripts touch only one tenant's keys, all under its {@code {tenant}} hash tag.
 * The batch scripts ({@link RedisBatches}) keep to one job's hash tag.
 * Use from the state verticle's context.
 */
public final class RedisStateStore implements StateStore {

  private static final Logger log = LoggerFactory.getLogger(RedisStateStore.class);

  /** Done items' markers live this long, seconds, so a later degraded answer of the same request can reopen them. */
  static final long DONE_MARKER_TTL_S = 7 * 86_400;
  /** How long the "corrected" marker of an answer is kept, seconds. */
  static final long CORRECTED_TTL_S = 30 * 86_400;

  private static final String ENQUEUE = """
      local m, stream = KEYS[1], KEYS[2]
      local st = redis.call('HGET', m, 'state')
      local t = tonumber(ARGV[2])
      if st and (st == 'dead' or t <= tonumber(redis.call('HGET', m, 'answer_resolved_at') or '0')) then return 0 end
      if not st or st == 'done' then
        local id = redis.call('XADD', stream, '*', 'k', ARGV[4])
        redis.call('HDEL', m, 'outcome', 'lease_owner', 'lease_until', 'last_error')
        redis.call('HSET', m, 'debt', ARGV[1], 'state', 'pending', 'attempts', 0, 'answer_resolved_at', ARGV[2],
          'accepted_at', ARGV[3], 'entry', id)
        redis.call('PERSIST', m)
        return 1
      end
      redis.call('HSET', m, 'debt', ARGV[1], 'answer_resolved_at', ARGV[2])
      return 1
      """;

  private static final String LEASE = """
      local stream, delayed, group, owner = KEYS[1], KEYS[2], ARGV[1], ARGV[2]
      local max, leaseMs, now, mp = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
      local due = redis.call('ZRANGEBYSCORE', delayed, '-inf', now, 'LIMIT', 0, max)
      for _, k in ipairs(due) do
        if redis.call('ZREM', delayed, k) == 1 and redis.call('HGET', mp .. k, 'state') == 'pending' then
          redis.call('HSET', mp .. k, 'entry', redis.call('XADD', stream, '*', 'k', k))
        end
      end
      local got, seen = {}, {}
      local function take(entries)
        for _, e in ipairs(entries) do
          if #got >= max then return end
          local id = e[1]
          if not seen[id] then
            seen[id] = true
            local k = nil
            if e[2] then for i = 1, #e[2], 2 do if e[2][i] == 'k' then k = e[2][i + 1] end end end
            local h = k and redis.call('HMGET', mp .. k, 'state', 'entry', 'debt', 'attempts', 'accepted_at') or {}
            if k and h[2] == id and (h[1] == 'pending' or h[1] == 'in_progress') then
              redis.call('HSET', mp .. k, 'state', 'in_progress', 'lease_owner', owner, 'lease_until', now + leaseMs)
              got[#got + 1] = {id, h[3], h[4] or '0', h[5] or '0'}
            else
              redis.call('XACK', stream, group, id)
              redis.call('XDEL', stream, id)
            end
          end
        end
      end
      local claimed = redis.call('XAUTOCLAIM', stream, group, owner, leaseMs, '0-0', 'COUNT', max)
      take(claimed[2])
      if #got < max then
        local mine = redis.call('XREADGROUP', 'GROUP', group, owner, 'COUNT', max, 'STREAMS', stream, '0')
        if mine then take(mine[1][2]) end
      end
      if #got < max then
        local new = redis.call('XREADGROUP', 'GROUP', group, owner, 'COUNT', max - #got, 'STREAMS', stream, '>')
        if new then take(new[1][2]) end
      end
      return got
      """;

  /**
   * Settles a leased item other than by correcting it: confirm, retry (to the delayed set, due at
   * its backoff), dead, or release (pending again, its entry kept in this reconciler's pending list
   * so it is leased again in its place; another instance takes it over after the lease time).
   */
  private static final String FINISH = """
      local m, stream, delayed, dead, done = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
      local h = redis.call('HMGET', m, 'state', 'lease_owner', 'entry')
      if h[1] ~= 'in_progress' or h[2] ~= ARGV[1] or h[3] ~= ARGV[2] then return 0 end
      local op = ARGV[3]
      if op == 'release' then
        -- The entry stays where it is in this reconciler's pending list: it comes back first, in its place.
        redis.call('HSET', m, 'state', 'pending')
        redis.call('HDEL', m, 'lease_owner', 'lease_until')
        return 1
      end
      redis.call('XACK', stream, ARGV[6], ARGV[2])
      redis.call('XDEL', stream, ARGV[2])
      redis.call('HDEL', m, 'lease_owner', 'lease_until')
      if op == 'confirm' then
        redis.call('HSET', m, 'state', 'done', 'outcome', 'confirmed', 'entry', '')
        redis.call('INCR', done)
        redis.call('EXPIRE', m, ARGV[8])
      elseif op == 'dead' then
        redis.call('HSET', m, 'state', 'dead', 'outcome', 'dead', 'last_error', ARGV[5], 'entry', '')
        redis.call('HINCRBY', m, 'attempts', 1)
        redis.call('HSET', dead, ARGV[7], ARGV[5])
      else
        redis.call('HSET', m, 'state', 'pending', 'entry', '')
        if op == 'retry' then
          redis.call('HINCRBY', m, 'attempts', 1)
          redis.call('HSET', m, 'last_error', ARGV[5])
        end
        redis.call('ZADD', delayed, ARGV[4], ARGV[7])
      end
      return 1
      """;

  /**
   * The correction's queue step: under the lease, and only for the degraded answer the caller built
   * it from; the outbox record once per answer; the item done. Every key is in the queue's group.
   * Returns {1, cursor}, {0} (lease lost) or {-1} (a newer degraded answer came in).
   */
  private static final String CORRECT = """
      local m, outbox, corrected, stream, done = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
      local h = redis.call('HMGET', m, 'state', 'lease_owner', 'entry', 'answer_resolved_at')
      if h[1] ~= 'in_progress' or h[2] ~= ARGV[1] or h[3] ~= ARGV[2] then return {0} end
      if h[4] ~= ARGV[3] then return {-1} end
      local cursor = ''
      if redis.call('EXISTS', corrected) == 0 then
        cursor = redis.call('XADD', outbox, '*', 'c', ARGV[4])
        redis.call('SET', corrected, cursor, 'EX', ARGV[7])
      end
      redis.call('XACK', stream, ARGV[5], ARGV[2])
      redis.call('XDEL', stream, ARGV[2])
      redis.call('HDEL', m, 'lease_owner', 'lease_until')
      redis.call('HSET', m, 'state', 'done', 'outcome', 'corrected', 'entry', '')
      redis.call('EXPIRE', m, ARGV[6])
      redis.call('INCR', done)
      return {1, cursor}
      """;

  /** The corrected answer as the idempotency entry, unless what it holds was resolved after the degraded answer. */
  private static final String CORRECT_IDEM = """
      local cur = redis.call('GET', KEYS[1])
      if cur then
        local ok, e = pcall(cjson.decode, cur)
        if ok and type(e) == 'table' and type(e.result) == 'table' and tonumber(e.result.resolved_at_ms) and
           tonumber(e.result.resolved_at_ms) > tonumber(ARGV[1]) then return 0 end
      end
      redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
      return 1
      """;

  /** The corrected cached-index entry, unless the one it holds was resolved after the degraded answer. Returns 1 when written. */
  private static final String CORRECT_ADDR = """
      local addr = KEYS[1]
      if tonumber(redis.call('HGET', addr, 'resolved_at') or '0') > tonumber(ARGV[1]) then return 0 end
      redis.call('HSET', addr, 'lon', ARGV[2], 'lat', ARGV[3], 'source', ARGV[4], 'claim', ARGV[5],
        'confidence', ARGV[6], 'resolved_at', ARGV[7])
      if ARGV[8] ~= '' then redis.call('HSET', addr, 'label', ARGV[8]) else redis.call('HDEL', addr, 'label') end
      if ARGV[9] ~= '' then redis.call('HSET', addr, 'precision', ARGV[9]) else redis.call('HDEL', addr, 'precision') end
      redis.call('EXPIRE', addr, ARGV[10])
      return 1
      """;

  private static final String STATS = """
      local stream, delayed, dead, done, group = KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1]
      local pel = redis.call('XPENDING', stream, group)
      local first = redis.call('XRANGE', stream, '-', '+', 'COUNT', 1)
      local oldest = first[1] and first[1][1] or ''
      return {redis.call('XLEN', stream), pel[1], redis.call('ZCARD', delayed), tonumber(redis.call('GET', done) or '0'),
        redis.call('HLEN', dead), oldest}
      """;

  /**
   * Extends a tenant's audit chain by a batch, or does nothing and returns 0 when its head is no
   * longer the one the batch was computed from (another writer extended it first: the caller reads
   * the head again and recomputes). ARGV: expected head ({@code ''} for none), new head, then per
   * record seq, prev_hash, hash, ts_ms, body.
   */
  private static final String AUDIT_APPEND = """
      local stream, head = KEYS[1], KEYS[2]
      if (redis.call('GET', head) or '') ~= ARGV[1] then return 0 end
      for i = 3, #ARGV, 5 do
        redis.call('XADD', stream, ARGV[i] .. '-0', 's', ARGV[i], 'p', ARGV[i + 1], 'h', ARGV[i + 2], 't', ARGV[i + 3],
          'b', ARGV[i + 4])
      end
      redis.call('SET', head, ARGV[2])
      return 1
      """;

  /**
   * Retention of one tenant's partition: among its first ARGV[2] entries, the longest prefix older
   * than ARGV[1] (ts_ms) is removed after the anchor is set to its last record; returns how many.
   */
  private static final String AUDIT_RETAIN = """
      local stream, anchor = KEYS[1], KEYS[2]
      local cutoff, max = tonumber(ARGV[1]), tonumber(ARGV[2])
      local es = redis.call('XRANGE', stream, '-', '+', 'COUNT', max)
      local last = 0
      local seq, hash
      for i, e in ipairs(es) do
        local f, t, s, h = e[2], nil, nil, nil
        for j = 1, #f, 2 do
          if f[j] == 't' then t = tonumber(f[j + 1]) elseif f[j] == 's' then s = f[j + 1] elseif f[j] == 'h' then h = f[j + 1] end
        end
        if not t or t >= cutoff or not s or not h then break end
        last, seq, hash = i, s, h
      end
      if last == 0 then return 0 end
      redis.call('SET', anchor, seq .. ':' .. hash)
      for i = 1, last do redis.call('XDEL', stream, es[i][1]) end
      return last
      """;

  /** Entries one retention script looks through at most. */
  static final int RETAIN_SCAN = 1000;
  /** Attempts of an append whose head moved under it before it gives up (the batch is retried later). */
  static final int APPEND_TRIES = 20;

  private final GuardedRedis redis;
  private final RedisKeys keys;
  private final GeoCells cells = new GeoCells(RedisKeys.INDEX_CELL_PRECISION, 1);
  private final Clock clock;
  private final RedisBatches batches;
  private volatile Boolean persistent;
  private volatile String persistence = "unknown";

  public RedisStateStore(GuardedRedis redis, String prefix, Clock clock) {
    this.redis = redis;
    this.keys = new RedisKeys(prefix, redis.cluster());
    this.clock = clock;
    this.batches = new RedisBatches(redis, keys, clock);
  }

  /** Creates the consumer group (once) and reads whether the server keeps anything on disk. */
  public Future<Void> start() {
    return redis.send(Request.cmd(Command.XGROUP).arg("CREATE").arg(keys.reconcile()).arg(RedisKeys.GROUP).arg("0")
            .arg("MKSTREAM"))
        .otherwise(t -> null)
        .compose(v -> checkPersistence())
        .mapEmpty();
  }

  private Future<Void> checkPersistence() {
    return Future.all(config("appendonly"), config("save")).map(all -> {
      String aof = all.resultAt(0);
      String save = all.resultAt(1);
      if (aof == null && save == null) {
        persistence = "unknown (CONFIG GET refused)";
        log.warn("state store: cannot read the Redis persistence settings (CONFIG GET refused); make sure it keeps the queue on disk");
        return null;
      }
      persistent = "yes".equalsIgnoreCase(aof) || (save != null && !save.isBlank());
      persistence = "appendonly " + aof + ", save \"" + (save == null ? "" : save) + "\"";
      if (!persistent) {
        log.warn("state store: the Redis server keeps nothing on disk ({}): queued debts and corrections are lost if it restarts",
            persistence);
      }
      return null;
    });
  }

  private Future<String> config(String name) {
    return redis.send(Request.cmd(Command.CONFIG).arg("GET").arg(name)).map(r -> {
      Map<String, String> m = toMap(r);
      return m.get(name);
    }).otherwise(t -> null);
  }

  @Override
  public String kind() {
    return "redis";
  }

  private Request eval(String script, List<String> ks, Object... args) {
    Request r = Request.cmd(Command.EVAL).arg(script).arg(ks.size());
    ks.forEach(r::arg);
    for (Object a : args) {
      r.arg(a == null ? "" : a.toString());
    }
    return r;
  }

  private final Debts debts = new Debts() {
    @Override
    public Future<JsonObject> enqueue(List<Debt> ds) {
      if (ds.isEmpty()) {
        return Future.succeededFuture(new JsonObject().put("accepted", 0).put("duplicate", 0));
      }
      List<Request> rs = new ArrayList<>(ds.size());
      for (Debt d : ds) {
        rs.add(eval(ENQUEUE, List.of(keys.marker(d.debtKey()), keys.reconcile()), d.toJson().encode(), d.answerResolvedAtMs(),
            d.acceptedAtMs(), d.debtKey()));
      }
      return redis.batch(rs).map(out -> {
        int accepted = 0;
        for (Response r : out) {
          accepted += r != null && r.toInteger() == 1 ? 1 : 0;
        }
        return new JsonObject().put("accepted", accepted).put("duplicate", ds.size() - accepted);
      });
    }

    @Override
    public Future<List<LeasedDebt>> lease(String owner, int max, long leaseMs) {
      return redis.send(eval(LEASE, List.of(keys.reconcile(), keys.delayed()), RedisKeys.GROUP, owner, max, leaseMs,
          clock.millis(), keys.markerPrefix())).map(r -> {
            List<LeasedDebt> out = new ArrayList<>();
            if (r == null) {
              return out;
            }
            for (Response e : r) {
              Debt d = Debt.fromJson(new JsonObject(e.get(1).toString()));
              long accepted = Long.parseLong(e.get(3).toString());
              d = new Debt(d.idempotencyKey(), d.intent(), d.direction(), d.tenant(), d.request(), d.servedRung(), d.status(),
                  d.reason(), d.claim(), d.lon(), d.lat(), d.confidence(), d.answerResolvedAtMs(),
                  accepted > 0 ? accepted : d.acceptedAtMs());
              out.add(new LeasedDebt(e.get(0).toString(), d, Integer.parseInt(e.get(2).toString())));
            }
            out.sort((a, b) -> a.debt().acceptedAtMs() != b.debt().acceptedAtMs()
                ? Long.compare(a.debt().acceptedAtMs(), b.debt().acceptedAtMs()) : Cursors.compare(a.id(), b.id()));
            return out;
          });
    }

    @Override
    public Future<Settled> correct(String owner, LeasedDebt item, Repair repair) {
      return correctOnce(owner, item, repair, 3);
    }

    /**
     * Checks the lease, writes the corrected answer and index entry (each one key, guarded by age, so
     * writing them again is harmless), then settles the item and appends the outbox record in one
     * queue-group script. A failure between the steps leaves the item leased: it is corrected again.
     */
    private Future<Settled> correctOnce(String owner, LeasedDebt item, Repair repair, int triesLeft) {
      String marker = keys.marker(item.debt().debtKey());
      return redis.send(Request.cmd(Command.HMGET).arg(marker).arg("debt").arg("state").arg("lease_owner").arg("entry"))
          .compose(h -> {
            if (h == null || h.get(0) == null || !"in_progress".equals(str(h.get(1))) || !owner.equals(str(h.get(2)))
                || !item.id().equals(str(h.get(3)))) {
              return Future.succeededFuture(Settled.LOST);
            }
            Debt d = Debt.fromJson(new JsonObject(h.get(0).toString()));
            Correction c = Corrections.build(d, repair);
            return writeCorrected(d, c, repair).compose(v -> settleCorrected(owner, item, d, c)).compose(out -> {
              int code = out.get(0).toInteger();
              if (code == 1) {
                // The outbox entry's id is the correction's cursor: the reconciler wakes delivery and audits with it.
                String cursor = out.size() > 1 ? out.get(1).toString() : "";
                return Future.succeededFuture(new Settled(true, cursor.isEmpty() ? null : c.withCursor(cursor)));
              }
              if (code == -1 && triesLeft > 1) {
                return correctOnce(owner, item, repair, triesLeft - 1);
              }
              return Future.succeededFuture(Settled.LOST);
            });
          });
    }

    /** The idempotency entry, then the cached-index hash and its cell: one key (one slot) per command. */
    private Future<Void> writeCorrected(Debt d, Correction c, Repair repair) {
      long now = clock.millis();
      String entry = new StoredEntry(c.answer(), now, repair.ttlMs()).toBuffer().toString();
      Future<Response> idem = redis.send(eval(CORRECT_IDEM, List.of(keys.idem(d.idempotencyKey())), d.answerResolvedAtMs(), entry,
          Math.max(1, repair.ttlMs())));
      IndexEntry e = Corrections.indexEntry(repair);
      if (e == null) {
        return idem.mapEmpty();
      }
      return idem.compose(v -> redis.send(eval(CORRECT_ADDR, List.of(keys.addr(e.addrKey())), d.answerResolvedAtMs(), e.lon(), e.lat(),
              e.source(), e.claim(), e.confidence(), e.resolvedAtMs(), e.label(), e.precision(), Math.max(1, repair.indexTtlS()))))
          .compose(written -> written != null && written.toInteger() == 1
              ? redis.send(Request.cmd(Command.GEOADD).arg(keys.indexCell(cells.cell(e.lat(), e.lon()))).arg(e.lon()).arg(e.lat())
                  .arg(e.addrKey())).mapEmpty()
              : Future.<Void>succeededFuture());
    }

    /** The queue step: {@code [1, cursor]} done, {@code [0]} lease lost, {@code [-1]} a newer degraded answer came in. */
    private Future<Response> settleCorrected(String owner, LeasedDebt item, Debt d, Correction c) {
      Request r = eval(CORRECT, List.of(keys.marker(item.debt().debtKey()), keys.corrections(), keys.corrected(c.correctionId()),
              keys.reconcile(), keys.doneCount()),
          owner, item.id(), d.answerResolvedAtMs(), c.toJson().encode(), RedisKeys.GROUP, DONE_MARKER_TTL_S, CORRECTED_TTL_S);
      return redis.send(r);
    }

    private Future<Settled> finish(String owner, LeasedDebt item, String op, long notBeforeMs, String error) {
      String k = item.debt().debtKey();
      return redis.send(eval(FINISH, List.of(keys.marker(k), keys.reconcile(), keys.delayed(), keys.dead(), keys.doneCount()),
              owner, item.id(), op, notBeforeMs, error == null ? "" : error, RedisKeys.GROUP, k, DONE_MARKER_TTL_S))
          .map(r -> r != null && r.toInteger() == 1 ? Settled.OK : Settled.LOST);
    }

    @Override
    public Future<Settled> confirm(String owner, LeasedDebt item) {
      return finish(owner, item, "confirm", 0, null);
    }

    @Override
    public Future<Settled> retry(String owner, LeasedDebt item, long notBeforeMs, String error) {
      return finish(owner, item, "retry", notBeforeMs, error == null ? "failed" : error);
    }

    @Override
    public Future<Settled> dead(String owner, LeasedDebt item, String error) {
      return finish(owner, item, "dead", 0, error == null ? "failed" : error);
    }

    @Override
    public Future<Settled> release(String owner, LeasedDebt item, long notBeforeMs) {
      return finish(owner, item, "release", notBeforeMs, null);
    }

    @Override
    public Future<QueueStats> stats() {
      return redis.send(eval(STATS, List.of(keys.reconcile(), keys.delayed(), keys.dead(), keys.doneCount()), RedisKeys.GROUP))
          .map(r -> {
            long len = r.get(0).toLong();
            long pel = r.get(1).toLong();
            long delayed = r.get(2).toLong();
            String first = r.get(5).toString();
            double age = 0;
            if (len + delayed > 0 && !first.isEmpty()) {
              long ms = Long.parseLong(first.substring(0, first.indexOf('-')));
              age = Math.max(0, clock.millis() - ms) / 1000.0;
            }
            return new QueueStats(Math.max(0, len - pel) + delayed, pel, r.get(3).toLong(), r.get(4).toLong(), age);
          });
    }
  };

  private final Outbox outbox = new Outbox() {
    @Override
    public Future<Page> page(String after, int limit) {
      String from = after == null || after.isEmpty() ? "-" : "(" + (after.contains("-") ? after : after + "-0");
      return redis.send(Request.cmd(Command.XRANGE).arg(keys.corrections()).arg(from).arg("+").arg("COUNT").arg(limit))
          .map(r -> {
            List<JsonObject> out = new ArrayList<>();
            String next = after;
            if (r != null) {
              for (Response e : r) {
                next = e.get(0).toString();
                Map<String, String> f = toMap(e.get(1));
                out.add(new JsonObject(f.get("c")).put("cursor", next));
              }
            }
            return new Page(out, next);
          });
    }

    @Override
    public Future<String> head() {
      return redis.send(Request.cmd(Command.XREVRANGE).arg(keys.corrections()).arg("+").arg("-").arg("COUNT").arg(1))
          .map(r -> r == null || r.size() == 0 ? null : r.get(0).get(0).toString());
    }

    @Override
    public Future<String> cursor(String name) {
      return redis.send(Request.cmd(Command.HGET).arg(keys.cursors()).arg(name)).map(r -> r == null ? null : r.toString());
    }

    @Override
    public Future<Void> saveCursor(String name, String cursor) {
      return redis.send(Request.cmd(Command.HSET).arg(keys.cursors()).arg(name).arg(cursor)).mapEmpty();
    }
  };

  /** Each tenant's last audit append from this store, which the next one waits for. */
  private final Map<String, Future<Integer>> auditTails = new HashMap<>();

  private final Audit audit = new Audit() {
    @Override
    public Future<JsonObject> append(List<AuditEvent> events) {
      Map<String, List<AuditEvent>> byTenant = new LinkedHashMap<>();
      events.forEach(e -> byTenant.computeIfAbsent(e.tenant(), t -> new ArrayList<>()).add(e));
      List<Future<Integer>> all = new ArrayList<>();
      byTenant.forEach((t, es) -> {
        // One append per tenant at a time from this store; another resolver's is caught by the head check.
        Future<Integer> f = auditTails.getOrDefault(t, Future.succeededFuture(0)).transform(x -> appendTenant(t, es, APPEND_TRIES));
        auditTails.put(t, f);
        f.onComplete(x -> auditTails.remove(t, f));
        all.add(f);
      });
      return Future.all(all).map(cf -> new JsonObject().put("written", events.size()).put("duplicate", 0));
    }

    private Future<Integer> appendTenant(String tenant, List<AuditEvent> es, int triesLeft) {
      return redis.send(Request.cmd(Command.GET).arg(keys.auditHead(tenant))).compose(h -> {
        String expected = h == null ? "" : h.toString();
        Future<AuditChain.Anchor> start = expected.isEmpty() ? anchor(tenant) : Future.succeededFuture(parseAnchor(expected));
        return start.compose(a -> {
          Request r = Request.cmd(Command.EVAL).arg(AUDIT_APPEND).arg(2).arg(keys.audit(tenant)).arg(keys.auditHead(tenant))
              .arg(expected);
          long seq = a.seq();
          String prev = a.hash();
          List<String[]> rows = new ArrayList<>(es.size());
          for (AuditEvent e : es) {
            seq++;
            String hash = AuditChain.hash(prev, seq, e.body());
            rows.add(new String[] {Long.toString(seq), prev, hash, Long.toString(e.tsMs()), e.body()});
            prev = hash;
          }
          r.arg(seq + ":" + prev);
          rows.forEach(row -> {
            for (String v : row) {
              r.arg(v);
            }
          });
          return redis.send(r);
        }).compose(out -> {
          if (out != null && out.toInteger() == 1) {
            return redis.send(Request.cmd(Command.SADD).arg(keys.auditTenants()).arg(tenant)).map(es.size());
          }
          if (triesLeft > 1) {
            return appendTenant(tenant, es, triesLeft - 1);
          }
          return Future.failedFuture(new StateStoreException("the audit head of tenant " + tenant + " kept moving; retried later"));
        });
      });
    }

    private Future<AuditChain.Anchor> anchor(String tenant) {
      return redis.send(Request.cmd(Command.GET).arg(keys.auditAnchor(tenant)))
          .map(r -> r == null ? AuditChain.Anchor.NONE : parseAnchor(r.toString()));
    }

    @Override
    public Future<JsonObject> page(String tenant, String after, long fromMs, long toMs, int limit) {
      long from = after == null || after.isEmpty() ? 0 : Long.parseLong(after);
      return scanAudit(tenant, from, fromMs, toMs, limit, new JsonArray(), (long) limit * 20);
    }

    private Future<JsonObject> scanAudit(String tenant, long after, long fromMs, long toMs, int limit, JsonArray found,
        long budget) {
      int count = (int) Math.min(Math.max(limit, 100), budget);
      return redis.send(Request.cmd(Command.XRANGE).arg(keys.audit(tenant)).arg((after + 1) + "-0").arg("+").arg("COUNT")
          .arg(count)).compose(r -> {
            long next = after;
            int n = r == null ? 0 : r.size();
            for (int i = 0; i < n; i++) {
              Map<String, String> f = toMap(r.get(i).get(1));
              long seq = Long.parseLong(f.getOrDefault("s", "0"));
              long ts = Long.parseLong(f.getOrDefault("t", "0"));
              next = seq;
              if (ts >= fromMs && ts < toMs) {
                found.add(AuditRows.served(f.get("b"), seq, f.get("p"), f.get("h")));
                if (found.size() == limit) {
                  return Future.succeededFuture(new JsonObject().put("records", found).put("next", Long.toString(next)));
                }
              }
            }
            long left = budget - n;
            if (n < count || left <= 0) {
              return Future.succeededFuture(new JsonObject().put("records", found).put("next", Long.toString(next)));
            }
            return scanAudit(tenant, next, fromMs, toMs, limit, found, left);
          });
    }

    @Override
    public Future<Integer> retain(long cutoffMs) {
      return redis.send(Request.cmd(Command.SMEMBERS).arg(keys.auditTenants())).compose(r -> {
        List<Future<Integer>> all = new ArrayList<>();
        if (r != null) {
          for (Response t : r) {
            all.add(retainTenant(t.toString(), cutoffMs, 0));
          }
        }
        return Future.all(all).map(cf -> {
          int n = 0;
          for (int i = 0; i < cf.size(); i++) {
            n += cf.<Integer>resultAt(i);
          }
          return n;
        });
      });
    }

    private Future<Integer> retainTenant(String tenant, long cutoffMs, int soFar) {
      return redis.send(Request.cmd(Command.EVAL).arg(AUDIT_RETAIN).arg(2).arg(keys.audit(tenant)).arg(keys.auditAnchor(tenant))
          .arg(cutoffMs).arg(RETAIN_SCAN)).compose(r -> {
            int n = r == null ? 0 : r.toInteger();
            return n == RETAIN_SCAN ? retainTenant(tenant, cutoffMs, soFar + n) : Future.succeededFuture(soFar + n);
          });
    }
  };

  /** {@code <seq>:<hash>} as an anchor. */
  public static AuditChain.Anchor parseAnchor(String v) {
    int colon = v.indexOf(':');
    return new AuditChain.Anchor(Long.parseLong(v.substring(0, colon)), v.substring(colon + 1));
  }

  @Override
  public Audit audit() {
    return audit;
  }

  @Override
  public Debts debts() {
    return debts;
  }

  @Override
  public Outbox corrections() {
    return outbox;
  }

  @Override
  public Cache cache() {
    return Cache.NONE;
  }

  @Override
  public Batches batches() {
    return batches;
  }

  @Override
  public Future<JsonObject> status() {
    return redis.status().map(s -> s.put("store", "redis").put("persistent", persistent).put("persistence", persistence));
  }

  @Override
  public Future<Void> close() {
    return redis.close();
  }

  private static String str(Response r) {
    return r == null ? null : r.toString();
  }

  /** A flat field/value reply (RESP2 array) or a RESP3 map, as a map. */
  public static Map<String, String> toMap(Response r) {
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
