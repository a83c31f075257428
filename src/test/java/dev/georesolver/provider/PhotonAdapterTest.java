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
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Photon: request building, every recorded body, the extent order and schema modes. */
class PhotonAdapterTest {

  private static final String DIR = "photon/";
  private final PhotonAdapter adapter = new PhotonAdapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.asserted(DIR + "search-10-avenue-gambetta-paris.json", 48.8631927, 2.3890894, 0.00001),
        Located.body(DIR + "search-sherlock-holmes-museum-london.json", 51.5237629, -0.1584743),
        Located.asserted(DIR + "reverse-52-10-limit-1.json", 51.9982968, 9.998645, 0.00001).reverse(),
        Located.body(DIR + "reverse-berlin-layer-city-radius-20.json", 52.510885, 13.3989367).reverse(),
        Located.asserted(DIR + "search-madison-square-garden.json", 40.7505247, -73.99355027800776, 1e-9),
        Located.asserted(DIR + "reverse-madison-square-garden.json", 40.750499, -73.9935078, 1e-9).reverse());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded success parses to its asserted point")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    RawHit best = assertLocated(adapter, c);
    assertThat(best.crs()).isEqualTo("EPSG:4326");
    assertThat(best.confidence()).isEqualTo(PhotonAdapter.CONFIDENCE);
  }

  @Test
  void shouldComposeALabelAndPrecisionFromTheProperties() {
    RawHit museum = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "search-sherlock-holmes-museum-london.json"), SchemaMode.STRICT));
    assertThat(museum.label()).isEqualTo("The Sherlock Holmes Museum and shop, 221b Baker Street, London, United Kingdom");
    assertThat(museum.precision()).isEqualTo(Precision.ROOFTOP);
    RawHit berlin = best(adapter.parse(Direction.REVERSE, Fixtures.ok(DIR + "reverse-berlin-layer-city-radius-20.json"), SchemaMode.STRICT));
    assertThat(berlin.precision()).isEqualTo(Precision.LOCALITY);
  }

  @Test
  void shouldReadExtentAsMinLonMaxLatMaxLonMinLat() {
    JsonObject props = new JsonObject(Fixtures.bytes(DIR + "search-madison-square-garden.json"))
        .getJsonArray("features").getJsonObject(0).getJsonObject("properties");
    Bbox extent = PhotonAdapter.extent(props);
    assertThat(extent).isEqualTo(new Bbox(-73.9944446, 40.7498531, -73.9925924, 40.751161));
    assertThat(extent.contains(-73.99355027800776, 40.7505247)).isTrue();
  }

  @Test
  void shouldClassifyEmptyFeaturesAsNoMatch() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "search-no-results.json"), SchemaMode.STRICT), FailureClass.NO_MATCH);
  }

  @ParameterizedTest(name = "HTTP {0}")
  @CsvSource({"200", "400"})
  @DisplayName("A message-only body is a rejected request, whatever status it came with")
  void shouldClassifyMessageBodyAsRejected(int status) {
    ProviderAnswer.Failed f = assertFailure(
        adapter.parse(Direction.FORWARD, Fixtures.status(status, DIR + "error-400-invalid-request-synthetic.json"), SchemaMode.STRICT),
        FailureClass.REJECTED);
    assertThat(f.failureClass().countsAgainstBreaker()).isFalse();
  }

  @Test
  void shouldRequestApiWithBboxAndPrimaryLanguageAndNoCredential() {
    ForwardQuery q = new ForwardQuery("10 avenue Gambetta, Paris", Map.of(), Bbox.of(2.2, 48.8, 2.5, 48.9), "fr-FR");
    OutboundRequest r = adapter.forward("https://photon.komoot.io", q);
    assertThat(path(r)).isEqualTo("https://photon.komoot.io/api");
    assertThat(param(r, "q")).isEqualTo("10 avenue Gambetta, Paris");
    assertThat(param(r, "bbox")).isEqualTo("2.2,48.8,2.5,48.9");
    assertThat(param(r, "lang")).isEqualTo("fr");
    assertThat(AdapterRegistry.get("photon").capabilities().defaultCredential()).isNull();
  }

  @Test
  void shouldRequestReverseWithLatLon() {
    OutboundRequest r = adapter.reverse("https://photon.komoot.io/", new ReverseQuery(52, 10, null));
    assertThat(path(r)).isEqualTo("https://photon.komoot.io/reverse");
    assertThat(param(r, "lat")).isEqualTo("52");
    assertThat(param(r, "lon")).isEqualTo("10");
  }

  @Test
  void strictShouldRejectAnExtentInGeoJsonOrderWhileRelaxedIgnoresIt() {
    String body = "{\"features\":[{\"geometry\":{\"coordinates\":[13.4,52.5]},\"properties\":{\"osm_key\":\"place\",\"osm_value\":\"city\","
        + "\"extent\":[13.08,52.33,13.76,52.67]}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED)).y()).isEqualTo(52.5);
  }

  @Test
  void strictShouldRequireTheOsmTagWhileRelaxedAcceptsABarePoint() {
    String body = "{\"features\":[{\"geometry\":{\"coordinates\":[13.4,52.5]}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    RawHit bare = best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED));
    assertThat(bare.label()).isNull();
    assertThat(bare.precision()).isNull();
  }
}
