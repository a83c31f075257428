package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Google Geocoding: request building, every recorded body, in-body statuses and schema modes. */
class GoogleAdapterTest {

  private static final String DIR = "google/";
  private static final String ENDPOINT = "https://maps.googleapis.com/maps/api/geocode/json";
  private final GoogleAdapter adapter = new GoogleAdapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.asserted(DIR + "geocode-10-avenue-gambetta-paris-rooftop.json", 48.8630462, 2.3882487, 0.001),
        Located.body(DIR + "geocode-paris-france-approximate.json", 48.856614, 2.3522219),
        Located.asserted(DIR + "geocode-10-downing-st-london-en.json", 51.5033, -0.1276, 0.1),
        Located.body(DIR + "geocode-partial-match-subpremise.json", 39.5751588, -105.0135375),
        Located.body(DIR + "geocode-madison-square-garden-rooftop.json", 40.7503540, -73.9933710),
        Located.body(DIR + "geocode-garbage-partial-match-approximate.json", 50.9173897, -1.3125111),
        Located.asserted(DIR + "geocode-135-pilkington-avenue-birmingham.json", 52.5488156, -1.8162539, 1e-7),
        Located.body(DIR + "reverse-48.863151-2.388911.json", 48.8631361, 2.3889219).reverse());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded success parses to its asserted point")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    assertThat(assertLocated(adapter, c).crs()).isEqualTo("EPSG:4326");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "geocode-10-avenue-gambetta-paris-rooftop.json, 1.0, rooftop",
      "geocode-135-pilkington-avenue-birmingham.json, 0.8, interpolated",
      "geocode-paris-france-approximate.json, 0.4, locality",
      "geocode-partial-match-subpremise.json, 0.4, interpolated",
      "geocode-garbage-partial-match-approximate.json, 0.2, postcode"})
  @DisplayName("Confidence follows location_type and is halved by partial_match")
  void shouldDeriveConfidenceFromLocationTypeAndPartialMatch(String file, double confidence, String precision) {
    RawHit hit = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + file), SchemaMode.STRICT));
    assertThat(hit.confidence()).isCloseTo(confidence, within(1e-9));
    assertThat(hit.precision()).isEqualTo(precision);
  }

  @Test
  void shouldRankRooftopAboveInterpolatedAboveGeometricCentreAboveApproximate() {
    assertThat(GoogleAdapter.confidence("ROOFTOP", false)).isGreaterThan(GoogleAdapter.confidence("RANGE_INTERPOLATED", false));
    assertThat(GoogleAdapter.confidence("RANGE_INTERPOLATED", false)).isGreaterThan(GoogleAdapter.confidence("GEOMETRIC_CENTER", false));
    assertThat(GoogleAdapter.confidence("GEOMETRIC_CENTER", false)).isGreaterThan(GoogleAdapter.confidence("APPROXIMATE", false));
    assertThat(GoogleAdapter.confidence("ROOFTOP", true)).isLessThan(GoogleAdapter.confidence("ROOFTOP", false));
  }

  @Test
  void shouldKeepAllReverseResultsBestFirst() {
    var hits = Fixtures.hits(adapter.parse(Direction.REVERSE, Fixtures.ok(DIR + "reverse-48.863151-2.388911.json"), SchemaMode.STRICT));
    assertThat(hits).hasSize(11);
    assertThat(hits.get(0).label()).isEqualTo("12 Avenue Gambetta, 75020 Paris, France");
  }

  @Test
  void shouldClassifyZeroResultsAsNoMatchThatSparesTheBreaker() {
    ProviderAnswer.Failed f = assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "geocode-zero-results.json"), SchemaMode.STRICT), FailureClass.NO_MATCH);
    assertThat(f.failureClass().countsAgainstBreaker()).isFalse();
  }

  @Test
  void shouldClassifyOverQueryLimitAsQuota() {
    ProviderAnswer.Failed f = assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "error-over-query-limit.json"), SchemaMode.STRICT), FailureClass.QUOTA);
    assertThat(f.failureClass().countsAgainstBreaker()).isTrue();
    assertThat(f.failureClass().retryable()).isFalse();
  }

  @Test
  void shouldCarryRetryAfterOnAnInBodyQuotaStatus() {
    ProviderResponse r = Fixtures.body(200, "{\"status\":\"OVER_QUERY_LIMIT\",\"results\":[]}", Map.of("retry-after", "30"));
    assertThat(assertFailure(adapter.parse(Direction.FORWARD, r, SchemaMode.STRICT), FailureClass.QUOTA).retryAfterMs()).isEqualTo(30_000L);
  }

  @Test
  void shouldClassifyRequestDeniedAsCredential() {
    ProviderAnswer.Failed f = assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "error-request-denied-invalid-key.json"), SchemaMode.STRICT), FailureClass.CREDENTIAL);
    assertThat(f.detail()).contains("The provided API key is invalid.");
    assertThat(f.failureClass().countsAgainstBreaker()).isTrue();
  }

  @ParameterizedTest(name = "HTTP {0}")
  @CsvSource({"200", "403"})
  @DisplayName("The plain-text invalid-signature page is a credential failure")
  void shouldClassifyInvalidSignaturePageAsCredential(int status) {
    ProviderAnswer a = adapter.parse(Direction.FORWARD, Fixtures.status(status, DIR + "error-invalid-signature-client-id.txt"), SchemaMode.STRICT);
    assertFailure(a, FailureClass.CREDENTIAL);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "OVER_DAILY_LIMIT, QUOTA",
      "INVALID_REQUEST, REJECTED",
      "UNKNOWN_ERROR, TRANSIENT",
      "SOMETHING_NEW, UNCLASSIFIED"})
  @DisplayName("Every documented in-body status maps to its failure class")
  void shouldMapInBodyStatus(String status, FailureClass expected) {
    ProviderResponse r = Fixtures.body(200, "{\"status\":\"" + status + "\",\"results\":[]}", Map.of());
    assertFailure(adapter.parse(Direction.FORWARD, r, SchemaMode.RELAXED), expected);
  }

  @Test
  void shouldRequestAddressWithBoundsAsSouthWestNorthEastAndKeyByDefault() {
    ForwardQuery q = new ForwardQuery("10 Downing St", Map.of(), Bbox.of(-0.5, 51.3, 0.3, 51.7), "en");
    OutboundRequest r = adapter.forward(ENDPOINT, q);
    assertThat(path(r)).isEqualTo(ENDPOINT);
    assertThat(param(r, "address")).isEqualTo("10 Downing St");
    assertThat(param(r, "bounds")).isEqualTo("51.3,-0.5|51.7,0.3");
    assertThat(param(r, "language")).isEqualTo("en");
    assertThat(AdapterRegistry.get("google").capabilities().defaultCredential()).isEqualTo(CredentialPlacement.queryParam("key"));
  }

  @Test
  void shouldRestrictByPostcodeAndCountryComponents() {
    ForwardQuery q = new ForwardQuery("10 downing street london", Map.of("street", "Downing Street", "postcode", "SW1A 2AA", "country", "GB"), null, null);
    OutboundRequest r = adapter.forward(ENDPOINT, q);
    assertThat(param(r, "address")).isEqualTo("10 downing street london");
    assertThat(param(r, "components")).isEqualTo("postal_code:SW1A 2AA|country:GB");
  }

  @Test
  void shouldRequestReverseByLatLng() {
    OutboundRequest r = adapter.reverse(ENDPOINT, new ReverseQuery(48.863151, 2.388911, null));
    assertThat(param(r, "latlng")).isEqualTo("48.863151,2.388911");
    assertThat(param(r, "address")).isNull();
  }

  @Test
  void strictShouldRequireLocationTypeWhileRelaxedAssumesApproximate() {
    String body = "{\"status\":\"OK\",\"results\":[{\"formatted_address\":\"X\",\"geometry\":{\"location\":{\"lat\":1.0,\"lng\":2.0}}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    RawHit relaxed = best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED));
    assertThat(relaxed.confidence()).isEqualTo(GoogleAdapter.APPROXIMATE);
  }

  @Test
  void shouldDegradeOnOutOfRangeLatitudeInStrictMode() {
    String body = "{\"status\":\"OK\",\"results\":[{\"formatted_address\":\"X\",\"geometry\":{\"location_type\":\"ROOFTOP\",\"location\":{\"lat\":100.0,\"lng\":2.0}}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
  }

  @Test
  void shouldDegradeWhenStatusIsMissing() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, "{\"results\":[]}", Map.of()), SchemaMode.RELAXED), FailureClass.DEGRADABLE);
  }
}
