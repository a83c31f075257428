package dev.georesolver.tier;

import dev.georesolver.gazetteer.ForwardMatch;
import dev.georesolver.gazetteer.Gazetteer;
import dev.georesolver.gazetteer.Place;
import dev.georesolver.gazetteer.ReverseMatch;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.provider.LocalAdapter;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.RawHit;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code gazetteer} rung: answers from the in-memory {@link Gazetteer}, offline, at city
 * level at best.
 *
 * <p>Hits are in {@code EPSG:4326} with {@code x} = longitude and {@code y} = latitude, precision
 * {@code locality} for a city, {@code region} or {@code country} for a first-level division or a
 * country named as such (its point is the seat or capital: {@link GazetteerNotices} has the
 * notice that says so), the label "city, region, country", the address components the place
 * fills (locality, region, country, country code), and for reverse lookups the distance in metres
 * from the asked point to the city centre. A query that names no known city, or a point
 * with no city within the reverse radius, is {@link ProviderAnswer#noMatch}; coordinates out of
 * range are {@link FailureClass#REJECTED}.
 *
 * <p>Lookups are in-memory and take microseconds, so they run on the calling event loop and
 * return already-completed futures. Thread-safe: holds only the immutable gazetteer.
 */
public final class GazetteerAdapter implements LocalAdapter {

  private static final Logger log = LoggerFactory.getLogger(GazetteerAdapter.class);

  /** The CRS of every hit. */
  public static final String CRS = "EPSG:4326";
  /** The precision of a city hit, and of every reverse hit: a city centre. */
  public static final String PRECISION = "locality";

  private final Gazetteer gazetteer;
  private final double maxReverseDistanceM;

  /** An adapter answering reverse lookups within {@link Gazetteer#DEFAULT_MAX_REVERSE_DISTANCE_M}. */
  public GazetteerAdapter(Gazetteer gazetteer) {
    this(gazetteer, Gazetteer.DEFAULT_MAX_REVERSE_DISTANCE_M);
  }

  /**
   * An adapter with its own reverse-lookup radius.
   *
   * @param gazetteer a loaded gazetteer
   * @param maxReverseDistanceM farthest city centre a reverse lookup may answer with, in metres
   * @throws IllegalArgumentException when the radius is not positive
   */
  public GazetteerAdapter(Gazetteer gazetteer, double maxReverseDistanceM) {
    this.gazetteer = Objects.requireNonNull(gazetteer, "gazetteer");
    if (!(maxReverseDistanceM > 0)) {
      throw new IllegalArgumentException("maxReverseDistanceM must be positive");
    }
    this.maxReverseDistanceM = maxReverseDistanceM;
  }

  /**
   * An adapter over the bundled gazetteer, which is loaded once per process off the event loop
   * (a blocking read and decompression). The loaded gazetteer is kept, not a future, since a
   * future belongs to the Vertx that made it.
   *
   * @param reverseRadiusM the tier's {@code reverse_radius_m}; 0 or less for
   *     {@link Gazetteer#DEFAULT_MAX_REVERSE_DISTANCE_M}
   */
  public static Future<GazetteerAdapter> load(Vertx vertx, double reverseRadiusM) {
    double radius = reverseRadiusM > 0 ? reverseRadiusM : Gazetteer.DEFAULT_MAX_REVERSE_DISTANCE_M;
    return shared(vertx).map(gazetteer -> new GazetteerAdapter(gazetteer, radius));
  }

  /**
   * The bundled gazetteer, loaded once per process off the event loop (the same instance the
   * {@code gazetteer} rungs answer from), for whoever else reads it: the chain's country check.
   */
  public static Future<Gazetteer> shared(Vertx vertx) {
    Gazetteer g = shared;
    return g != null ? Future.succeededFuture(g) : vertx.executeBlocking(GazetteerAdapter::loadShared);
  }

  private static volatile Gazetteer shared;

  private static synchronized Gazetteer loadShared() {
    if (shared == null) {
      long t0 = System.nanoTime();
      shared = Gazetteer.loadDefault();
      log.info("gazetteer: {} places loaded in {} ms", shared.size(), (System.nanoTime() - t0) / 1_000_000);
    }
    return shared;
  }

  @Override
  public Future<ProviderAnswer> forward(ForwardQuery query) {
    List<ForwardMatch> matches = gazetteer.forward(query);
    if (matches.isEmpty()) {
      return Future.succeededFuture(ProviderAnswer.noMatch("no known place name in the query"));
    }
    List<RawHit> hits = new ArrayList<>(matches.size());
    for (ForwardMatch m : matches) {
      Place p = m.place();
      hits.add(RawHit.of(p.lon(), p.lat(), CRS, m.confidence(), p.label(), m.precision()).withAddress(address(p)));
    }
    return Future.succeededFuture(new ProviderAnswer.Found(hits));
  }

  @Override
  public Future<ProviderAnswer> reverse(ReverseQuery query) {
    double lat = query.lat();
    double lon = query.lon();
    if (!(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) {
      return Future.succeededFuture(ProviderAnswer.failed(FailureClass.REJECTED, "lat/lon out of range"));
    }
    Optional<ReverseMatch> m = gazetteer.reverse(lat, lon, maxReverseDistanceM);
    if (m.isEmpty()) {
      return Future.succeededFuture(ProviderAnswer.noMatch(
          "no city within " + Math.round(maxReverseDistanceM / 1000) + " km"));
    }
    ReverseMatch r = m.get();
    return Future.succeededFuture(ProviderAnswer.found(hit(r.place(), r.confidence()).withDistance(r.distanceM())));
  }

  private static RawHit hit(Place p, double confidence) {
    return RawHit.of(p.lon(), p.lat(), CRS, confidence, p.label(), PRECISION).withAddress(address(p));
  }

  /**
   * The components the place fills ({@link Place#components()}: locality for a city, region,
   * country and country code); no place type, since the gazetteer's only one is its precision.
   */
  static Address address(Place p) {
    return Address.fromMap(p.components());
  }
}
