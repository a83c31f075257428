package dev.georesolver.cache;

import dev.georesolver.bus.IndexEntry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * The cached spatial index behind the {@code cached_index} rung: entries by address key, and the
 * nearest entry to a point. Futures never fail: an unavailable store reads as "no entry".
 */
interface GeoIndex {

  /** Adds or refreshes an entry, for {@code ttlS} seconds without refresh. */
  void write(IndexEntry e, long ttlS);

  /** The entry for an address key, or null. */
  Future<IndexEntry> byKey(String addrKey);

  /** The nearest entry within {@code radiusM} of the point, with its distance, or null. */
  Future<IndexEntry> nearest(double lat, double lon, double radiusM);

  /** Status for health. */
  Future<JsonObject> status();

  /** Releases resources. */
  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
