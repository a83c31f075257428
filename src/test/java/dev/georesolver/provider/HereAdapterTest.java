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
import org.junit.jupiter.params.provider.MethodSource;

/** HERE Geocoding &amp; Search v7: request building, every recorded body and schema modes. */
class HereAdapterTest {

  private static final String DIR = "here/";
  private final HereAdapter adapter = new HereAdapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.body(DIR + "v7-geocode-berlin-locality.json", 52.51604, 13.37691),
        Located.body(DIR + "v7-geocode-madison-square-garden-place.json", 40.75051, -73.9934),
        Located.asserted(DIR + "v7-geocode-135-pilkington-avenue-birmingham.json", 33.53583, -86.87725, 1e-6),
        Located.asserted(DIR + "v7-revgeocode-40.714232--73.9612889.json", 40.71423, -73.96128, 1e-6).reverse());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded success parses to its asserted point")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    assertThat(assertLocated(adapter, c).crs()).isEqualTo("EPSG:4326");
  }

  @Test
  void shouldUseQueryScoreAsConfidenceAndKeepProviderOrder() {
    var hits = Fixtures.hits(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "v7-geocode-135-pilkington-avenue-birmingham.json"), SchemaMode.STRICT));
    assertThat(hits).extracting(RawHit::confidence).containsExactly(0.65, 0.65, 0.66, 0.59, 0.61);
    assertThat(hits).extracting(RawHit::precision).startsWith(Precision.ROOFTOP, Precision.INTERPOLATED);
  }

  @Test
  void shouldReadLocalityPrecisionAndFullScore() {
    RawHit berlin = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "v7-geocode-berlin-locality.json"), SchemaMode.STRICT));
    assertThat(berlin.confidence()).isEqualTo(1.0);
    assertThat(berlin.precision()).isEqualTo(Precision.LOCALITY);
    assertThat(berlin.label()).isEqualTo("Berlin, Germany");
  }

  @Test
  void shouldGiveUnscoredReverseItemsTheNeutralConfidenceAndTheirDistance() {
    RawHit hit = best(adapter.parse(Direction.REVERSE, Fixtures.ok(DIR + "v7-revgeocode-40.714232--73.9612889.json"), SchemaMode.STRICT));
    assertThat(hit.confidence()).isEqualTo(HereAdapter.UNSCORED_CONFIDENCE);
    assertThat(hit.distanceM()).isEqualTo(1.0);
  }

  @Test
  void shouldClassifyEmptyItemsAsNoMatch() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "v7-geocode-no-results.json"), SchemaMode.STRICT), FailureClass.NO_MATCH);
  }

  @Test
  void shouldClassifyHereUnauthorizedBodyByItsStatus() {
    String body = "{\"error\":\"Unauthorized\",\"error_description\":\"apiKey invalid. apiKey not found.\"}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(401, body, Map.of()), SchemaMode.STRICT), FailureClass.CREDENTIAL);
  }

  @Test
  void shouldRequestGeocodeWithBboxInFilterAndApiKeyByDefault() {
    ForwardQuery q = new ForwardQuery("berlin", Map.of(), Bbox.of(13.08, 52.33, 13.76, 52.68), "de-DE");
    OutboundRequest r = adapter.forward("https://geocode.search.hereapi.com", q);
    assertThat(path(r)).isEqualTo("https://geocode.search.hereapi.com/v1/geocode");
    assertThat(param(r, "q")).isEqualTo("berlin");
    assertThat(param(r, "in")).isEqualTo("bbox:13.08,52.33,13.76,52.68");
    assertThat(param(r, "lang")).isEqualTo("de-DE");
    assertThat(AdapterRegistry.get("here").capabilities().defaultCredential()).isEqualTo(CredentialPlacement.queryParam("apiKey"));
  }

  @Test
  void shouldSendAQualifiedQueryForStructuredInput() {
    ForwardQuery q = new ForwardQuery("ignored", Map.of("house_number", "5", "street", "Invalidenstr.;x", "locality", "Berlin", "country", "DEU"), null, null);
    OutboundRequest r = adapter.forward("https://geocode.search.hereapi.com", q);
    assertThat(param(r, "qq")).isEqualTo("houseNumber=5;street=Invalidenstr. x;city=Berlin;country=DEU");
    assertThat(param(r, "q")).isNull();
  }

  @Test
  void shouldRequestRevgeocodeAtLatLon() {
    OutboundRequest r = adapter.reverse("https://revgeocode.search.hereapi.com/", new ReverseQuery(40.714232, -73.9612889, null));
    assertThat(path(r)).isEqualTo("https://revgeocode.search.hereapi.com/v1/revgeocode");
    assertThat(param(r, "at")).isEqualTo("40.714232,-73.9612889");
  }

  @Test
  void strictShouldRequireQueryScoreOnForwardItemsWhileRelaxedDefaultsIt() {
    String body = "{\"items\":[{\"title\":\"X\",\"position\":{\"lat\":1.0,\"lng\":2.0}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED)).confidence())
        .isEqualTo(HereAdapter.UNSCORED_CONFIDENCE);
    assertThat(best(adapter.parse(Direction.REVERSE, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT)).x()).isEqualTo(2.0);
  }

  @Test
  void shouldDegradeWhenItemsIsMissing() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, "{\"results\":[]}", Map.of()), SchemaMode.RELAXED), FailureClass.DEGRADABLE);
  }
}
