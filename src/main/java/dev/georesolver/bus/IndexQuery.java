package dev.georesolver.bus;

import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

/**
 * A cached-index lookup ({@link Addresses#INDEX_LOOKUP}): by address key, or the nearest entry to a
 * point within a radius. Immutable.
 *
 * @param direction FORWARD (by {@code addrKey}) or REVERSE (by point)
 * @param addrKey forward: the address key
 * @param lat reverse: latitude
 * @param lon reverse: longitude
 * @param radiusM reverse: the farthest an entry may be, metres
 */
public record IndexQuery(Direction direction, String addrKey, double lat, double lon, double radiusM) {

  public static IndexQuery forward(String addrKey) {
    return new IndexQuery(Direction.FORWARD, addrKey, 0, 0, 0);
  }

  public static IndexQuery reverse(double lat, double lon, double radiusM) {
    return new IndexQuery(Direction.REVERSE, null, lat, lon, radiusM);
  }

  public JsonObject toJson() {
    return new JsonObject().put("direction", direction.name()).put("addr_key", addrKey).put("lat", lat).put("lon", lon)
        .put("radius_m", radiusM);
  }

  public static IndexQuery fromJson(JsonObject j) {
    return new IndexQuery(Direction.valueOf(j.getString("direction")), j.getString("addr_key"), j.getDouble("lat"),
        j.getDouble("lon"), j.getDouble("radius_m"));
  }
}
