package dev.georesolver.state;

import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.state.rules.CacheReplay;
import dev.georesolver.state.rules.Corrections;
import dev.georesolver.state.tables.Entry;
import dev.georesolver.state.tables.Log;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The memory store's write-behind over {@link Tables}: two logs in group {@value #GROUP}, one of
 * idempotency entries and one of cached-index entries, appended in the order they were stored; read
 * back at start by replaying each with {@link CacheReplay} (newer wins; a correction, which carries
 * the resolution time of the answer it corrects, replaces only an answer no newer than that), and
 * kept within their bound by trimming the oldest entries. As the {@link CacheCorrection} of an
 * embedded store, it appends a correction's answer and index entry in the queue's own transaction.
 * Use from the state verticle's context.
 */
final class CacheStore implements StateStore.Cache, CacheCorrection {

  static final String GROUP = "cache";
  static final Log IDEM = new Log(GROUP, "idem");
  static final Log INDEX = new Log(GROUP, "index");
  /** Entries read per page while replaying. */
  static final int READ_PAGE = 10_000;
  /** The envelope's format. */
  private static final byte FORMAT = 1;

  private final Tables tables;
  private final Clock clock;
  private final long indexTtlS;

  /** @param indexTtlS how long a cached-index entry lives after it was resolved, seconds */
  CacheStore(Tables tables, Clock clock, long indexTtlS) {
    this.tables = tables;
    this.clock = clock;
    this.indexTtlS = indexTtlS;
  }

  /** One write of a log: what {@link CacheReplay} needs, and the entry's bytes. */
  record Written(String key, long recentMs, long expiresAtMs, long resolvedAtMs, Long basisMs, byte[] value) {}

  static byte[] encode(Written w) {
    ByteArrayOutputStream bo = new ByteArrayOutputStream(64 + w.value().length);
    try (DataOutputStream o = new DataOutputStream(bo)) {
      o.writeByte(FORMAT);
      o.writeUTF(w.key());
      o.writeLong(w.recentMs());
      o.writeLong(w.expiresAtMs());
      o.writeLong(w.resolvedAtMs());
      o.writeLong(w.basisMs() == null ? Long.MIN_VALUE : w.basisMs());
      o.write(w.value());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bo.toByteArray();
  }

  static Written decode(byte[] b) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
      if (in.readByte() != FORMAT) {
        throw new IllegalArgumentException("unknown cache entry format");
      }
      String key = in.readUTF();
      long recent = in.readLong();
      long expires = in.readLong();
      long resolved = in.readLong();
      long basis = in.readLong();
      byte[] value = in.readAllBytes();
      return new Written(key, recent, expires, resolved, basis == Long.MIN_VALUE ? null : basis, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Written idem(String key, StoredEntry e, long resolvedAtMs, Long basisMs) {
    return new Written(key, e.storedAtMs(), e.storedAtMs() + e.ttlMs(), resolvedAtMs, basisMs, e.toBuffer().getBytes());
  }

  Written index(IndexEntry e, long expiresAtMs, Long basisMs) {
    return new Written(e.addrKey(), e.resolvedAtMs(), expiresAtMs, e.resolvedAtMs(), basisMs, StateCodec.bytes(e.toJson()));
  }

  /** Appends {@code ws} to {@code log} inside {@code x}. */
  private static Future<Void> append(Txn x, Log log, List<Written> ws) {
    if (ws.isEmpty()) {
      return Future.succeededFuture();
    }
    return x.lastSeq(log).map(last -> {
      long seq = last;
      for (Written w : ws) {
        x.append(log, ++seq, encode(w));
      }
      return null;
    });
  }

  @Override
  public Future<Integer> write(CacheWrites w) {
    List<Written> idem = new ArrayList<>(w.idem().size());
    for (CacheWrites.Idem e : w.idem()) {
      idem.add(idem(e.key(), new StoredEntry(e.answer(), e.storedAtMs(), e.ttlMs()), e.answer().resolvedAtMs(), null));
    }
    List<Written> index = new ArrayList<>(w.index().size());
    for (IndexEntry e : w.index()) {
      index.add(index(e, e.resolvedAtMs() + indexTtlS * 1000, null));
    }
    return tables.transact(x -> append(x, IDEM, idem).compose(v -> append(x, INDEX, index)).map(idem.size() + index.size()));
  }

  @Override
  public Future<CacheWrites> load(String kind, int limit) {
    Log log = "idem".equals(kind) ? IDEM : INDEX;
    CacheReplay<byte[]> replay = new CacheReplay<>();
    return tables.read(x -> replay(x, log, 0, replay)).map(v -> {
      long now = clock.millis();
      List<CacheWrites.Idem> idem = new ArrayList<>();
      List<IndexEntry> index = new ArrayList<>();
      for (CacheReplay.Write<byte[]> w : replay.newest(limit, now)) {
        try {
          if (log == IDEM) {
            StoredEntry e = StoredEntry.fromJson(new JsonObject(new String(w.value(), StandardCharsets.UTF_8)));
            idem.add(new CacheWrites.Idem(w.key(), e.storedAtMs(), e.ttlMs(), e.answer()));
          } else {
            index.add(IndexEntry.fromJson(StateCodec.json(w.value())));
          }
        } catch (RuntimeException unreadable) {
          // an entry this build cannot read is skipped, never fatal
        }
      }
      return new CacheWrites(idem, index);
    });
  }

  private static Future<Void> replay(Txn x, Log log, long after, CacheReplay<byte[]> replay) {
    return x.read(log, after, READ_PAGE).compose(es -> {
      long next = after;
      for (Entry e : es) {
        next = e.seq();
        try {
          Written w = decode(e.body());
          replay.apply(new CacheReplay.Write<>(e.seq(), w.key(), w.recentMs(), w.expiresAtMs(), w.resolvedAtMs(), w.basisMs(), w.value()));
        } catch (RuntimeException unreadable) {
          // skipped, never fatal
        }
      }
      return es.size() < READ_PAGE ? Future.succeededFuture() : replay(x, log, next, replay);
    });
  }

  /**
   * Keeps each log within {@code maxEntries} entries by trimming its oldest, at most {@code slice} a
   * call, so one call never holds the state worker for long.
   *
   * @return whether a log still holds more than its bound
   */
  Future<Boolean> prune(long maxEntries, int slice) {
    return tables.transact(x -> trim(x, IDEM, maxEntries, slice).compose(a -> trim(x, INDEX, maxEntries, slice).map(b -> a || b)));
  }

  private static Future<Boolean> trim(Txn x, Log log, long maxEntries, int slice) {
    return x.lastSeq(log).compose(last -> x.read(log, 0, 1).map(first -> {
      if (first.isEmpty()) {
        return false;
      }
      long oldest = first.get(0).seq();
      long lastOver = last - maxEntries;
      if (lastOver < oldest) {
        return false;
      }
      long upTo = Math.min(lastOver, oldest + slice - 1);
      x.trim(log, upTo);
      return upTo < lastOver;
    }));
  }

  @Override
  public boolean shared() {
    return false;
  }

  @Override
  public Future<Void> before(Debt debt, Correction c, Repair repair) {
    return Future.succeededFuture();
  }

  /**
   * The corrected answer and index entry, appended with the degraded answer's time as their basis:
   * replaying the logs applies the newer-wins rule where the log says what was stored before them.
   */
  @Override
  public Future<Void> within(Txn x, Debt debt, Correction c, Repair repair) {
    long now = clock.millis();
    List<Written> idem = List.of(idem(debt.idempotencyKey(), new StoredEntry(c.answer(), now, repair.ttlMs()), repair.correctedAtMs(),
        debt.answerResolvedAtMs()));
    IndexEntry e = Corrections.indexEntry(repair);
    List<Written> index = e == null ? List.of() : List.of(index(e, now + repair.indexTtlS() * 1000, debt.answerResolvedAtMs()));
    return append(x, IDEM, idem).compose(v -> append(x, INDEX, index));
  }

  /**
   * Imports a write-behind log's entries as an earlier release's layout stored them (the
   * migration), in order, with their numbers, so replaying the log decides as it did. An entry at or
   * below the log's last number was imported before: it is checked (the same key under its number,
   * unless trimmed since); one that is not there fails the import ({@link LegacyImport.Unaccounted}).
   * How many were appended.
   *
   * @param kind {@code idem} or {@code index}
   * @param entries in ascending number
   */
  Future<Integer> importEntries(String kind, List<Legacy.CacheEntry> entries) {
    if (entries.isEmpty()) {
      return Future.succeededFuture(0);
    }
    Log log = "idem".equals(kind) ? IDEM : INDEX;
    return tables.transact(x -> x.lastSeq(log).compose(last -> Imports.first(x, log).compose(first -> {
      List<Legacy.CacheEntry> seen = entries.stream().filter(e -> e.seq() <= last && e.seq() >= first).toList();
      Future<Map<Long, Entry>> there = seen.isEmpty() ? Future.succeededFuture(Map.of())
          : Imports.stored(x, log, seen.get(0).seq(), seen.get(seen.size() - 1).seq());
      return there.map(stored -> {
        long next = last;
        int written = 0;
        for (Legacy.CacheEntry e : entries) {
          if (e.seq() > next) {
            x.append(log, e.seq(), encode(new Written(e.key(), e.recentMs(), e.expiresAtMs(), e.resolvedAtMs(), e.basisMs(), e.value())));
            next = e.seq();
            written++;
          } else if (e.seq() >= first) {
            Entry s = stored.get(e.seq());
            if (s == null || !decode(s.body()).key().equals(e.key())) {
              throw new LegacyImport.Unaccounted(kind + " cache entry " + e.seq() + " of the earlier layout is not the one this store "
                  + "holds under its number");
            }
          }
        }
        return written;
      });
    })));
  }
}
