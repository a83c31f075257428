package dev.georesolver.ladder;

import dev.georesolver.bus.Hit;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.gazetteer.AskedArea;
import dev.georesolver.gazetteer.Gazetteer;
import dev.georesolver.gazetteer.Place;
import dev.georesolver.gazetteer.ReverseMatch;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;

import java.util.Optional;
import java.util.TreeSet;

/**
 * The country a forward query names, as a constraint on every rung's answer; and the country of an
 * answer that did not say, inferred from its point.
 *
 * <ul>
 *   <li><b>Asked</b> ({@link #asked}): the countries the query's words can mean, read by the
 *       gazetteer's country names (common variants, ISO codes, parenthesised forms; see
 *       {@link dev.georesolver.gazetteer.CountryNames#find(ForwardQuery)}). A reverse lookup names
 *       none.
 *   <li><b>Inferred</b>: a hit without a country code gets the country (and, when it has none,
 *       the region) of the gazetteer's city at its point, and the verdict says so, so the notice
 *       can.
 *   <li><b>Outside</b>: a hit whose country code (stated by the provider, or inferred from a point
 *       inside a city) is none the query can mean is not served: the walk asks the next rung. A hit
 *       whose country is unknown is served.
 *   <li><b>Outside the region</b>: when the query names a first-level division ({@code Springfield,
 *       Illinois}) and the hit, in that division's country, states (or its point infers) a region
 *       that is another known division of the same country ({@code Missouri}), it is not served
 *       either. A region the gazetteer does not know as a division of that country (a name in
 *       another language, a county) is served: only a known other division is evidence.
 * </ul>
 *
 * <p>Pure: lookups in the immutable gazetteer take microseconds, so it runs on the event loop.
 * Thread-safe. {@link #OFF} (no gazetteer) checks nothing and infers nothing.
 */
public final class CountryCheck {

  /** Checks nothing, infers nothing: for a chain without the gazetteer. */
  public static final CountryCheck OFF = new CountryCheck(null);

  /** The attempt outcome of a rung whose answer lay outside the country the query names. */
  public static final String OUTSIDE = "outside_asked_country";

  private final Gazetteer gazetteer;

  private CountryCheck(Gazetteer gazetteer) {
    this.gazetteer = gazetteer;
  }

  /** A check over a loaded gazetteer's country names and cities. */
  public static CountryCheck over(Gazetteer gazetteer) {
    return new CountryCheck(java.util.Objects.requireNonNull(gazetteer, "gazetteer"));
  }

  /** What a rung's hit is, given what the query asked. */
  public sealed interface Verdict {}

  /**
   * The hit may be served.
   *
   * @param hit the hit, with the inferred components added
   * @param inferred what was inferred from the point ({@code country}, {@code country and region}),
   *     or null when nothing was
   */
  public record Served(Hit hit, String inferred) implements Verdict {}

  /**
   * The hit lies in a country the query does not name.
   *
   * @param detail what the attempt records ({@code answered in US; the query names WF})
   */
  public record Outside(String detail) implements Verdict {}

  /**
   * Runs one check through every path (a country read from a query, a country inferred from a
   * point) so that their first use's one-off costs are paid here, by the caller's thread (a worker
   * at start), and not by the first request's event loop; returns this check.
   */
  public CountryCheck warm() {
    if (gazetteer != null) {
      AskedArea asked = gazetteer.countryNames().find("Paris, France");
      check(asked, new Hit(2.3522, 48.8566, 0.5, null, null, null, null, null));
    }
    return this;
  }

  /** The country and region the request names; {@link AskedArea#NONE} for a reverse lookup or without the gazetteer. */
  public AskedArea asked(ResolveRequest r) {
    if (gazetteer == null || r.direction() != Direction.FORWARD) {
      return AskedArea.NONE;
    }
    return gazetteer.countryNames().find(new ForwardQuery(r.text(), r.components(), r.bbox(), r.language()));
  }

  /** The verdict on a rung's hit for a query that named {@code asked}. */
  public Verdict check(AskedArea asked, Hit hit) {
    Address a = hit.address();
    String inferred = null;
    boolean inside = true;
    if (gazetteer != null && !a.has(Component.COUNTRY_CODE) && validPoint(hit)) {
      Optional<ReverseMatch> m = gazetteer.reverse(hit.lat(), hit.lon());
      if (m.isPresent()) {
        Place p = m.get().place();
        boolean region = !a.has(Component.REGION) && p.region() != null;
        a = a.toBuilder().put(Component.COUNTRY_CODE, p.countryCode()).fill(Component.COUNTRY, p.countryName())
            .fill(Component.REGION, p.region()).build();
        hit = hit.withAddress(a);
        inferred = region ? "country and region" : "country";
        inside = m.get().withinNominalRadius();
      }
    }
    String cc = a.get(Component.COUNTRY_CODE);
    if (asked.namesCountry() && cc != null && inside && !asked.allowsCountry(cc)) {
      return new Outside("answered in " + cc + "; the query names " + String.join(" or ", new TreeSet<>(asked.countryCodes())));
    }
    String region = a.get(Component.REGION);
    if (inside && region != null && cc != null && !asked.regionCodes().isEmpty()) {
      String otherRegion = otherRegion(asked, region, cc);
      if (otherRegion != null) {
        return new Outside("answered in " + otherRegion + "; the query names " + String.join(" or ", new TreeSet<>(asked.regionNames())));
      }
    }
    return new Served(hit, inferred);
  }

  /**
   * The hit's region when it is a known division of a country the asked regions lie in and none of
   * them; null when it is one of them, unknown, or in a country no asked region is in.
   */
  private String otherRegion(AskedArea asked, String region, String countryCode) {
    String cc = countryCode.trim().toUpperCase(java.util.Locale.ROOT);
    boolean sameCountry = asked.regionCodes().stream().anyMatch(r -> r.startsWith(cc + "."));
    if (gazetteer == null || !sameCountry) {
      return null;
    }
    java.util.Set<String> codes = gazetteer.countryNames().regionCodes(region, cc);
    if (codes.isEmpty() || codes.stream().anyMatch(asked.regionCodes()::contains)) {
      return null;
    }
    TreeSet<String> names = new TreeSet<>();
    codes.forEach(c -> names.add(java.util.Objects.requireNonNullElse(gazetteer.countryNames().regionNameOf(c), c)));
    return String.join(" or ", names) + " (" + String.join(" or ", new TreeSet<>(codes)) + ")";
  }

  private static boolean validPoint(Hit h) {
    return h.lat() >= -90 && h.lat() <= 90 && h.lon() >= -180 && h.lon() <= 180;
  }
}
