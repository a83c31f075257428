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
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** OpenCage: request building, every recorded body, status.code classes and schema modes. */
class OpenCageAdapterTest {

  private static final String DIR = "opencage/";
  private final OpenCageAdapter adapter = new OpenCageAdapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.asserted(DIR + "geocode-10-avenue-gambetta-paris.json", 48.866205, 2.389089, 0.01),
        Located.asserted(DIR + "reverse-54.0484068--2.7990345-lancaster.json", 54.0484068, -2.7990345, 0.001).reverse(),
        Located.body(DIR + "geocode-london-es-city-low-confidence.json", 51.5073219, -0.1276474),
        Located.asserted(DIR + "geocode-10-downing-st-london-en.json", 51.5033, -0.1276, 0.1),
        Located.body(DIR + "geocode-madison-square-garden.json", 40.7505247, -73.9935500942432),
        Located.asserted(DIR + "geocode-135-pilkington-avenue-birmingham.json", 52.5487921, -1.8164308, 1e-7));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded success parses to its asserted point")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    assertThat(assertLocated(adapter, c).crs()).isEqualTo("EPSG:4326");
  }

  @ParameterizedTest(name = "OpenCage {0} -> {1}")
  @CsvSource({"0, 0.2", "1, 0.25", "5, 0.45", "10, 0.7", "12, 0.7"})
  @DisplayName("OpenCage confidence measures area size, so it maps into [0.2, 0.7] only")
  void shouldMapAreaSizeConfidenceIntoBoundedBand(double openCage, double confidence) {
    assertThat(OpenCageAdapter.confidence(openCage)).isCloseTo(confidence, within(1e-9));
  }

  @Test
  void shouldNeverLetATinyBboxClaimCertainty() {
    RawHit gambetta = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "geocode-10-avenue-gambetta-paris.json"), SchemaMode.STRICT));
    assertThat(gambetta.confidence()).isEqualTo(OpenCageAdapter.CONFIDENCE_CEILING);
    assertThat(gambetta.precision()).isEqualTo(Precision.ROOFTOP);
    RawHit london = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "geocode-london-es-city-low-confidence.json"), SchemaMode.STRICT));
    assertThat(london.confidence()).isCloseTo(0.25, within(1e-9));
  }

  @Test
  void shouldClassifyZeroResultsAsNoMatch() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "geocode-no-results.json"), SchemaMode.STRICT), FailureClass.NO_MATCH);
  }

  @ParameterizedTest(name = "{0} served with HTTP {1} -> {2}")
  @CsvSource({
      "error-402-quota-exceeded.json, 200, QUOTA",
      "error-402-quota-exceeded.json, 402, QUOTA",
      "error-403-invalid-api-key.json, 200, CREDENTIAL",
      "error-403-invalid-api-key.json, 403, CREDENTIAL",
      "error-400-invalid-request.json, 200, REJECTED",
      "error-400-invalid-request.json, 400, REJECTED"})
  @DisplayName("status.code decides the class, whatever the recorded status line")
  void shouldClassifyRecordedErrorByStatusCode(String file, int status, FailureClass expected) {
    ProviderAnswer.Failed f = assertFailure(adapter.parse(Direction.FORWARD, Fixtures.status(status, DIR + file), SchemaMode.STRICT), expected);
    assertThat(f.detail()).startsWith("status ");
  }

  @Test
  void shouldClassifyA402WithoutABodyAsQuota() {
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(402, "", Map.of()), SchemaMode.STRICT), FailureClass.QUOTA);
  }

  @Test
  void shouldCarryRetryAfterOnA429() {
    String body = "{\"status\":{\"code\":429,\"message\":\"Too Many Requests\"},\"results\":[]}";
    ProviderAnswer a = adapter.parse(Direction.FORWARD, Fixtures.body(429, body, Map.of("retry-after", "1")), SchemaMode.STRICT);
    assertThat(assertFailure(a, FailureClass.QUOTA).retryAfterMs()).isEqualTo(1_000L);
  }

  @Test
  void shouldRequestJsonWithBoundsAndKeyByDefault() {
    ForwardQuery q = new ForwardQuery("London", Map.of(), Bbox.of(-0.5, 51.3, 0.3, 51.7), "es");
    OutboundRequest r = adapter.forward("https://api.opencagedata.com", q);
    assertThat(path(r)).isEqualTo("https://api.opencagedata.com/geocode/v1/json");
    assertThat(param(r, "q")).isEqualTo("London");
    assertThat(param(r, "bounds")).isEqualTo("-0.5,51.3,0.3,51.7");
    assertThat(param(r, "language")).isEqualTo("es");
    assertThat(AdapterRegistry.get("opencage").capabilities().defaultCredential()).isEqualTo(CredentialPlacement.queryParam("key"));
  }

  @Test
  void shouldRequestReverseAsLatCommaLonQuery() {
    OutboundRequest r = adapter.reverse("https://api.opencagedata.com", new ReverseQuery(54.0484068, -2.7990345, null));
    assertThat(path(r)).isEqualTo("https://api.opencagedata.com/geocode/v1/json");
    assertThat(param(r, "q")).isEqualTo("54.0484068,-2.7990345");
  }

  @Test
  void strictShouldRequireConfidenceWhileRelaxedDefaultsToTheFloor() {
    String body = "{\"status\":{\"code\":200},\"results\":[{\"formatted\":\"X\",\"geometry\":{\"lat\":1.0,\"lng\":2.0}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED)).confidence())
        .isEqualTo(OpenCageAdapter.CONFIDENCE_FLOOR);
  }

  @Test
  void strictShouldRequireTheStatusBlock() {
    String body = "{\"results\":[{\"formatted\":\"X\",\"confidence\":9,\"geometry\":{\"lat\":1.0,\"lng\":2.0}}]}";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED)).y()).isEqualTo(1.0);
  }
}
