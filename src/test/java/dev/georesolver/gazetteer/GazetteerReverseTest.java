package dev.georesolver.gazetteer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Reverse lookups: the containing or nearest city, the radius limit, and the grid against a linear scan. */
class GazetteerReverseTest {

  private final Gazetteer g = TestGazetteer.get();

  @Test
  @DisplayName("the Eiffel Tower is in Paris, about 4 km from its centre, not in nearer-centred Neuilly")
  void eiffelTowerIsInParis() {
    ReverseMatch m = g.reverse(48.8584, 2.2945).orElseThrow();
    assertThat(m.place().name()).isEqualTo("Paris");
    assertThat(m.place().countryCode()).isEqualTo("FR");
    assertThat(m.distanceM()).isBetween(2_000.0, 6_000.0);
    assertThat(m.withinNominalRadius()).isTrue();
    assertThat(m.confidence()).isEqualTo(Gazetteer.REVERSE_INSIDE_CONFIDENCE);
  }

  @Test
  void aPointInASmallTownGetsThatTown() {
    // Street, Somerset (about 12,000 people), a few hundred metres from its centre.
    ReverseMatch m = g.reverse(51.1260, -2.7380).orElseThrow();
    assertThat(m.place().name()).isEqualTo("Street");
    assertThat(m.distanceM()).isLessThan(1_000);
  }

  @Test
  @DisplayName("mid-ocean, farther than the radius from any city: no answer")
  void midOceanHasNoAnswer() {
    assertThat(g.reverse(30.0, -40.0)).isEmpty();
    assertThat(g.reverse(-48.9, -123.4)).isEmpty();
    assertThat(g.reverse(89.9, 0)).isEmpty();
  }

  @Test
  void beyondTheNominalRadiusTheNearestCityAnswersWithFallingConfidence() {
    // Rural Nevada, between towns.
    ReverseMatch m = g.reverse(39.0, -117.0, 300_000).orElseThrow();
    assertThat(m.withinNominalRadius()).isFalse();
    assertThat(m.confidence()).isLessThan(Gazetteer.REVERSE_INSIDE_CONFIDENCE);
    assertThat(m.distanceM()).isGreaterThan(Gazetteer.nominalRadiusM(m.place().population()));
  }

  @Test
  void theMaximumDistanceIsHonoured() {
    ReverseMatch far = g.reverse(39.0, -117.0, 300_000).orElseThrow();
    assertThat(g.reverse(39.0, -117.0, far.distanceM() - 1)).isEmpty();
  }

  @Test
  void searchesAcrossTheAntimeridian() {
    // Taveuni, Fiji, lies across 180°: a point just east of the line finds towns just west of it.
    Optional<ReverseMatch> m = g.reverse(-16.8, -179.99, 100_000);
    assertThat(m).isPresent();
    assertThat(m.get().place().countryCode()).isEqualTo("FJ");
  }

  @Test
  void rejectsCoordinatesOutOfRange() {
    assertThatThrownBy(() -> g.reverse(91, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> g.reverse(0, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("the grid search gives what a linear scan over every city gives, for 600 random points")
  void gridSearchAgreesWithALinearScan() {
    Random random = new Random(42);
    for (int i = 0; i < 600; i++) {
      double lat;
      double lon;
      if (i % 2 == 0) {
        lat = random.nextDouble() * 140 - 60;
        lon = random.nextDouble() * 360 - 180;
      } else {
        // Near a random city, where cities are dense and containment matters.
        int c = random.nextInt(g.size());
        lat = Math.max(-90, Math.min(90, g.latOf(c) + random.nextGaussian() * 0.1));
        lon = Math.max(-180, Math.min(180, g.lonOf(c) + random.nextGaussian() * 0.1));
      }
      Optional<ReverseMatch> fast = g.reverse(lat, lon);
      Optional<ReverseMatch> slow = linearScan(lat, lon, Gazetteer.DEFAULT_MAX_REVERSE_DISTANCE_M);
      assertThat(fast.map(ReverseMatch::place)).as("point %f,%f", lat, lon).isEqualTo(slow.map(ReverseMatch::place));
    }
  }

  /** The documented rule, by brute force: the most central containing city, else the nearest within max. */
  private Optional<ReverseMatch> linearScan(double lat, double lon, double maxM) {
    // No city farther north or south than this can be within maxM (a meridian arc is the shortest way).
    double latSlack = Math.toDegrees(Math.max(maxM, Gazetteer.MAX_NOMINAL_RADIUS_M) / GridIndex.EARTH_RADIUS_M);
    int inside = -1;
    double insideScore = Double.MAX_VALUE;
    int nearest = -1;
    double nearestD = Double.MAX_VALUE;
    for (int c = 0; c < g.size(); c++) {
      if (Math.abs(g.latOf(c) - lat) > latSlack) {
        continue;
      }
      double d = GridIndex.haversineM(lat, lon, g.latOf(c), g.lonOf(c));
      double r = Gazetteer.nominalRadiusM(g.populationOf(c));
      if (d <= r && d / r < insideScore) {
        inside = c;
        insideScore = d / r;
      }
      if (d < nearestD) {
        nearest = c;
        nearestD = d;
      }
    }
    int pick = inside >= 0 ? inside : nearestD <= maxM ? nearest : -1;
    return pick < 0 ? Optional.empty() : Optional.of(new ReverseMatch(g.place(pick), 0, 0, inside >= 0));
  }
}
