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

import dev.georesolver.geo.Bbox;
import dev.georesolver.provider.Fixtures.Located;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Pelias: request building, every recorded body and schema modes. */
class PeliasAdapterTest {

  private static final String DIR = "pelias/";
  private final PeliasAdapter adapter = new PeliasAdapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.asserted(DIR + "geocodeearth-search-242-acklam-road-london.json", 51.521124, -0.203602, 0.01),
        Located.asserted(DIR + "geocodeearth-search-hanover.json", 52.379952, 9.787455, 0.01),
        Located.asserted(DIR + "geocodeearth-search-10-downing-st-london.json", 51.5033, -0.1276, 0.1),
        Located.asserted(DIR + "geocodeearth-reverse-54.0484068--2.7990345.json", 54.048412, -2.798955, 0.001).reverse(),
        Located.body(DIR + "mapzen-search-madison-square-garden.json", 40.75066, -73.99347),
        Located.asserted(DIR + "geocodeearth-search-135-pilkington-avenue-birmingham.json", 52.548794, -1.816439, 1e-6),
        Located.asserted(DIR + "geocodeearth-reverse-40.714232--73.9612889.json", 40.71422, -73.961343, 1e-6).reverse());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded success parses to its asserted point")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    assertThat(assertLocated(adapter, c).crs()).isEqualTo("EPSG:4326");
  }

  @Test
  void shouldParseEveryAssertedHanoverInProviderOrder() {
    var hits = Fixtures.hits(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "geocodeearth-search-hanover.json"), SchemaMode.STRICT));
    assertThat(hits).hasSize(5);
    assertPoint(hits.get(0), 52.379952, 9.787455, 0.01);
    assertPoint(hits.get(1), 18.393428, -78.107687, 0.01);
    assertPoint(hits.get(2), 39.19289, -76.72414, 0.01);
    assertThat(hits.get(0).precision()).isEqualTo(Precision.LOCALITY);
    assertThat(hits.get(1).precision()).isEqualTo(Precision.REGION);
    assertThat(hits.get(1).confidence()).isEqualTo(0.3);
  }

  @Test
  void shouldUsePeliasConfidenceAsIs() {
    RawHit hit = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "geocodeearth-search-135-pilkington-avenue-birmingham.json"), SchemaMode.STRICT));
    assertThat(hit.confidence()).isEqualTo(1.0);
    assertThat(hit.precision()).isEqualTo(Precision.ROOFTOP);
    assertThat(hit.label()).isEqualTo("135 Pilkington Avenue, Birmingham, England, United Kingdom");
  }

  @Test
  void shouldConvertReverseDistanceFromKilometresToMetres() {
    RawHit hit = best(adapter.parse(Direction.REVERSE, Fixtures.ok(DIR + "geocodeearth-reverse-40.714232--73.9612889.json"), SchemaMode.STRICT));
    assertThat(hit.distanceM()).isCloseTo(5.0, within(1e-9));
    assertThat(hit.confidence()).isEqualTo(0.9);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"geocodeearth-search-no-results.json", "mapzen-search-no-results.json"})
  @DisplayName("An empty FeatureCollection is no match")
  void shouldClassifyEmptyFeatureCollectionAsNoMatch(String file) {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + file), SchemaMode.STRICT), FailureClass.NO_MATCH);
  }

  @Test
  void shouldClassifyGeocodingErrorsAsRejected() {
    String body = "{\"geocoding\":{\"errors\":[\"'text' parameter is required\"]},\"type\":\"FeatureCollection\",\"features\":[]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.REJECTED);
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(400, body, Map.of()), SchemaMode.STRICT), FailureClass.REJECTED);
  }

  @Test
  void shouldRequestSearchWithBoundaryRectAndApiKeyByDefault() {
    ForwardQuery q = new ForwardQuery("242 Acklam Road, London", Map.of(), Bbox.of(-0.5, 51.3, 0.3, 51.7), "en");
    OutboundRequest r = adapter.forward("https://api.geocode.earth", q);
    assertThat(path(r)).isEqualTo("https://api.geocode.earth/v1/search");
    assertThat(param(r, "text")).isEqualTo("242 Acklam Road, London");
    assertThat(param(r, "boundary.rect.min_lon")).isEqualTo("-0.5");
    assertThat(param(r, "boundary.rect.min_lat")).isEqualTo("51.3");
    assertThat(param(r, "boundary.rect.max_lon")).isEqualTo("0.3");
    assertThat(param(r, "boundary.rect.max_lat")).isEqualTo("51.7");
    assertThat(param(r, "lang")).isEqualTo("en");
    assertThat(AdapterRegistry.get("pelias").capabilities().defaultCredential()).isEqualTo(CredentialPlacement.queryParam("api_key"));
  }

  @Test
  void shouldUseTheStructuredEndpointForComponents() {
    ForwardQuery q = new ForwardQuery("ignored", Map.of("house_number", "242", "street", "Acklam Road", "locality", "London", "country", "GBR"), null, null);
    OutboundRequest r = adapter.forward("https://api.geocode.earth/", q);
    assertThat(path(r)).isEqualTo("https://api.geocode.earth/v1/search/structured");
    assertThat(param(r, "address")).isEqualTo("242 Acklam Road");
    assertThat(param(r, "locality")).isEqualTo("London");
    assertThat(param(r, "country")).isEqualTo("GBR");
    assertThat(param(r, "text")).isNull();
  }

  @Test
  void shouldRequestReverseWithPointLatLon() {
    OutboundRequest r = adapter.reverse("https://api.geocode.earth", new ReverseQuery(54.0484068, -2.7990345, null));
    assertThat(path(r)).isEqualTo("https://api.geocode.earth/v1/reverse");
    assertThat(param(r, "point.lat")).isEqualTo("54.0484068");
    assertThat(param(r, "point.lon")).isEqualTo("-2.7990345");
  }

  @Test
  void strictShouldRequireConfidenceWhileRelaxedDefaultsIt() {
    String body = "{\"features\":[{\"geometry\":{\"coordinates\":[2.0,1.0]},\"properties\":{\"label\":\"X\"}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    RawHit relaxed = best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED));
    assertThat(relaxed.confidence()).isEqualTo(PeliasAdapter.DEFAULT_CONFIDENCE);
    assertPoint(relaxed, 1.0, 2.0, 0);
  }

  @Test
  void shouldDegradeWhenOnlyFeatureHasOutOfRangeLongitude() {
    String body = "{\"features\":[{\"geometry\":{\"coordinates\":[200.0,1.0]},\"properties\":{\"label\":\"X\",\"confidence\":1}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED), FailureClass.DEGRADABLE);
  }
}
