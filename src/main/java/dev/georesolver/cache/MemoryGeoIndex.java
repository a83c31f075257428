package dev.georesolver.cache;

import dev.georesolver.bus.IndexEntry;
import dev.georesolver.geo.GreatCircle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-process cached index for {@code deduplication_store: memory}: a map by address key bounded
 * by entries and by bytes (least recently written evicted first, whichever bound is passed) and a
 * grid of 0.01° cells for nearest-point lookups, so a reverse lookup reads a handful of cells, never
 * the whole index. Not thread-safe: confined to the index verticle.
 */
final class MemoryGeoIndex implements GeoIndex {

  /** Grid cell size, degrees (about 1.1 km of latitude). */
  static final double CELL_DEG = 0.01;

  /** Bytes counted per entry on top of its strings: the records, the map and grid entries. */
  static final int ENTRY_OVERHEAD_BYTES = 256;

  private final long maxEntries;
  private final long maxBytes;
  private final java.time.Clock clock;
  private long bytes;
  private final LinkedHashMap<String, Held> byKey = new LinkedHashMap<>();
  private final Map<Long, List<String>> cells = new HashMap<>();

  private record Held(IndexEntry entry, long expiresAtMs) {}

  /**
   * @param maxEntries the most entries held
   * @param maxBytes the most bytes held, as estimated by {@link #weight}
   */
  MemoryGeoIndex(long maxEntries, long maxBytes, java.time.Clock clock) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.clock = clock;
  }

  /** The estimated bytes an entry holds: its strings (UTF-16) and a fixed overhead. */
  static long weight(IndexEntry e) {
    return ENTRY_OVERHEAD_BYTES + 2L * (len(e.addrKey()) + len(e.label()) + len(e.source()) + len(e.claim()) + len(e.precision()));
  }

  private static int len(String s) {
    return s == null ? 0 : s.length();
  }

  @Override
  public void write(IndexEntry e, long ttlS) {
    Held old = byKey.remove(e.addrKey());
    if (old != null) {
      unindex(old.entry());
    }
    byKey.put(e.addrKey(), new Held(e, clock.millis() + ttlS * 1000));
    bytes += weight(e);
    cells.computeIfAbsent(cell(e.lat(), e.lon()), k -> new ArrayList<>(2)).add(e.addrKey());
    while (byKey.size() > maxEntries || (bytes > maxBytes && !byKey.isEmpty())) {
      var eldest = byKey.entrySet().iterator().next();
      byKey.remove(eldest.getKey());
      unindex(eldest.getValue().entry());
    }
  }

  /** Takes an entry already removed from the map out of the grid and the byte count. */
  private void unindex(IndexEntry e) {
    bytes -= weight(e);
    long c = cell(e.lat(), e.lon());
    List<String> keys = cells.get(c);
    if (keys != null) {
      keys.remove(e.addrKey());
      if (keys.isEmpty()) {
        cells.remove(c);
      }
    }
  }

  @Override
  public Future<IndexEntry> byKey(String addrKey) {
    return Future.succeededFuture(live(addrKey));
  }

  private IndexEntry live(String addrKey) {
    Held h = byKey.get(addrKey);
    if (h == null) {
      return null;
    }
    if (h.expiresAtMs() < clock.millis()) {
      byKey.remove(addrKey);
      unindex(h.entry());
      return null;
    }
    return h.entry();
  }

  @Override
  public Future<IndexEntry> nearest(double lat, double lon, double radiusM) {
    int latRings = (int) Math.ceil(radiusM / (CELL_DEG * GreatCircle.METRES_PER_DEGREE)) ;
    double cos = Math.max(0.01, Math.cos(Math.toRadians(Math.min(89.9, Math.abs(lat) + latRings * CELL_DEG))));
    int lonRings = (int) Math.min(18_000, Math.ceil(radiusM / (CELL_DEG * GreatCircle.METRES_PER_DEGREE * cos)));
    long row = (long) Math.floor(lat / CELL_DEG);
    long col = (long) Math.floor(lon / CELL_DEG);
    IndexEntry best = null;
    double bestM = Double.MAX_VALUE;
    for (long r = row - latRings; r <= row + latRings; r++) {
      for (long c = col - lonRings; c <= col + lonRings; c++) {
        List<String> keys = cells.get(key(r, wrap(c)));
        if (keys == null) {
          continue;
        }
        for (String k : List.copyOf(keys)) {
          IndexEntry e = live(k);
          if (e == null) {
            continue;
          }
          double d = GreatCircle.metres(lat, lon, e.lat(), e.lon());
          if (d <= radiusM && d < bestM) {
            bestM = d;
            best = e;
          }
        }
      }
    }
    return Future.succeededFuture(best == null ? null : best.at(Math.round(bestM * 10) / 10.0));
  }

  private static long cell(double lat, double lon) {
    return key((long) Math.floor(lat / CELL_DEG), (long) Math.floor(lon / CELL_DEG));
  }

  private static long wrap(long col) {
    long cols = Math.round(360 / CELL_DEG);
    long min = Math.round(-180 / CELL_DEG);
    return Math.floorMod(col - min, cols) + min;
  }

  private static long key(long row, long col) {
    return (row << 32) ^ (col & 0xffffffffL);
  }

  @Override
  public Future<JsonObject> status() {
    return Future.succeededFuture(new JsonObject().put("store", "memory").put("reachable", true).put("entries", byKey.size()));
  }

  /** Entries held (including expired ones not yet read). */
  int size() {
    return byKey.size();
  }

  /** Bytes held, as estimated by {@link #weight} (including expired entries not yet read). */
  long bytes() {
    return bytes;
  }
}
