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

import dev.georesolver.geo.Bbox;
import dev.georesolver.provider.Fixtures.Located;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Mapbox Geocoding v6: request building, every recorded body, error messages and schema modes. */
class MapboxAdapterTest {

  private static final String DIR = "mapbox/";
  private final MapboxAdapter adapter = new MapboxAdapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.asserted(DIR + "v6-forward-135-pilkington-avenue-birmingham.json", 52.5488, -1.81639, 1e-6),
        Located.asserted(DIR + "v6-reverse-40.714232--73.9612889.json", 40.71426, -73.9613, 1e-6).reverse());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded v6 success parses to its asserted point")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    assertThat(assertLocated(adapter, c).crs()).isEqualTo("EPSG:4326");
  }

  @Test
  void shouldMapLowMatchCodeConfidenceAndRooftopAccuracy() {
    RawHit hit = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "v6-forward-135-pilkington-avenue-birmingham.json"), SchemaMode.STRICT));
    assertThat(hit.confidence()).isEqualTo(MapboxAdapter.LOW);
    assertThat(hit.precision()).isEqualTo(Precision.ROOFTOP);
    assertThat(hit.label()).isEqualTo("135 Pilkington Avenue, Sutton Coldfield, B72 1LH, United Kingdom");
  }

  @Test
  void shouldGiveReverseFeaturesWithoutMatchCodeTheNeutralConfidence() {
    var hits = Fixtures.hits(adapter.parse(Direction.REVERSE, Fixtures.ok(DIR + "v6-reverse-40.714232--73.9612889.json"), SchemaMode.STRICT));
    assertThat(hits).hasSize(8).allSatisfy(h -> assertThat(h.confidence()).isEqualTo(MapboxAdapter.UNMATCHED_CONFIDENCE));
    assertThat(hits).extracting(RawHit::precision).containsExactly(
        Precision.ROOFTOP, Precision.LOCALITY, Precision.POSTCODE, Precision.LOCALITY, Precision.LOCALITY,
        Precision.REGION, Precision.REGION, Precision.COUNTRY);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"exact, 1.0", "high, 0.85", "medium, 0.6", "low, 0.3", "unknown, 0.5"})
  @DisplayName("match_code.confidence maps onto a descending scale")
  void shouldMapMatchCodeConfidence(String matchCode, double confidence) {
    assertThat(MapboxAdapter.confidence(matchCode)).isEqualTo(confidence);
  }

  @Test
  void shouldClassifyInvalidTokenMessageAsCredentialEvenWithStatus200() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "error-401-invalid-token.json"), SchemaMode.STRICT), FailureClass.CREDENTIAL);
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.status(401, DIR + "error-401-invalid-token.json"), SchemaMode.STRICT), FailureClass.CREDENTIAL);
  }

  @Test
  void shouldClassifyRateLimitAsQuotaWithRetryAfter() {
    ProviderResponse r = Fixtures.body(429, "{\"message\":\"Rate limit exceeded\"}", Map.of("retry-after", "60"));
    assertThat(assertFailure(adapter.parse(Direction.FORWARD, r, SchemaMode.STRICT), FailureClass.QUOTA).retryAfterMs()).isEqualTo(60_000L);
  }

  @Test
  void shouldClassifyEmptyFeaturesAsNoMatch() {
    String body = "{\"type\":\"FeatureCollection\",\"features\":[],\"attribution\":\"NOTICE\"}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.NO_MATCH);
  }

  @Test
  void shouldRequestForwardWithBboxLanguageAndAccessTokenByDefault() {
    ForwardQuery q = new ForwardQuery("135 pilkington avenue, birmingham", Map.of(), Bbox.of(-2, 52, -1, 53), "en");
    OutboundRequest r = adapter.forward("https://api.mapbox.com", q);
    assertThat(path(r)).isEqualTo("https://api.mapbox.com/search/geocode/v6/forward");
    assertThat(param(r, "q")).isEqualTo("135 pilkington avenue, birmingham");
    assertThat(param(r, "bbox")).isEqualTo("-2,52,-1,53");
    assertThat(param(r, "language")).isEqualTo("en");
    assertThat(AdapterRegistry.get("mapbox").capabilities().defaultCredential()).isEqualTo(CredentialPlacement.queryParam("access_token"));
  }

  @Test
  void shouldUseStructuredInputForComponents() {
    ForwardQuery q = new ForwardQuery("ignored", Map.of("house_number", "135", "street", "Pilkington Avenue", "locality", "Sutton Coldfield", "postcode", "B72 1LH"), null, null);
    OutboundRequest r = adapter.forward("https://api.mapbox.com", q);
    assertThat(param(r, "address_number")).isEqualTo("135");
    assertThat(param(r, "street")).isEqualTo("Pilkington Avenue");
    assertThat(param(r, "place")).isEqualTo("Sutton Coldfield");
    assertThat(param(r, "postcode")).isEqualTo("B72 1LH");
    assertThat(param(r, "q")).isNull();
  }

  @Test
  void shouldRequestReverseWithLongitudeAndLatitude() {
    OutboundRequest r = adapter.reverse("https://api.mapbox.com", new ReverseQuery(40.714232, -73.9612889, null));
    assertThat(path(r)).isEqualTo("https://api.mapbox.com/search/geocode/v6/reverse");
    assertThat(param(r, "longitude")).isEqualTo("-73.9612889");
    assertThat(param(r, "latitude")).isEqualTo("40.714232");
  }

  @Test
  void shouldFallBackToPropertiesCoordinatesWithoutGeometry() {
    String body = "{\"features\":[{\"properties\":{\"feature_type\":\"address\",\"name\":\"X\",\"coordinates\":{\"longitude\":2.0,\"latitude\":1.0}}}]}";
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT)).x()).isEqualTo(2.0);
  }

  @Test
  void strictShouldRequireFeatureTypeWhileRelaxedAcceptsItsAbsence() {
    String body = "{\"features\":[{\"geometry\":{\"coordinates\":[2.0,1.0]},\"properties\":{\"name\":\"X\"}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED)).label()).isEqualTo("X");
  }
}
