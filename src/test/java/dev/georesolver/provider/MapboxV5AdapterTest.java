package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Precision;
import dev.georesolver.geo.ReverseQuery;
import static dev.georesolver.provider.Fixtures.assertFailure;
import static dev.georesolver.provider.Fixtures.assertLocated;
import static dev.georesolver.provider.Fixtures.best;
import static dev.georesolver.provider.Fixtures.param;
import static dev.georesolver.provider.Fixtures.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.georesolver.geo.Bbox;
import dev.georesolver.provider.Fixtures.Located;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Mapbox Geocoding v5: request building (query in the path), every recorded body and schema modes. */
class MapboxV5AdapterTest {

  private static final String DIR = "mapbox/";
  private final MapboxV5Adapter adapter = new MapboxV5Adapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.asserted(DIR + "v5-forward-149-9th-st-san-francisco.json", 37.77572, -122.41362, 0.001),
        Located.asserted(DIR + "v5-forward-princ-monaco-it.json", 43.73125, 7.41974, 0.001),
        Located.asserted(DIR + "v5-forward-116th-st-broadway-new-york.json", 40.786596, -73.851157, 0.001),
        Located.asserted(DIR + "v5-forward-10-downing-st-london.json", 51.5033, -0.1276, 0.1),
        Located.body(DIR + "v5-reverse-48.8631507-2.388911.json", 48.863109, 2.388781).reverse(),
        Located.asserted(DIR + "v5-forward-madison-square-garden.json", 40.750755, -73.993710125, 1e-9));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded v5 success parses to its asserted point")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    assertThat(assertLocated(adapter, c).crs()).isEqualTo("EPSG:4326");
  }

  @Test
  void shouldUseRelevanceAsConfidence() {
    RawHit queens = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "v5-forward-116th-st-broadway-new-york.json"), SchemaMode.STRICT));
    assertThat(queens.confidence()).isCloseTo(0.6666666666666666, within(1e-12));
    assertThat(queens.label()).isEqualTo("116th Street, Queens, New York, New York 11356, United States");
    RawHit poi = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "v5-forward-madison-square-garden.json"), SchemaMode.STRICT));
    assertThat(poi.confidence()).isEqualTo(0.843333);
    assertThat(poi.precision()).isEqualTo(Precision.ROOFTOP);
  }

  @Test
  void shouldMarkInterpolatedAddresses() {
    var hits = Fixtures.hits(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "v5-forward-149-9th-st-san-francisco.json"), SchemaMode.STRICT));
    assertThat(hits.get(0).precision()).isEqualTo(Precision.ROOFTOP);
    assertThat(hits.get(1).precision()).isEqualTo(Precision.INTERPOLATED);
  }

  @Test
  void shouldClassifyEmptyFeaturesAsNoMatch() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "v5-forward-no-results.json"), SchemaMode.STRICT), FailureClass.NO_MATCH);
  }

  @Test
  void shouldClassifyInvalidTokenAsCredential() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "error-401-invalid-token.json"), SchemaMode.STRICT), FailureClass.CREDENTIAL);
  }

  @Test
  void shouldPutTheEncodedQueryInThePath() {
    ForwardQuery q = new ForwardQuery("149 9th St; San Francisco/CA", Map.of(), Bbox.of(-123, 37, -122, 38), "it");
    OutboundRequest r = adapter.forward("https://api.mapbox.com", q);
    assertThat(path(r)).isEqualTo("https://api.mapbox.com/geocoding/v5/mapbox.places/149%209th%20St%3B%20San%20Francisco%2FCA.json");
    assertThat(param(r, "bbox")).isEqualTo("-123,37,-122,38");
    assertThat(param(r, "language")).isEqualTo("it");
    assertThat(AdapterRegistry.get("mapbox_v5").capabilities().defaultCredential()).isEqualTo(CredentialPlacement.queryParam("access_token"));
  }

  @Test
  void shouldPutLonLatInTheReversePath() {
    OutboundRequest r = adapter.reverse("https://api.mapbox.com", new ReverseQuery(48.863151, 2.388911, null));
    assertThat(path(r)).isEqualTo("https://api.mapbox.com/geocoding/v5/mapbox.places/2.388911,48.863151.json");
  }

  @Test
  void strictShouldRequireRelevanceWhileRelaxedDefaultsIt() {
    String body = "{\"features\":[{\"place_name\":\"X\",\"center\":[2.0,1.0]}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED)).confidence())
        .isEqualTo(MapboxV5Adapter.DEFAULT_CONFIDENCE);
  }
}
