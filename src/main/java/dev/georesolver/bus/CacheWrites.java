package dev.georesolver.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The memory store's write-behind ({@link Addresses#STATE_CACHE_WRITE}) and what is loaded back at
 * start ({@link Addresses#STATE_CACHE_LOAD}): idempotency entries and cached-index entries.
 * Immutable.
 *
 * @param idem idempotency entries, unmodifiable
 * @param index cached-index entries, unmodifiable
 */
public record CacheWrites(List<Idem> idem, List<IndexEntry> index) {

  /**
   * One idempotency entry.
   *
   * @param key the idempotency key
   * @param storedAtMs when first stored (epoch millis)
   * @param ttlMs how long after that it may be replayed
   * @param answer the stored answer
   */
  public record Idem(String key, long storedAtMs, long ttlMs, StoredAnswer answer) {}

  public CacheWrites {
    idem = List.copyOf(idem);
    index = List.copyOf(index);
  }

  public JsonObject toJson() {
    JsonArray i = new JsonArray();
    idem.forEach(e -> i.add(new JsonObject().put("key", e.key()).put("stored_at_ms", e.storedAtMs()).put("ttl_ms", e.ttlMs())
        .put("answer", e.answer().toJson())));
    JsonArray x = new JsonArray();
    index.forEach(e -> x.add(e.toJson()));
    return new JsonObject().put("idem", i).put("index", x);
  }

  public static CacheWrites fromJson(JsonObject j) {
    JsonArray i = j.getJsonArray("idem", new JsonArray());
    List<Idem> idem = new ArrayList<>(i.size());
    for (int n = 0; n < i.size(); n++) {
      JsonObject e = i.getJsonObject(n);
      idem.add(new Idem(e.getString("key"), e.getLong("stored_at_ms"), e.getLong("ttl_ms"),
          StoredAnswer.fromJson(e.getJsonObject("answer"))));
    }
    JsonArray x = j.getJsonArray("index", new JsonArray());
    List<IndexEntry> index = new ArrayList<>(x.size());
    for (int n = 0; n < x.size(); n++) {
      index.add(IndexEntry.fromJson(x.getJsonObject(n)));
    }
    return new CacheWrites(idem, index);
  }
}
