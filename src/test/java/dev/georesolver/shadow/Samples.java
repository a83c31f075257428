package dev.georesolver.shadow;

import dev.georesolver.geo.Claim;
import dev.georesolver.geo.GreatCircle;

import java.nio.charset.StandardCharsets;
import java.util.random.RandomGenerator;

/** Builds shadow samples the way stand-in providers at known offsets would answer. */
final class Samples {

  static final KeyHasher HASHER = new KeyHasher("a test secret of enough bytes".getBytes(StandardCharsets.UTF_8));
  static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  private Samples() {}

  /** The point {@code metres} due east of {@code p} along its parallel, on the sphere GreatCircle uses. */
  static LonLat east(LonLat p, double metres) {
    double dLon = metres / (GreatCircle.METRES_PER_DEGREE * Math.cos(Math.toRadians(p.lat())));
    double lon = p.lon() + dLon;
    return new LonLat(lon > 180 ? lon - 360 : lon, p.lat());
  }

  /** The point {@code metres} due north of {@code p}. */
  static LonLat north(LonLat p, double metres) {
    return new LonLat(p.lon(), p.lat() + metres / GreatCircle.METRES_PER_DEGREE);
  }

  /** A random point on land-ish latitudes (|lat| &le; 70). */
  static LonLat anywhere(RandomGenerator r) {
    return new LonLat(r.nextDouble(-179, 179), r.nextDouble(-70, 70));
  }

  static String id(int n) {
    return HASHER.idOf("key-" + n);
  }

  static ShadowSample.Side found(String rung, LonLat p, double ms, String label) {
    return ShadowSample.Side.found(rung, p, "rooftop", Claim.EXACT, ms, label);
  }

  static ShadowSample.Side missing(String rung, double ms) {
    return ShadowSample.Side.notFound(rung, Claim.OPEN_DATA, ms);
  }

  /** Served by {@code served} at {@code p}; the shadow rung answers {@code q} (null: nothing). */
  static ShadowSample sample(int n, String served, String shadow, String intent, LonLat p, LonLat q,
      double servedMs, double shadowMs) {
    ShadowSample.Side s = found(served, p, servedMs, "10 Downing Street, London SW1A 2AA, United Kingdom");
    ShadowSample.Side h = q == null ? missing(shadow, shadowMs)
        : found(shadow, q, shadowMs, "10, Downing Street, Westminster, London, SW1A 2AA, United Kingdom");
    return new ShadowSample(id(n), intent, T0 + n * 1000L, s, h);
  }

  /** A random sample of a random one of three pairs: any agreement, distance, latency and label. */
  static ShadowSample random(int n, RandomGenerator r) {
    String[][] pairs = {{"primary_commercial", "osm_nominatim"}, {"osm_nominatim", "cached_index"},
        {"primary_commercial", "osm_nominatim"}};
    String[] pair = pairs[r.nextInt(pairs.length)];
    String intent = r.nextBoolean() ? "describe" : "measure";
    LonLat p = anywhere(r);
    double metres = Math.exp(r.nextDouble(-3, 16)); // 5 cm .. 9,000 km
    boolean servedFound = r.nextDouble() < 0.9;
    boolean shadowFound = r.nextDouble() < 0.8;
    ShadowSample.Side s = servedFound ? found(pair[0], p, r.nextDouble(0, 3000), r.nextBoolean() ? "Main St 1, Springfield" : null)
        : missing(pair[0], r.nextDouble(0, 3000));
    ShadowSample.Side h = shadowFound ? found(pair[1], east(p, Math.min(metres, 1_000_000)), r.nextDouble(0, 3000),
        r.nextBoolean() ? "1 Main Street, Springfield, USA" : "Elm Road")
        : missing(pair[1], r.nextDouble(0, 3000));
    return new ShadowSample(id(n), intent, T0 + r.nextLong(0, 86_400_000L), s, h);
  }
}
