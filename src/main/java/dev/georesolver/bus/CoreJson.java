package dev.georesolver.bus;

import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Bbox;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The JSON forms of the core values that travel inside messages and results ({@link Bbox},
 * {@link TransformInfo}): written here, beside the messages, so the pure packages that define the
 * values need no JSON library. Pure and thread-safe.
 */
public final class CoreJson {

  private CoreJson() {}

  /** {@code [minLon, minLat, maxLon, maxLat]}, or null. */
  public static JsonArray bbox(Bbox b) {
    return b == null ? null : new JsonArray().add(b.minLon()).add(b.minLat()).add(b.maxLon()).add(b.maxLat());
  }

  /** Reads what {@link #bbox(Bbox)} wrote; null stays null. */
  public static Bbox bbox(JsonArray a) {
    return a == null ? null : Bbox.of(a.getDouble(0), a.getDouble(1), a.getDouble(2), a.getDouble(3));
  }

  /** The result's {@code transform} block: {@code source_crs}, {@code definition}, {@code definition_hash}; or null. */
  public static JsonObject transform(TransformInfo t) {
    return t == null ? null : new JsonObject()
        .put("source_crs", t.sourceCrs())
        .put("definition", t.definition())
        .put("definition_hash", t.definitionHash());
  }

  /** Reads what {@link #transform(TransformInfo)} wrote; null stays null. */
  public static TransformInfo transform(JsonObject j) {
    return j == null ? null : new TransformInfo(j.getString("source_crs"), j.getString("definition"), j.getString("definition_hash"));
  }
}
