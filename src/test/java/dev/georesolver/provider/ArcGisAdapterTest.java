package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Precision;
import dev.georesolver.geo.ReverseQuery;
import static dev.georesolver.provider.Fixtures.assertFailure;
import static dev.georesolver.provider.Fixtures.assertLocated;
import static dev.georesolver.provider.Fixtures.assertPoint;
import static dev.georesolver.provider.Fixtures.best;
import static dev.georesolver.provider.Fixtures.param;
import static dev.georesolver.provider.Fixtures.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.georesolver.crs.CrsId;
import dev.georesolver.geo.Bbox;
import dev.georesolver.provider.Fixtures.Located;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** ArcGIS geocode service: request building, every recorded body, in-body errors, CRS and schema modes. */
class ArcGisAdapterTest {

  private static final String DIR = "arcgis/";
  private static final String ENDPOINT = "https://geocode.arcgis.com/arcgis/rest/services/World/GeocodeServer";
  private final ArcGisAdapter adapter = new ArcGisAdapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.asserted(DIR + "findAddressCandidates-10-avenue-gambetta-paris.json", 48.863279997000461, 2.3890199980004354, 0.0001),
        Located.asserted(DIR + "findAddressCandidates-hannover.json", 52.37227000000007, 9.738150000000076, 0.0001),
        Located.asserted(DIR + "findAddressCandidates-10-downing-st-london.json", 51.5033, -0.1276, 0.1),
        Located.asserted(DIR + "geocodeAddresses-batch-spring-green-wi.json", 43.093663, -90.131796, 0.0001),
        Located.asserted(DIR + "reverseGeocode-48.86328-2.38902-paris.json", 48.863279997000461, 2.3890199980004354, 0.0001).reverse(),
        Located.asserted(DIR + "find-legacy-madison-square-garden.json", 40.75004981300049, -73.99423889799965, 1e-9),
        Located.asserted(DIR + "findAddressCandidates-135-pilkington-avenue-birmingham.json", 52.54869661680167, -1.8160966054189729, 1e-9),
        Located.asserted(DIR + "reverseGeocode-legacy-eiffel-paris.json", 48.858129997357558, 2.2956200048981574, 1e-9).reverse());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded success parses to its asserted point, in the CRS its spatialReference names")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    assertThat(assertLocated(adapter, c).crs()).isEqualTo("4326");
  }

  @Test
  void shouldParseAllFiveAssertedHannovers() {
    var hits = Fixtures.hits(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "findAddressCandidates-hannover.json"), SchemaMode.STRICT));
    assertThat(hits).hasSize(5);
    assertPoint(hits.get(0), 52.37227000000007, 9.738150000000076, 0.0001);
    assertPoint(hits.get(1), 39.391768472000479, -77.440257128999633, 0.0001);
    assertPoint(hits.get(2), 53.174198173, 8.5069383810005, 0.0001);
    assertPoint(hits.get(3), 47.111290000000054, -101.42142999999999, 0.0001);
    assertPoint(hits.get(4), 32.518790000000024, -90.06298999999996, 0.0001);
    assertThat(hits).allSatisfy(h -> assertThat(h.precision()).isEqualTo(Precision.LOCALITY));
  }

  @Test
  void shouldDivideScoreByOneHundred() {
    RawHit hit = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "findAddressCandidates-135-pilkington-avenue-birmingham.json"), SchemaMode.STRICT));
    assertThat(hit.confidence()).isCloseTo(0.9745, within(1e-12));
    assertThat(hit.precision()).isEqualTo(Precision.INTERPOLATED);
  }

  @Test
  void shouldEmitTheLatestWkidOfAWebMercatorAnswer() throws Exception {
    String body = "{\"spatialReference\":{\"wkid\":102100,\"latestWkid\":3857},\"candidates\":[{\"address\":\"X\","
        + "\"location\":{\"x\":265952.215,\"y\":6219481.698},\"score\":99,\"attributes\":{\"Addr_type\":\"PointAddress\"}}]}";
    RawHit hit = best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT));
    assertThat(hit.crs()).isEqualTo("3857");
    assertThat(hit.x()).isEqualTo(265952.215);
    assertThat(CrsId.parse(hit.crs()).epsg()).isEqualTo(3857);
  }

  @Test
  void shouldFallBackToWkidWhenLatestWkidIsAbsent() {
    String body = "{\"spatialReference\":{\"wkid\":102100},\"candidates\":[{\"address\":\"X\",\"location\":{\"x\":1.0,\"y\":2.0},\"score\":80}]}";
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT)).crs()).isEqualTo("102100");
  }

  @Test
  void shouldClassifyEmptyCandidatesAsNoMatch() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "findAddressCandidates-no-results.json"), SchemaMode.STRICT), FailureClass.NO_MATCH);
  }

  @Test
  void shouldClassifyInvalidTokenInBodyAsCredential() {
    ProviderAnswer.Failed f = assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "error-498-invalid-token.json"), SchemaMode.STRICT), FailureClass.CREDENTIAL);
    assertThat(f.detail()).contains("Invalid Token");
    assertThat(f.failureClass().countsAgainstBreaker()).isTrue();
  }

  @ParameterizedTest(name = "error.code {0} -> {1}")
  @CsvSource({
      "499, CREDENTIAL",
      "403, CREDENTIAL",
      "400, REJECTED",
      "429, QUOTA",
      "500, DEGRADABLE",
      "503, TRANSIENT",
      "504, TRANSIENT",
      "999, UNCLASSIFIED"})
  @DisplayName("An in-body error code follows the HTTP rules, with 498/499 as credential")
  void shouldClassifyInBodyErrorCode(int code, FailureClass expected) {
    String body = "{\"error\":{\"code\":" + code + ",\"message\":\"m\",\"details\":[]}}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), expected);
  }

  @Test
  void shouldClassifyUnableToFindAddressOnReverseAsNoMatch() {
    String body = "{\"error\":{\"code\":400,\"message\":\"Cannot perform query. Invalid query parameters.\","
        + "\"details\":[\"Unable to find address for the specified location.\"]}}";
    assertFailure(adapter.parse(Direction.REVERSE, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.NO_MATCH);
  }

  @Test
  void shouldRequestCandidatesInWgs84WithSearchExtentAndTokenByDefault() {
    ForwardQuery q = new ForwardQuery("10 Downing St, London", Map.of(), Bbox.of(-0.5, 51.3, 0.3, 51.7), "en");
    OutboundRequest r = adapter.forward(ENDPOINT, q);
    assertThat(path(r)).isEqualTo(ENDPOINT + "/findAddressCandidates");
    assertThat(param(r, "SingleLine")).isEqualTo("10 Downing St, London");
    assertThat(param(r, "outSR")).isEqualTo("4326");
    assertThat(param(r, "f")).isEqualTo("json");
    assertThat(param(r, "searchExtent")).isEqualTo("-0.5,51.3,0.3,51.7");
    assertThat(param(r, "langCode")).isEqualTo("en");
    assertThat(AdapterRegistry.get("arcgis").capabilities().defaultCredential()).isEqualTo(CredentialPlacement.queryParam("token"));
  }

  @Test
  void shouldUseMultiFieldInputWhenTheCountryIsAnIsoCode() {
    ForwardQuery q = new ForwardQuery("ignored", Map.of("house_number", "10", "street", "Downing Street", "unit", "Flat 1", "locality", "London", "country", "GBR"), null, null);
    OutboundRequest r = adapter.forward(ENDPOINT, q);
    assertThat(param(r, "Address")).isEqualTo("10 Downing Street");
    assertThat(param(r, "Address2")).isEqualTo("Flat 1");
    assertThat(param(r, "City")).isEqualTo("London");
    assertThat(param(r, "CountryCode")).isEqualTo("GBR");
    assertThat(param(r, "SingleLine")).isNull();
  }

  @Test
  void shouldSendTextWhenTheCountryIsAName() {
    ForwardQuery q = new ForwardQuery("10 downing street, united kingdom", Map.of("street", "Downing Street", "country", "United Kingdom"), null, null);
    assertThat(param(adapter.forward(ENDPOINT, q), "SingleLine")).isEqualTo("10 downing street, united kingdom");
  }

  @Test
  void shouldRequestReverseWithLonCommaLat() {
    OutboundRequest r = adapter.reverse(ENDPOINT, new ReverseQuery(48.86328, 2.38902, null));
    assertThat(path(r)).isEqualTo(ENDPOINT + "/reverseGeocode");
    assertThat(param(r, "location")).isEqualTo("2.38902,48.86328");
    assertThat(param(r, "outSR")).isEqualTo("4326");
  }

  @Test
  void strictShouldRequireTheSpatialReferenceWhileRelaxedAssumesTheRequestedOne() {
    String body = "{\"candidates\":[{\"address\":\"X\",\"location\":{\"x\":2.0,\"y\":1.0},\"score\":80}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED)).crs()).isEqualTo("4326");
  }

  @Test
  void shouldRangeCheckOnlyWgs84Answers() {
    String wgs84 = "{\"spatialReference\":{\"wkid\":4326},\"candidates\":[{\"address\":\"X\",\"location\":{\"x\":265952.2,\"y\":6219481.7},\"score\":80}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, wgs84, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
  }
}
