package dev.georesolver.state;

import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Page;
import dev.georesolver.state.rules.Cursors;
import dev.georesolver.state.rules.OutboxRetention;
import dev.georesolver.state.tables.Entry;
import dev.georesolver.state.tables.Log;
import dev.georesolver.state.tables.Table;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The corrections outbox over {@link Tables}: a log in the queue's group whose entry numbers are the
 * cursors consumers page with, the answers already corrected (no key is corrected twice for one
 * answer), and the named delivery cursors of its consumers (webhooks). Entries are kept for their
 * retention ({@link OutboxRetention}) and trimmed by housekeeping. Use from the state verticle's
 * context.
 */
final class OutboxStore implements StateStore.Outbox {

  static final Log OUTBOX = new Log(QueueStore.GROUP, "outbox");
  /** Correction id → the cursor it was appended at; indexed by when, for pruning. */
  static final Table CORRECTED = Table.of(QueueStore.GROUP, "corrected", "at");
  static final Table CURSORS = Table.of(QueueStore.GROUP, "cursors");
  /** How long an answer is remembered as corrected, milliseconds: 30 days. */
  static final long CORRECTED_KEEP_MS = 30L * 86_400_000L;

  private final Tables tables;

  OutboxStore(Tables tables) {
    this.tables = tables;
  }

  /**
   * Appends {@code c} inside {@code x} unless its answer was corrected already; its cursor, or null
   * when it was not appended.
   */
  Future<String> appendOnce(Txn x, Correction c, long nowMs) {
    return x.get(CORRECTED, c.correctionId()).compose(done -> {
      if (done.exists()) {
        return Future.succeededFuture(null);
      }
      return x.lastSeq(OUTBOX).map(last -> {
        long seq = last + 1;
        String cursor = Long.toString(seq);
        x.append(OUTBOX, seq, c.withCursor(null).toJson().toBuffer().getBytes());
        x.put(CORRECTED, c.correctionId(), cursor.getBytes(StandardCharsets.US_ASCII), Map.of("at", (double) nowMs));
        return cursor;
      });
    });
  }

  @Override
  public Future<Page> page(String after, int limit) {
    long from = after == null || after.isEmpty() ? 0 : Cursors.seq(after);
    return tables.read(x -> x.read(OUTBOX, from, limit)).map(entries -> {
      List<JsonObject> out = new ArrayList<>(entries.size());
      String next = after;
      for (Entry e : entries) {
        next = Long.toString(e.seq());
        out.add(new JsonObject(e.text()).put("cursor", next));
      }
      return new Page(out, next);
    });
  }

  @Override
  public Future<String> head() {
    return tables.read(x -> x.lastSeq(OUTBOX)).map(last -> last == 0 ? null : Long.toString(last));
  }

  @Override
  public Future<String> cursor(String name) {
    return tables.read(x -> x.get(CURSORS, name)).map(r -> r.exists() ? r.text() : null);
  }

  @Override
  public Future<Void> saveCursor(String name, String cursor) {
    return tables.transact(x -> {
      x.put(CURSORS, name, cursor.getBytes(StandardCharsets.UTF_8), Map.of());
      return Future.succeededFuture();
    });
  }

  /**
   * Trims the outbox's oldest entries past their retention ({@link OutboxRetention}), looking at
   * most {@code slice} entries; how many were removed.
   */
  Future<Integer> trim(long nowMs, int slice) {
    return tables.transact(x -> x.read(OUTBOX, 0, slice).map(entries -> {
      List<OutboxRetention.Aged> aged = new ArrayList<>(entries.size());
      for (Entry e : entries) {
        aged.add(new OutboxRetention.Aged(e.seq(), correctedAt(e)));
      }
      long through = OutboxRetention.trimThrough(aged, nowMs, OutboxRetention.KEEP_MS);
      if (through > 0) {
        x.trim(OUTBOX, through);
      }
      return (int) aged.stream().filter(a -> a.seq() <= through).count();
    }));
  }

  /** When an entry's correction was made, or -1 when it does not say. */
  private static long correctedAt(Entry e) {
    try {
      Object at = new JsonObject(e.text()).getValue("corrected_at_ms");
      return at instanceof Number n ? n.longValue() : -1;
    } catch (RuntimeException bad) {
      return -1;
    }
  }

  /** Forgets answers corrected more than {@link #CORRECTED_KEEP_MS} ago, at most {@code slice}; how many. */
  Future<Integer> prune(long nowMs, int slice) {
    return tables.transact(x -> x.range(CORRECTED, "at", Double.NEGATIVE_INFINITY, nowMs - CORRECTED_KEEP_MS, 0, slice).map(old -> {
      old.forEach(s -> x.delete(CORRECTED, s.key()));
      return old.size();
    }));
  }

  /**
   * Imports outbox entries as an earlier release's layout stored them (the migration), in order,
   * each with its number, so the cursors consumers hold go on working; each appended entry's answer
   * is remembered as corrected from when it was corrected (so it is forgotten when the earlier
   * layout would have). An entry at or below the outbox's last number was imported before: it is
   * checked, not appended again; one that is not there as imported fails the import
   * ({@link LegacyImport.Unaccounted}). How many were appended.
   *
   * @param entries in ascending number
   * @param nowMs when an entry without its correction time counts as corrected
   */
  Future<Integer> importEntries(List<Legacy.OutboxEntry> entries, long nowMs) {
    if (entries.isEmpty()) {
      return Future.succeededFuture(0);
    }
    return tables.transact(x -> x.lastSeq(OUTBOX).compose(last -> {
      List<Legacy.OutboxEntry> seen = entries.stream().filter(e -> e.seq() <= last).toList();
      Future<Map<Long, Entry>> there = seen.isEmpty() ? Future.succeededFuture(Map.of())
          : Imports.stored(x, OUTBOX, seen.get(0).seq(), seen.get(seen.size() - 1).seq());
      return there.map(stored -> {
        long next = last;
        int written = 0;
        for (Legacy.OutboxEntry e : entries) {
          String id = e.correction().getString("correction_id");
          if (e.seq() > next) {
            x.append(OUTBOX, e.seq(), e.correction().toBuffer().getBytes());
            if (id != null) {
              x.put(CORRECTED, id, Long.toString(e.seq()).getBytes(StandardCharsets.US_ASCII),
                  Map.of("at", (double) e.correction().getLong("corrected_at_ms", nowMs)));
            }
            next = e.seq();
            written++;
          } else {
            Entry s = stored.get(e.seq());
            if (s == null || !Objects.equals(id, new JsonObject(s.text()).getString("correction_id"))) {
              throw new LegacyImport.Unaccounted("outbox entry " + e.seq() + " of the earlier layout is not the one this store holds "
                  + "under its number");
            }
          }
        }
        return written;
      });
    }));
  }

  /** Imports a named delivery cursor (the migration) unless the name has one; whether it was written. */
  Future<Boolean> importCursor(String name, String cursor) {
    return tables.transact(x -> x.get(CURSORS, name).map(r -> {
      if (r.exists()) {
        return false;
      }
      x.put(CURSORS, name, cursor.getBytes(StandardCharsets.UTF_8), Map.of());
      return true;
    }));
  }
}
