package dev.georesolver.state;

import dev.georesolver.bus.AuditEvent;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.AuditGaps;
import dev.georesolver.state.rules.AuditRules;
import dev.georesolver.state.rules.AuditSeal;
import dev.georesolver.state.tables.Entry;
import dev.georesolver.state.tables.Log;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The audit trail over {@link Tables}: one group per tenant ({@code audit:<tenant>}) holding its
 * chain (a log whose entry numbers are the records' sequence numbers), the index of its records' ids
 * (so an append is idempotent by record id), its retention anchor and its opened marker (both signed
 * with the deployment secret, {@link AuditKey}), and the list of tenants with a chain. A record's
 * idempotency key is replaced by its keyed hash before it is chained. A batch of records extends each tenant's chain in one
 * transaction, so two chain instances or two resolvers never fork it (the one that appended second
 * runs again from the new head). Every rule is {@link AuditRules}'; the hash is
 * {@link AuditChain#hash}. Use from the state verticle's context, or read-only from the command line.
 */
final class AuditStore implements StateStore.Audit {

  /** The list of tenants with a chain (its own group). */
  static final Table TENANTS = Table.of("audit", "tenants", "all");
  /** The writers' sessions ({@code renewed}: when each was last renewed, epoch ms). */
  static final Table SESSIONS = Table.of("audit", "sessions", "renewed");
  /** Entries one page request looks through at most, per record asked for. */
  static final int SCAN_FACTOR = 20;

  private final Tables tables;
  private final Clock clock;
  private final AuditKey key;

  AuditStore(Tables tables, Clock clock, AuditKey key) {
    this.tables = tables;
    this.clock = clock;
    this.key = key;
  }

  static String group(String tenant) {
    return "audit:" + tenant;
  }

  static Log chain(String tenant) {
    return new Log(group(tenant), "chain");
  }

  static Table meta(String tenant) {
    return Table.of(group(tenant), "meta");
  }

  /**
   * The chain's record ids (an append leaves out the ids the chain holds already). Rows are written
   * without index entries: nothing reads ids by sequence number, and each entry cost every audit
   * record two more B-tree inserts. The {@code seq} index stays declared so that deleting an id (by
   * retention) also drops the entry an earlier release wrote for it.
   */
  static Table ids(String tenant) {
    return Table.of(group(tenant), "ids", "seq");
  }

  @Override
  public Future<JsonObject> append(List<AuditEvent> events) {
    Map<String, List<AuditEvent>> byTenant = new LinkedHashMap<>();
    events.forEach(e -> byTenant.computeIfAbsent(e.tenant(), t -> new ArrayList<>()).add(e));
    Future<int[]> all = Future.succeededFuture(new int[2]);
    for (Map.Entry<String, List<AuditEvent>> t : byTenant.entrySet()) {
      all = all.compose(sum -> appendTenant(t.getKey(), t.getValue()).map(n -> {
        sum[0] += n;
        sum[1] += t.getValue().size() - n;
        return sum;
      }));
    }
    return all.map(n -> new JsonObject().put("written", n[0]).put("duplicate", n[1]));
  }

  /**
   * Extends one tenant's chain by its records in this batch, leaving out those whose id the chain
   * holds already (a batch retried whole after part of it was written); how many were appended.
   */
  private Future<Integer> appendTenant(String tenant, List<AuditEvent> given) {
    Log log = chain(tenant);
    Table ids = ids(tenant);
    List<AuditEvent> events = given.stream()
        .map(e -> new AuditEvent(e.tenant(), e.id(), e.tsMs(), key.keyIdempotency(e.body()))).toList();
    List<String> asked = events.stream().map(AuditEvent::id).distinct().toList();
    return tables.transact(x -> x.lastSeq(log).compose(last -> anchor(x, tenant).compose(anchor -> head(x, log, last, anchor)
        .compose(head -> x.get(ids, asked).map(rows -> {
          List<String> stored = rows.stream().filter(Row::exists).map(Row::key).toList();
          List<AuditRules.Link> links = AuditRules.extend(head, events, stored);
          for (AuditRules.Link l : links) {
            x.append(log, l.seq(), StateCodec.link(l));
            x.put(ids, l.id(), new byte[0], Map.of());
          }
          return new int[] {links.size(), last == 0 ? 1 : 0};
        }))))).compose(r -> r[1] == 1 && r[0] > 0 ? register(tenant).map(r[0]) : Future.succeededFuture(r[0]));
  }

  /** Where the chain continues: its last record, or its anchor when none is left after it. */
  private static Future<AuditChain.Anchor> head(Txn x, Log log, long last, AuditChain.Anchor anchor) {
    if (last <= anchor.seq()) {
      return Future.succeededFuture(anchor);
    }
    return x.read(log, last - 1, 1).map(es -> es.isEmpty() ? anchor : StateCodec.link(es.get(0).seq(), es.get(0).body()).anchor());
  }

  private Future<Void> register(String tenant) {
    return tables.transact(x -> {
      x.put(TENANTS, tenant, new byte[0], Map.of("all", 0.0));
      return Future.succeededFuture();
    });
  }

  /** Where {@code tenant}'s chain starts: its retention anchor, or {@link AuditChain.Anchor#NONE}. */
  static Future<AuditChain.Anchor> anchor(Txn x, String tenant) {
    return signedAnchor(x, tenant).map(Signed::anchor);
  }

  /**
   * A retention anchor as stored: where the chain starts, when the last removed record happened
   * ({@code tsMs}, epoch ms; 0 when an earlier layout did not say), and its signature (null when none).
   */
  record Signed(AuditChain.Anchor anchor, long tsMs, String sig) {}

  static Future<Signed> signedAnchor(Txn x, String tenant) {
    return x.get(meta(tenant), "anchor").map(r -> {
      if (!r.exists()) {
        return new Signed(AuditChain.Anchor.NONE, 0, null);
      }
      JsonObject j = StateCodec.json(r.body());
      return new Signed(new AuditChain.Anchor(j.getLong("seq"), j.getString("hash")), j.getLong("ts_ms", 0L), j.getString("sig"));
    });
  }

  /** Writes {@code tenant}'s anchor, signed. */
  private void putAnchor(Txn x, String tenant, long seq, String hash, long tsMs) {
    JsonObject a = new JsonObject().put("seq", seq).put("hash", hash).put("ts_ms", tsMs).put("at_ms", clock.millis());
    if (key.present()) {
      a.put("sig", AuditSeal.anchor(key.anchorKey(), tenant, seq, hash, tsMs));
    }
    x.put(meta(tenant), "anchor", StateCodec.bytes(a), Map.of());
  }

  /**
   * Marks each of {@code tenants}' trails as opened (a signed row), unless it is already: from then
   * on a trail deleted whole is found by {@code audit verify}. Registers each in the tenant list.
   */
  @Override
  public Future<Void> open(List<String> tenants) {
    Future<Void> all = Future.succeededFuture();
    for (String t : tenants) {
      all = all.compose(v -> tables.transact(x -> x.get(meta(t), "opened").map(r -> {
        if (!r.exists()) {
          long at = clock.millis();
          JsonObject o = new JsonObject().put("at_ms", at);
          if (key.present()) {
            o.put("sig", AuditSeal.opened(key.anchorKey(), t, at));
          }
          x.put(meta(t), "opened", StateCodec.bytes(o), Map.of());
        }
        return (Void) null;
      })).compose(v2 -> register(t)));
    }
    return all;
  }

  @Override
  public Future<Void> renew(String session, long atMost) {
    long now = clock.millis();
    byte[] body = StateCodec.bytes(new JsonObject().put("at_most", atMost).put("renewed_ms", now));
    return tables.transact(x -> {
      x.put(SESSIONS, session, body, Map.of("renewed", (double) now));
      return Future.succeededFuture();
    });
  }

  @Override
  public Future<Void> close(String session) {
    return tables.transact(x -> {
      x.delete(SESSIONS, session);
      return Future.succeededFuture();
    });
  }

  @Override
  public Future<Integer> sweep() {
    long now = clock.millis();
    double before = (double) (now - AuditGaps.STALE_MS);
    return tables.read(x -> x.range(SESSIONS, "renewed", Double.NEGATIVE_INFINITY, before, 0, 100)
        .compose(stale -> x.get(SESSIONS, stale.stream().map(Txn.Scored::key).toList()))).compose(rows -> tenants().compose(ts -> {
          Future<Integer> all = Future.succeededFuture(0);
          for (Row r : rows) {
            if (r.exists()) {
              all = all.compose(n -> lost(r, ts, now).map(v -> n + 1));
            }
          }
          return all;
        }));
  }

  /** Records lost session {@code r} in each of {@code tenants}' chains, then forgets it unless it was renewed meanwhile. */
  private Future<Void> lost(Row r, List<String> tenants, long now) {
    JsonObject s = StateCodec.json(r.body());
    long seen = s.getLong("renewed_ms", 0L);
    if (!AuditGaps.stale(seen, now)) {
      return Future.succeededFuture();
    }
    Future<Integer> all = Future.succeededFuture(0);
    for (String t : tenants) {
      all = all.compose(n -> appendTenant(t, List.of(AuditGaps.lost(r.key(), t, s.getLong("at_most", 0L), seen, now))));
    }
    return all.compose(n -> tables.transact(x -> x.get(SESSIONS, r.key()).map(now2 -> {
      if (now2.exists() && !AuditGaps.stale(StateCodec.json(now2.body()).getLong("renewed_ms", 0L), now)) {
        return (Void) null;
      }
      x.delete(SESSIONS, r.key());
      return (Void) null;
    })));
  }

  @Override
  public Future<JsonObject> page(String tenant, String after, long fromMs, long toMs, int limit) {
    long from = after == null || after.isEmpty() ? 0 : Long.parseLong(after);
    return tables.read(x -> scan(x, chain(tenant), from, fromMs, toMs, limit, new JsonArray(), (long) limit * SCAN_FACTOR));
  }

  private Future<JsonObject> scan(Txn x, Log log, long after, long fromMs, long toMs, int limit, JsonArray found, long budget) {
    int count = (int) Math.min(Math.max(limit, 100), budget);
    return x.read(log, after, count).compose(es -> {
      long next = after;
      for (Entry e : es) {
        AuditRules.Link l = StateCodec.link(e.seq(), e.body());
        next = l.seq();
        if (l.tsMs() >= fromMs && l.tsMs() < toMs) {
          found.add(AuditRows.served(l.body(), l.seq(), l.prevHash(), l.hash()));
          if (found.size() == limit) {
            return Future.succeededFuture(page(found, next));
          }
        }
      }
      long left = budget - es.size();
      if (es.size() < count || left <= 0) {
        return Future.succeededFuture(page(found, next));
      }
      return scan(x, log, next, fromMs, toMs, limit, found, left);
    });
  }

  private static JsonObject page(JsonArray found, long next) {
    return new JsonObject().put("records", found).put("next", Long.toString(next));
  }

  @Override
  public Future<Integer> retain(long cutoffMs) {
    return tenants().compose(ts -> {
      Future<Integer> all = Future.succeededFuture(0);
      for (String t : ts) {
        all = all.compose(n -> retainTenant(t, cutoffMs).map(m -> n + m));
      }
      return all;
    });
  }

  /** Removes {@code tenant}'s expired prefix, a slice per transaction, moving the anchor with each. */
  private Future<Integer> retainTenant(String tenant, long cutoffMs) {
    Log log = chain(tenant);
    return tables.transact(x -> anchor(x, tenant).compose(a -> x.read(log, a.seq(), AuditRules.RETAIN_SLICE).map(es -> {
      List<AuditRules.Stamp> stamps = new ArrayList<>(es.size());
      Map<Long, AuditRules.Link> bySeq = new LinkedHashMap<>();
      for (Entry e : es) {
        AuditRules.Link l = StateCodec.link(e.seq(), e.body());
        stamps.add(new AuditRules.Stamp(l.seq(), l.tsMs()));
        bySeq.put(l.seq(), l);
      }
      long upTo = AuditRules.removable(stamps, cutoffMs);
      if (upTo == 0) {
        return 0;
      }
      AuditRules.Link last = bySeq.get(upTo);
      putAnchor(x, tenant, last.seq(), last.hash(), last.tsMs());
      x.trim(log, upTo);
      bySeq.values().stream().filter(l -> l.seq() <= upTo).forEach(l -> x.delete(ids(tenant), l.id()));
      return (int) bySeq.keySet().stream().filter(s -> s <= upTo).count();
    }))).compose(n -> n == AuditRules.RETAIN_SLICE ? retainTenant(tenant, cutoffMs).map(m -> n + m) : Future.succeededFuture(n));
  }

  /** The tenants with a chain, in name order. */
  Future<List<String>> tenants() {
    return tables.read(x -> x.range(TENANTS, "all", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, Integer.MAX_VALUE))
        .map(ms -> new ArrayList<>(new TreeSet<>(ms.stream().map(Txn.Scored::key).toList())));
  }

  /**
   * Walks {@code tenant}'s chain from its anchor, recomputing every hash, and checks that it ends at
   * the last number the chain ever took (a record removed from the end is found too). Before the
   * walk, what the database alone could forge: the anchor's signature, that the anchor is older than
   * the retention period (retention never removes a younger record), and, when {@code expected}, that
   * the tenant's trail was opened at all (a signed marker).
   *
   * @param expect what beyond the chain is checked: nothing unless {@link AuditReader.Expect#signed}
   */
  Future<AuditReader.Report> verify(String tenant, AuditReader.Expect expect) {
    Log log = chain(tenant);
    return tables.read(x -> signedAnchor(x, tenant).compose(sa -> x.get(meta(tenant), "opened").compose(opened ->
        x.lastSeq(log).compose(last -> {
          AuditChain.Anchor a = sa.anchor();
          AuditChain.Break trust = expect.signed()
              ? trust(tenant, sa, opened, last, expect.retentionMs(), expect.configured().contains(tenant)) : null;
          if (trust != null) {
            return Future.succeededFuture(new AuditReader.Report(tenant, 0, a, trust));
          }
          AuditChain.Verifier v = new AuditChain.Verifier(tenant, a);
          return walk(x, log, a.seq(), v).map(end -> AuditReader.report(tenant, v, a, last));
        }))));
  }

  /** What is wrong with the parts of the trail only the deployment secret vouches for, or null. */
  private AuditChain.Break trust(String tenant, Signed sa, Row opened, long last, long retentionMs, boolean expected) {
    long seq = sa.anchor().seq();
    if (expected && !opened.exists()) {
      return new AuditChain.Break(tenant, 0, "-", last == 0 && seq == 0
          ? "the tenant has no audit trail, though it is configured (deleted whole, or the resolver never ran with it)"
          : "the trail's opened marker is missing (removed from the store)");
    }
    if (opened.exists()) {
      JsonObject o = StateCodec.json(opened.body());
      String why = signature(o.getString("sig"), () -> AuditSeal.opened(key.anchorKey(), tenant, o.getLong("at_ms", 0L)));
      if (why != null) {
        return new AuditChain.Break(tenant, 0, "opened", "the trail's opened marker " + why);
      }
    }
    if (seq == 0) {
      return null;
    }
    String why = signature(sa.sig(), () -> AuditSeal.anchor(key.anchorKey(), tenant, seq, sa.anchor().hash(), sa.tsMs()));
    if (why != null) {
      return new AuditChain.Break(tenant, seq, "anchor", "the retention anchor " + why + ": records 1-" + seq
          + " may have been removed by hand");
    }
    long cutoff = clock.millis() - retentionMs;
    if (retentionMs > 0 && sa.tsMs() >= cutoff) {
      return new AuditChain.Break(tenant, seq, "anchor", "the retention anchor removed records up to seq " + seq + ", the last of "
          + "them from " + java.time.Instant.ofEpochMilli(sa.tsMs()) + ", younger than retention_days: records were removed early");
    }
    return null;
  }

  /** Why {@code sig} does not vouch (unsigned, no key to check it, or not the signature), or null. */
  private String signature(String sig, java.util.function.Supplier<String> expected) {
    if (sig == null) {
      return "is not signed";
    }
    if (!key.present()) {
      return "cannot be checked: no audit key (audit.key_env, audit.key_file or the generated " + AuditKey.FILE + ")";
    }
    return AuditSeal.same(sig, expected.get()) ? null : "has a signature that does not match the audit key";
  }

  private Future<Void> walk(Txn x, Log log, long after, AuditChain.Verifier v) {
    return x.read(log, after, AuditReader.PAGE).compose(es -> {
      long next = after;
      for (Entry e : es) {
        AuditRules.Link l;
        try {
          l = StateCodec.link(e.seq(), e.body());
        } catch (RuntimeException unreadable) {
          l = new AuditRules.Link(e.seq(), "?", 0, "", "", new String(e.body(), StandardCharsets.UTF_8));
        }
        v.accept(new AuditChain.Stored(l.seq(), l.id(), l.prevHash(), l.hash(), l.body()));
        next = e.seq();
      }
      return es.size() < AuditReader.PAGE ? Future.succeededFuture() : walk(x, log, next, v);
    });
  }

  /**
   * Imports chain records as an earlier release's layout stored them (the migration), in order,
   * with their numbers, hashes, times and ids, so the chain verifies as it did and new records
   * extend it. A record at or below the chain's last number was imported before: it is checked
   * (the same hash under its number, unless retention has removed it since); one that differs fails
   * the import ({@link LegacyImport.Unaccounted}). How many were appended.
   *
   * @param links in ascending number
   */
  Future<Integer> importLinks(String tenant, List<AuditRules.Link> links) {
    if (links.isEmpty()) {
      return Future.succeededFuture(0);
    }
    Log log = chain(tenant);
    return tables.transact(x -> x.lastSeq(log).compose(last -> anchor(x, tenant).compose(a -> {
      List<AuditRules.Link> seen = links.stream().filter(l -> l.seq() <= last && l.seq() > a.seq()).toList();
      Future<Map<Long, Entry>> there = seen.isEmpty() ? Future.succeededFuture(Map.of())
          : Imports.stored(x, log, seen.get(0).seq(), seen.get(seen.size() - 1).seq());
      return there.map(stored -> {
        long next = last;
        int written = 0;
        for (AuditRules.Link l : links) {
          if (l.seq() > next) {
            x.append(log, l.seq(), StateCodec.link(l));
            x.put(ids(tenant), l.id(), new byte[0], Map.of());
            next = l.seq();
            written++;
          } else if (l.seq() > a.seq()) {
            Entry e = stored.get(l.seq());
            if (e == null || !l.hash().equals(StateCodec.link(e.seq(), e.body()).hash())) {
              throw new LegacyImport.Unaccounted("audit record " + l.seq() + " of tenant " + tenant + " in the earlier layout is not "
                  + "the one this store holds under its number");
            }
          }
        }
        return written;
      });
    }))).compose(n -> n > 0 ? register(tenant).map(n) : Future.succeededFuture(n));
  }

  /**
   * Imports a retention anchor as an earlier release's layout stored it (the migration), unless
   * this store's anchor is there already or further on (retention moved it since); records an
   * earlier import brought below it go with it.
   */
  Future<Void> importAnchor(String tenant, AuditChain.Anchor a) {
    if (a.seq() <= 0) {
      return Future.succeededFuture();
    }
    return tables.transact(x -> anchor(x, tenant).map(current -> {
      if (current.seq() < a.seq()) {
        // The earlier release's retention went further since an earlier import: the chain follows.
        // Signed now (the import trusts the earlier layout it reads); when it happened is unknown.
        putAnchor(x, tenant, a.seq(), a.hash(), 0);
        x.trim(chain(tenant), a.seq());
      }
      return (Void) null;
    })).compose(v -> register(tenant));
  }
}
