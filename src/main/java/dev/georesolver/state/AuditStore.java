package dev.georesolver.state;

import dev.georesolver.bus.AuditEvent;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.AuditRules;
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
 * chain (a log whose entry numbers are the records' sequence numbers) and its retention anchor, and
 * the list of tenants with a chain. A batch of records extends each tenant's chain in one
 * transaction, so two chain instances or two resolvers never fork it (the one that appended second
 * runs again from the new head). Every rule is {@link AuditRules}'; the hash is
 * {@link AuditChain#hash}. Use from the state verticle's context, or read-only from the command line.
 */
final class AuditStore implements StateStore.Audit {

  /** The list of tenants with a chain (its own group). */
  static final Table TENANTS = Table.of("audit", "tenants", "all");
  /** Entries one page request looks through at most, per record asked for. */
  static final int SCAN_FACTOR = 20;

  private final Tables tables;
  private final Clock clock;

  AuditStore(Tables tables, Clock clock) {
    this.tables = tables;
    this.clock = clock;
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

  /** Extends one tenant's chain by its records in this batch; how many were appended. */
  private Future<Integer> appendTenant(String tenant, List<AuditEvent> events) {
    Log log = chain(tenant);
    return tables.transact(x -> x.lastSeq(log).compose(last -> anchor(x, tenant).compose(anchor -> tail(x, log, last, anchor,
        events.size()).map(tail -> {
          AuditChain.Anchor head = tail.isEmpty() ? anchor : tail.get(tail.size() - 1).anchor();
          List<AuditRules.Link> links = AuditRules.extend(head, events, tail.stream().map(AuditRules.Link::id).toList());
          for (AuditRules.Link l : links) {
            x.append(log, l.seq(), StateCodec.link(l));
          }
          return new int[] {links.size(), last == 0 ? 1 : 0};
        })))).compose(r -> r[1] == 1 && r[0] > 0 ? register(tenant).map(r[0]) : Future.succeededFuture(r[0]));
  }

  /** The chain's last {@code n} records (fewer when it is shorter), oldest first. */
  private static Future<List<AuditRules.Link>> tail(Txn x, Log log, long last, AuditChain.Anchor anchor, int n) {
    if (last <= anchor.seq()) {
      return Future.succeededFuture(List.of());
    }
    long from = Math.max(anchor.seq(), last - n);
    return x.read(log, from, n).map(es -> es.stream().map(e -> StateCodec.link(e.seq(), e.body())).toList());
  }

  private Future<Void> register(String tenant) {
    return tables.transact(x -> {
      x.put(TENANTS, tenant, new byte[0], Map.of("all", 0.0));
      return Future.succeededFuture();
    });
  }

  /** Where {@code tenant}'s chain starts: its retention anchor, or {@link AuditChain.Anchor#NONE}. */
  static Future<AuditChain.Anchor> anchor(Txn x, String tenant) {
    return x.get(meta(tenant), "anchor").map(AuditStore::anchor);
  }

  private static AuditChain.Anchor anchor(Row r) {
    if (!r.exists()) {
      return AuditChain.Anchor.NONE;
    }
    JsonObject j = StateCodec.json(r.body());
    return new AuditChain.Anchor(j.getLong("seq"), j.getString("hash"));
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
      x.put(meta(tenant), "anchor", StateCodec.bytes(new JsonObject().put("seq", last.seq()).put("hash", last.hash())
          .put("at_ms", clock.millis())), Map.of());
      x.trim(log, upTo);
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
   * the last number the chain ever took (a record removed from the end is found too).
   */
  Future<AuditReader.Report> verify(String tenant) {
    Log log = chain(tenant);
    return tables.read(x -> anchor(x, tenant).compose(a -> x.lastSeq(log).compose(last -> {
      AuditChain.Verifier v = new AuditChain.Verifier(tenant, a);
      return walk(x, log, a.seq(), v).map(end -> AuditReader.report(tenant, v, a, last));
    })));
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
        x.put(meta(tenant), "anchor", StateCodec.bytes(new JsonObject().put("seq", a.seq()).put("hash", a.hash())), Map.of());
        x.trim(chain(tenant), a.seq());
      }
      return (Void) null;
    })).compose(v -> register(tenant));
  }
}
