package dev.georesolver.state.redis;

import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.redis.RedisKeys;
import dev.georesolver.state.StateStoreException;
import dev.georesolver.state.tables.Conflict;
import dev.georesolver.state.tables.Entry;
import dev.georesolver.state.tables.Log;
import dev.georesolver.state.tables.Row;
import dev.georesolver.state.tables.Table;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The shared backend: the primitives on Redis (one server or a Redis Cluster), under
 * {@link RedisKeys#state} — a table is a hash (field: the row's key; value: {@code <version>:<body>}),
 * each of its indexes a sorted set, its counters a hash, a log a stream (entry id
 * {@code <seq>-0}, field {@code b}) with its last number in a string.
 *
 * <p>A transaction reads as it goes, keeps its writes, and commits them with one Lua script that first
 * compares every row it read with the version it read (and, for a log it appends to, the last number)
 * and then applies every write, or applies none and reports the conflict. So the script holds no rule
 * of any module: it is a compare-and-write of what Java decided. Several resolvers may share the
 * server; {@link Tables#transact} runs a transaction that lost a race again. On a cluster a
 * committing transaction must keep to one group (one hash slot).
 *
 * <p>Durability is Redis's own: {@link #start} reads {@code appendonly} and {@code save} and says in
 * the log and the status when the server keeps nothing on disk. Use from one context.
 */
public final class RedisTables implements Tables {

  private static final Logger log = LoggerFactory.getLogger(RedisTables.class);

  /**
   * The one script: checks, then writes. ARGV[1] is the number of checks; each check is
   * {@code kind, key#, field, expected} ({@code v}: the version of a row, {@code s}: a log's last
   * number); then writes until the end: {@code P key# field body} (a row, one version more),
   * {@code D key# field}, {@code Z key# score member}, {@code R key# member}, {@code C key# field delta},
   * {@code A stream# last# seq body}, {@code T stream# upTo}. Returns {1} or {0, failed check}.
   */
  static final String COMMIT = """
      local function version(v)
        if not v then return 0 end
        return tonumber(string.sub(v, 1, string.find(v, ':', 1, true) - 1))
      end
      local n, i = tonumber(ARGV[1]), 2
      for c = 1, n do
        local kind, k, want = ARGV[i], KEYS[tonumber(ARGV[i + 1])], tonumber(ARGV[i + 3])
        local have
        if kind == 'v' then have = version(redis.call('HGET', k, ARGV[i + 2])) else have = tonumber(redis.call('GET', k) or '0') end
        if have ~= want then return {0, c} end
        i = i + 4
      end
      while i <= #ARGV do
        local op, k = ARGV[i], KEYS[tonumber(ARGV[i + 1])]
        if op == 'P' then
          redis.call('HSET', k, ARGV[i + 2], (version(redis.call('HGET', k, ARGV[i + 2])) + 1) .. ':' .. ARGV[i + 3])
          i = i + 4
        elseif op == 'D' then redis.call('HDEL', k, ARGV[i + 2]); i = i + 3
        elseif op == 'Z' then redis.call('ZADD', k, ARGV[i + 2], ARGV[i + 3]); i = i + 4
        elseif op == 'R' then redis.call('ZREM', k, ARGV[i + 2]); i = i + 3
        elseif op == 'C' then redis.call('HINCRBY', k, ARGV[i + 2], ARGV[i + 3]); i = i + 4
        elseif op == 'A' then
          redis.call('XADD', k, ARGV[i + 3] .. '-0', 'b', ARGV[i + 4])
          redis.call('SET', KEYS[tonumber(ARGV[i + 2])], ARGV[i + 3])
          i = i + 5
        elseif op == 'T' then redis.call('XTRIM', k, 'MINID', (tonumber(ARGV[i + 2]) + 1) .. '-0'); i = i + 3
        else return redis.error_reply('unknown write ' .. tostring(op)) end
      end
      return {1}
      """;

  private final GuardedRedis redis;
  private final RedisKeys keys;
  private volatile Boolean persistent;
  private volatile String persistence = "unknown";

  /**
   * @param redis the guarded client (one server or a cluster)
   * @param prefix the configured key prefix ({@code routing.idempotency.key_prefix})
   */
  public RedisTables(GuardedRedis redis, String prefix) {
    this.redis = redis;
    this.keys = new RedisKeys(prefix, redis.cluster());
  }

  /** The key rules these tables use. */
  public RedisKeys keys() {
    return keys;
  }

  /** The client. */
  public GuardedRedis redis() {
    return redis;
  }

  /** Reads whether the server keeps anything on disk (said in the log and the status). */
  public Future<Void> start() {
    return Future.all(config("appendonly"), config("save")).map(all -> {
      String aof = all.resultAt(0);
      String save = all.resultAt(1);
      if (aof == null && save == null) {
        persistence = "unknown (CONFIG GET refused)";
        log.warn("state store: cannot read the Redis persistence settings (CONFIG GET refused); make sure it keeps the state on disk");
        return null;
      }
      persistent = "yes".equalsIgnoreCase(aof) || (save != null && !save.isBlank());
      persistence = "appendonly " + aof + ", save \"" + (save == null ? "" : save) + "\"";
      if (!persistent) {
        log.warn("state store: the Redis server keeps nothing on disk ({}): queued debts, corrections, audit records and batch jobs "
            + "are lost if it restarts", persistence);
      }
      return null;
    });
  }

  private Future<String> config(String name) {
    return redis.send(Request.cmd(Command.CONFIG).arg("GET").arg(name)).map(r -> {
      if (r == null) {
        return null;
      }
      try {
        if (!r.getKeys().isEmpty()) {
          Response v = r.get(name);
          return v == null ? null : v.toString();
        }
      } catch (RuntimeException notAMap) {
        // RESP2: a flat array
      }
      for (int i = 0; i + 1 < r.size(); i += 2) {
        if (name.equals(r.get(i).toString())) {
          return r.get(i + 1) == null ? null : r.get(i + 1).toString();
        }
      }
      return null;
    }).otherwise(t -> null);
  }

  @Override
  public String kind() {
    return "redis";
  }

  @Override
  public boolean shared() {
    return true;
  }

  @Override
  public <T> Future<T> transact(Function<Txn, Future<T>> body) {
    return attempt(body, 1);
  }

  private <T> Future<T> attempt(Function<Txn, Future<T>> body, int n) {
    RedisTxn tx = new RedisTxn(false);
    Future<T> run;
    try {
      run = body.apply(tx);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return run.compose(result -> tx.commit().map(result)).recover(t -> {
      if (t instanceof Conflict && n < MAX_ATTEMPTS) {
        return attempt(body, n + 1);
      }
      return Future.failedFuture(t instanceof Conflict
          ? new StateStoreException("gave up after " + n + " conflicting attempts: " + t.getMessage()) : t);
    });
  }

  @Override
  public <T> Future<T> read(Function<Txn, Future<T>> body) {
    try {
      return body.apply(new RedisTxn(true));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  @Override
  public Future<JsonObject> status() {
    return redis.status().map(s -> s.put("store", "redis").put("persistent", persistent).put("persistence", persistence));
  }

  @Override
  public Future<Void> close() {
    return redis.close();
  }

  private String rowsKey(Table t) {
    return keys.state(t.group(), "t", t.name());
  }

  private String indexKey(Table t, String index) {
    return keys.state(t.group(), "i", t.name() + ":" + index);
  }

  private String countersKey(Table t) {
    return keys.state(t.group(), "c", t.name());
  }

  private String streamKey(Log l) {
    return keys.state(l.group(), "l", l.name());
  }

  private String lastKey(Log l) {
    return keys.state(l.group(), "s", l.name());
  }

  private static String score(double s) {
    if (s == Double.NEGATIVE_INFINITY) {
      return "-inf";
    }
    if (s == Double.POSITIVE_INFINITY) {
      return "+inf";
    }
    return s == Math.rint(s) && Math.abs(s) < 1e15 ? Long.toString((long) s) : Double.toString(s);
  }

  /** {@code <version>:<body>} as stored; null stays absent. */
  static Row row(String key, Response v) {
    if (v == null) {
      return Row.absent(key);
    }
    byte[] b = v.toBytes();
    int colon = -1;
    for (int i = 0; i < b.length; i++) {
      if (b[i] == ':') {
        colon = i;
        break;
      }
    }
    if (colon < 1) {
      throw new StateStoreException("row " + key + " is not <version>:<body>");
    }
    long version = Long.parseLong(new String(b, 0, colon, StandardCharsets.US_ASCII));
    byte[] body = new byte[b.length - colon - 1];
    System.arraycopy(b, colon + 1, body, 0, body.length);
    return new Row(key, version, body);
  }

  /** One transaction: reads sent as they come, writes kept for the commit script. */
  private final class RedisTxn implements Txn {
    private final boolean readOnly;
    /** Rows read: key string → the version read (the commit checks it). */
    private final Map<String, Check> checks = new LinkedHashMap<>();
    /** Rows written here: what a later read in this transaction sees. */
    private final Map<String, Row> written = new HashMap<>();
    /** Logs read: the last number read, and the next one to append. */
    private final Map<String, long[]> logs = new HashMap<>();
    private final Set<String> appended = new LinkedHashSet<>();
    private final Set<String> groups = new LinkedHashSet<>();
    private final List<Object[]> writes = new ArrayList<>();

    private record Check(String kind, String key, String field, long expected, String group, String log) {}

    RedisTxn(boolean readOnly) {
      this.readOnly = readOnly;
    }

    private void writable(String group) {
      if (readOnly) {
        throw new IllegalStateException("a read-only view cannot write");
      }
      groups.add(group);
    }

    private static String id(Table t, String key) {
      return t.id() + "\u0000" + key;
    }

    @Override
    public Future<Row> get(Table table, String key) {
      return get(table, List.of(key)).map(l -> l.get(0));
    }

    @Override
    public Future<List<Row>> get(Table table, List<String> ks) {
      if (ks.isEmpty()) {
        return Future.succeededFuture(List.of());
      }
      Request r = Request.cmd(Command.HMGET).arg(rowsKey(table));
      ks.forEach(r::arg);
      return redis.send(r).map(resp -> {
        List<Row> out = new ArrayList<>(ks.size());
        for (int i = 0; i < ks.size(); i++) {
          String k = ks.get(i);
          Row stored = row(k, resp == null ? null : resp.get(i));
          String id = id(table, k);
          checks.putIfAbsent(id, new Check("v", rowsKey(table), k, stored.version(), table.group(), null));
          Row mine = written.get(id);
          out.add(mine != null ? new Row(k, stored.version() + mine.version(), mine.body()) : stored);
        }
        return out;
      });
    }

    @Override
    public Future<List<Scored>> range(Table table, String index, double min, double max, int offset, int limit) {
      table.requireIndex(index);
      if (limit <= 0) {
        return Future.succeededFuture(List.of());
      }
      return redis.send(Request.cmd(Command.ZRANGEBYSCORE).arg(indexKey(table, index)).arg(score(min)).arg(score(max))
          .arg("WITHSCORES").arg("LIMIT").arg(Math.max(0, offset)).arg(limit)).map(resp -> {
            List<Scored> out = new ArrayList<>();
            if (resp != null) {
              if (resp.size() > 0 && resp.get(0).size() == 2 && resp.get(0).get(0) != null) {
                // RESP3: [[member, score], ...]
                for (Response pair : resp) {
                  out.add(new Scored(pair.get(0).toString(), Double.parseDouble(pair.get(1).toString())));
                }
              } else {
                for (int i = 0; i + 1 < resp.size(); i += 2) {
                  out.add(new Scored(resp.get(i).toString(), Double.parseDouble(resp.get(i + 1).toString())));
                }
              }
            }
            return out;
          });
    }

    @Override
    public Future<Long> count(Table table, String index) {
      table.requireIndex(index);
      return redis.send(Request.cmd(Command.ZCARD).arg(indexKey(table, index))).map(r -> r == null ? 0L : r.toLong());
    }

    @Override
    public Future<Map<String, Long>> counters(Table table) {
      return redis.send(Request.cmd(Command.HGETALL).arg(countersKey(table))).map(r -> {
        Map<String, Long> out = new HashMap<>();
        if (r == null) {
          return out;
        }
        try {
          if (!r.getKeys().isEmpty()) {
            for (String k : r.getKeys()) {
              out.put(k, r.get(k).toLong());
            }
            return out;
          }
        } catch (RuntimeException notAMap) {
          // RESP2: a flat array
        }
        for (int i = 0; i + 1 < r.size(); i += 2) {
          out.put(r.get(i).toString(), r.get(i + 1).toLong());
        }
        return out;
      });
    }

    @Override
    public Future<Long> lastSeq(Log l) {
      long[] known = logs.get(l.id());
      if (known != null) {
        return Future.succeededFuture(known[0]);
      }
      return redis.send(Request.cmd(Command.GET).arg(lastKey(l))).map(r -> {
        long v = r == null ? 0 : Long.parseLong(r.toString());
        logs.putIfAbsent(l.id(), new long[] {v, v + 1});
        return logs.get(l.id())[0];
      });
    }

    @Override
    public Future<List<Entry>> read(Log l, long after, int limit) {
      if (limit <= 0) {
        return Future.succeededFuture(List.of());
      }
      return redis.send(Request.cmd(Command.XRANGE).arg(streamKey(l)).arg((after + 1) + "-0").arg("+").arg("COUNT").arg(limit))
          .map(r -> {
            List<Entry> out = new ArrayList<>();
            if (r != null) {
              for (Response e : r) {
                String id = e.get(0).toString();
                long seq = Long.parseLong(id.substring(0, id.indexOf('-')));
                Response fields = e.get(1);
                byte[] body = null;
                for (int i = 0; i + 1 < fields.size(); i += 2) {
                  if ("b".equals(fields.get(i).toString())) {
                    body = fields.get(i + 1).toBytes();
                  }
                }
                out.add(new Entry(seq, body == null ? new byte[0] : body));
              }
            }
            return out;
          });
    }

    @Override
    public void put(Table table, String key, byte[] body, Map<String, Double> indexes) {
      writable(table.group());
      indexes.keySet().forEach(table::requireIndex);
      String id = id(table, key);
      Row mine = written.get(id);
      written.put(id, new Row(key, (mine == null ? 0 : mine.version()) + 1, body));
      writes.add(new Object[] {"P", rowsKey(table), key, body});
      for (String ix : table.indexes()) {
        Double s = indexes.get(ix);
        if (s == null) {
          writes.add(new Object[] {"R", indexKey(table, ix), key});
        } else {
          writes.add(new Object[] {"Z", indexKey(table, ix), score(s), key});
        }
      }
    }

    @Override
    public void delete(Table table, String key) {
      writable(table.group());
      written.remove(id(table, key));
      writes.add(new Object[] {"D", rowsKey(table), key});
      for (String ix : table.indexes()) {
        writes.add(new Object[] {"R", indexKey(table, ix), key});
      }
    }

    @Override
    public void add(Table table, String counter, long delta) {
      writable(table.group());
      writes.add(new Object[] {"C", countersKey(table), counter, Long.toString(delta)});
    }

    @Override
    public void append(Log l, long seq, byte[] body) {
      writable(l.group());
      long[] known = logs.get(l.id());
      if (known == null) {
        throw new IllegalStateException("append to " + l.id() + " without reading its lastSeq first");
      }
      if (seq < known[1]) {
        throw new Conflict("append to " + l.id() + " as " + seq + " where the next number is " + known[1]);
      }
      known[1] = seq + 1;
      appended.add(l.id());
      checks.putIfAbsent("log\u0000" + l.id(), new Check("s", lastKey(l), "", known[0], l.group(), l.id()));
      writes.add(new Object[] {"A", streamKey(l), lastKey(l), Long.toString(seq), body});
    }

    @Override
    public void trim(Log l, long upTo) {
      writable(l.group());
      writes.add(new Object[] {"T", streamKey(l), Long.toString(upTo)});
    }

    /** Runs the commit script; a conflict fails with {@link Conflict}. */
    Future<Void> commit() {
      if (writes.isEmpty()) {
        return Future.succeededFuture();
      }
      List<Check> guarded = new ArrayList<>();
      for (Check c : checks.values()) {
        // A log's number is checked only when this transaction appends to it.
        if (c.log() == null || appended.contains(c.log())) {
          guarded.add(c);
        }
      }
      if (redis.cluster()) {
        Set<String> all = new LinkedHashSet<>(groups);
        guarded.forEach(c -> all.add(c.group()));
        if (all.size() > 1) {
          return Future.failedFuture(new IllegalArgumentException(
              "a transaction on a Redis Cluster keeps to one group (one hash slot); this one touches " + all));
        }
      }
      Map<String, Integer> keyIndex = new LinkedHashMap<>();
      List<Object> argv = new ArrayList<>();
      argv.add(Integer.toString(guarded.size()));
      for (Check c : guarded) {
        argv.add(c.kind());
        argv.add(Integer.toString(keyIndex.computeIfAbsent(c.key(), k -> keyIndex.size() + 1)));
        argv.add(c.field());
        argv.add(Long.toString(c.expected()));
      }
      for (Object[] w : writes) {
        argv.add(w[0]);
        argv.add(Integer.toString(keyIndex.computeIfAbsent((String) w[1], k -> keyIndex.size() + 1)));
        if ("A".equals(w[0])) {
          argv.add(Integer.toString(keyIndex.computeIfAbsent((String) w[2], k -> keyIndex.size() + 1)));
          argv.add(w[3]);
          argv.add(w[4]);
        } else {
          for (int i = 2; i < w.length; i++) {
            argv.add(w[i]);
          }
        }
      }
      Request r = Request.cmd(Command.EVAL).arg(COMMIT).arg(keyIndex.size());
      keyIndex.keySet().forEach(r::arg);
      for (Object a : argv) {
        if (a instanceof byte[] b) {
          r.arg(Buffer.buffer(b));
        } else {
          r.arg(a.toString());
        }
      }
      return redis.send(r).compose(out -> {
        if (out != null && out.get(0).toInteger() == 1) {
          return Future.succeededFuture();
        }
        int failed = out == null || out.size() < 2 ? 0 : out.get(1).toInteger();
        Check c = failed >= 1 && failed <= guarded.size() ? guarded.get(failed - 1) : null;
        return Future.failedFuture(new Conflict(c == null ? "the commit was refused"
            : (c.kind().equals("v") ? "row " + c.field() + " of " + c.key() : "log " + c.key()) + " changed since it was read"));
      });
    }
  }
}
