package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * One cached-index entry (the {@code geo:addr:{addrkey}} hash of the store): where an address was resolved, by
 * which rung, when. Sent by the chain to {@link Addresses#INDEX_WRITE}; the reply of
 * {@link Addresses#INDEX_LOOKUP}. Immutable.
 *
 * @param addrKey sha256 of the normalized address (independent of any bbox)
 * @param lon longitude, EPSG:4326
 * @param lat latitude, EPSG:4326
 * @param source the tier that resolved it
 * @param claim that tier's claim
 * @param confidence the answer's confidence
 * @param label what was matched, or null
 * @param precision rooftop, street…, or null
 * @param resolvedAtMs when it was resolved, epoch millis
 * @param distanceM for reverse lookups, metres from the asked point; else null
 */
public record IndexEntry(
    String addrKey,
    double lon,
    double lat,
    String source,
    String claim,
    double confidence,
    String label,
    String precision,
    long resolvedAtMs,
    Double distanceM) {

  /** This entry at a distance from a reverse lookup's point. */
  public IndexEntry at(double metres) {
    return new IndexEntry(addrKey, lon, lat, source, claim, confidence, label, precision, resolvedAtMs, metres);
  }

  public JsonObject toJson() {
    return new JsonObject().put("addr_key", addrKey).put("lon", lon).put("lat", lat).put("source", source)
        .put("claim", claim).put("confidence", confidence).put("label", label).put("precision", precision)
        .put("resolved_at_ms", resolvedAtMs).put("distance_m", distanceM);
  }

  public static IndexEntry fromJson(JsonObject j) {
    return new IndexEntry(j.getString("addr_key"), j.getDouble("lon"), j.getDouble("lat"), j.getString("source"),
        j.getString("claim"), j.getDouble("confidence"), j.getString("label"), j.getString("precision"),
        j.getLong("resolved_at_ms"), j.getDouble("distance_m"));
  }
}
