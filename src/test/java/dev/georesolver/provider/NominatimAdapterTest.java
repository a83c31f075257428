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

/** Nominatim: request building, every recorded body, failure classes and schema modes. */
class NominatimAdapterTest {

  private static final String DIR = "nominatim/";
  private final NominatimAdapter adapter = new NominatimAdapter();

  static Stream<Located> recordedSuccesses() {
    return Stream.of(
        Located.asserted(DIR + "search-jsonv2-1-place-des-palais-bruxelles.json", 50.8419916, 4.361988, 0.00001),
        Located.asserted(DIR + "search-jsonv2-10-downing-st-london-en.json", 51.5033, -0.1276, 0.1),
        Located.body(DIR + "search-jsonv2-woronicza-17-warszawa.json", 52.188724, 21.0112069),
        Located.body(DIR + "search-jsonv2-elbphilharmonie-extratags.json", 53.54129165, 9.984205766993528),
        Located.body(DIR + "search-jsonv2-90210-postcode-no-osm-id.json", 34.09508267309781, -118.39932247264571),
        Located.body(DIR + "search-jsonv2-italia-viewbox-bounded-no-country.json", -62.17462, -58.5155525),
        Located.body(DIR + "search-json-cologne-cathedral.json", 50.94134445, 6.95812085888689),
        Located.body(DIR + "search-json-legacy-madison-square-garden.json", 40.7504928941818, -73.993466492276).relaxedOnly(),
        Located.body(DIR + "search-geocodejson-docs-example-athens.json", 38.0051697, 23.72949633941),
        Located.body(DIR + "reverse-jsonv2-48.86-2.35.json", 48.8604416, 2.3503543).reverse(),
        Located.body(DIR + "reverse-jsonv2-35.685939-139.811695-en.json", 35.686010380404326, 139.8116922926535).reverse(),
        Located.body(DIR + "reverse-jsonv2-38.900206--77.036991-en.json", 38.9003895, -77.0374769).reverse());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recordedSuccesses")
  @DisplayName("Every recorded success parses to its asserted point")
  void shouldParseRecordedSuccessToAssertedPoint(Located c) {
    RawHit best = assertLocated(adapter, c);
    assertThat(best.crs()).isEqualTo("EPSG:4326");
    assertThat(best.confidence()).isBetween(NominatimAdapter.CONFIDENCE_FLOOR, NominatimAdapter.CONFIDENCE_CEILING);
    assertThat(best.label()).isNotBlank();
  }

  @Test
  void shouldKeepEveryResultInProviderOrder() {
    var hits = Fixtures.hits(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "search-jsonv2-1-place-des-palais-bruxelles.json"), SchemaMode.STRICT));
    assertThat(hits).hasSize(5);
    assertThat(hits.get(0).label()).startsWith("Palais Royal");
  }

  @Test
  void shouldReadThePlaceRankAsPrecision() {
    RawHit postcode = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "search-jsonv2-90210-postcode-no-osm-id.json"), SchemaMode.STRICT));
    RawHit house = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "search-jsonv2-woronicza-17-warszawa.json"), SchemaMode.STRICT));
    RawHit road = best(adapter.parse(Direction.REVERSE, Fixtures.ok(DIR + "reverse-jsonv2-35.685939-139.811695-en.json"), SchemaMode.STRICT));
    assertThat(postcode.precision()).isEqualTo(Precision.POSTCODE);
    assertThat(house.precision()).isEqualTo(Precision.ROOFTOP);
    assertThat(road.precision()).isEqualTo(Precision.STREET);
  }

  @ParameterizedTest(name = "importance {0} -> confidence {1}")
  @CsvSource({"0, 0.3", "0.5, 0.5", "1, 0.7", "1.135921561767739, 0.7", "-0.2, 0.3"})
  @DisplayName("Importance is a rank, mapped into [0.3, 0.7] and clamped")
  void shouldMapImportanceIntoBoundedBand(double importance, double confidence) {
    assertThat(NominatimAdapter.confidence(importance)).isCloseTo(confidence, within(1e-9));
  }

  @Test
  void shouldMapRecordedImportanceAboveOneToTheCeiling() {
    RawHit elbphilharmonie = best(adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "search-jsonv2-elbphilharmonie-extratags.json"), SchemaMode.STRICT));
    assertThat(elbphilharmonie.confidence()).isEqualTo(NominatimAdapter.CONFIDENCE_CEILING);
  }

  @Test
  void shouldClassifyEmptyArrayAsNoMatch() {
    ProviderAnswer a = adapter.parse(Direction.FORWARD, Fixtures.ok(DIR + "search-jsonv2-no-results.json"), SchemaMode.STRICT);
    assertThat(assertFailure(a, FailureClass.NO_MATCH).failureClass().countsAgainstBreaker()).isFalse();
  }

  @Test
  void shouldClassifyUnableToGeocodeAsNoMatch() {
    ProviderAnswer a = adapter.parse(Direction.REVERSE, Fixtures.body(200, "{\"error\":\"Unable to geocode\"}", Map.of()), SchemaMode.STRICT);
    assertFailure(a, FailureClass.NO_MATCH);
  }

  @Test
  void shouldClassifyAnErrorObjectByItsCode() {
    String body = "{\"error\":{\"code\":400,\"message\":\"Parameter 'lat' must be a number.\"}}";
    assertFailure(adapter.parse(Direction.REVERSE, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.REJECTED);
  }

  @ParameterizedTest(name = "HTTP {0}")
  @CsvSource({"200", "429", "509"})
  @DisplayName("The OSMF bandwidth block page is quota, whatever status it came with")
  void shouldClassifyBandwidthBlockPageAsQuota(int status) {
    ProviderAnswer a = adapter.parse(Direction.FORWARD, Fixtures.status(status, DIR + "error-bandwidth-limit-exceeded.html.txt"), SchemaMode.STRICT);
    assertThat(assertFailure(a, FailureClass.QUOTA).failureClass().countsAgainstBreaker()).isTrue();
  }

  @Test
  void shouldCarryRetryAfterOnA429() {
    ProviderResponse r = Fixtures.body(429, "<html>Too Many Requests</html>", Map.of("retry-after", "120"));
    assertThat(assertFailure(adapter.parse(Direction.FORWARD, r, SchemaMode.STRICT), FailureClass.QUOTA).retryAfterMs()).isEqualTo(120_000L);
  }

  @Test
  void shouldRequestJsonv2SearchWithViewboxBoundedAndLanguage() {
    ForwardQuery q = new ForwardQuery("10 Downing St, London", Map.of(), Bbox.of(-0.5, 51.3, 0.3, 51.7), "en-GB");
    OutboundRequest r = adapter.forward("https://nominatim.example.org", q);
    assertThat(path(r)).isEqualTo("https://nominatim.example.org/search");
    assertThat(param(r, "format")).isEqualTo("jsonv2");
    assertThat(param(r, "q")).isEqualTo("10 Downing St, London");
    assertThat(param(r, "viewbox")).isEqualTo("-0.5,51.3,0.3,51.7");
    assertThat(param(r, "bounded")).isEqualTo("1");
    assertThat(param(r, "accept-language")).isEqualTo("en-GB");
    assertThat(AdapterRegistry.get("nominatim").capabilities().defaultCredential()).isNull();
  }

  @Test
  void shouldUseStructuredParametersWhenEveryComponentFits() {
    ForwardQuery q = new ForwardQuery("10 downing street london sw1a 2aa gb",
        Map.of("house_number", "10", "street", "Downing Street", "locality", "London", "postcode", "SW1A 2AA", "country", "gb"),
        null, null);
    OutboundRequest r = adapter.forward("https://nominatim.example.org/", q);
    assertThat(path(r)).isEqualTo("https://nominatim.example.org/search");
    assertThat(param(r, "street")).isEqualTo("10 Downing Street");
    assertThat(param(r, "city")).isEqualTo("London");
    assertThat(param(r, "postalcode")).isEqualTo("SW1A 2AA");
    assertThat(param(r, "country")).isEqualTo("gb");
    assertThat(param(r, "q")).isNull();
  }

  @Test
  void shouldFallBackToTextWhenAComponentHasNoNominatimParameter() {
    ForwardQuery q = new ForwardQuery("flat 2, 10 downing street", Map.of("unit", "flat 2", "house_number", "10", "street", "Downing Street"), null, null);
    OutboundRequest r = adapter.forward("https://nominatim.example.org", q);
    assertThat(param(r, "q")).isEqualTo("flat 2, 10 downing street");
    assertThat(param(r, "street")).isNull();
  }

  @Test
  void shouldRequestReverseWithLatAndLon() {
    OutboundRequest r = adapter.reverse("https://nominatim.example.org", new ReverseQuery(48.86, 2.35, null));
    assertThat(path(r)).isEqualTo("https://nominatim.example.org/reverse");
    assertThat(param(r, "lat")).isEqualTo("48.86");
    assertThat(param(r, "lon")).isEqualTo("2.35");
    assertThat(param(r, "format")).isEqualTo("jsonv2");
  }

  @Test
  void strictShouldRejectAPlaceWithoutImportanceWhileRelaxedAcceptsIt() {
    String body = "[{\"lat\":\"1.5\",\"lon\":\"2.5\",\"display_name\":\"Somewhere\"}]";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    RawHit relaxed = best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED));
    assertThat(relaxed.confidence()).isEqualTo(NominatimAdapter.CONFIDENCE_FLOOR);
  }

  @Test
  void shouldAcceptExtraFieldsInBothModes() {
    String body = "[{\"lat\":\"1.5\",\"lon\":\"2.5\",\"display_name\":\"X\",\"importance\":0.5,\"surprise\":{\"a\":[1]}}]";
    assertThat(best(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT)).x()).isEqualTo(2.5);
  }

  @Test
  void shouldDegradeOnOutOfRangeCoordinatesInStrictMode() {
    String body = "[{\"lat\":\"91.5\",\"lon\":\"2.5\",\"display_name\":\"X\",\"importance\":0.5}]";
    assertFailure(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
  }

  @Test
  void relaxedShouldSkipAnUnusablePlaceAndKeepTheRest() {
    String body = "[{\"lat\":\"95\",\"lon\":\"2.5\"},{\"lat\":\"1.5\",\"lon\":\"2.5\"}]";
    var hits = Fixtures.hits(adapter.parse(Direction.FORWARD, Fixtures.body(200, body, Map.of()), SchemaMode.RELAXED));
    assertThat(hits).singleElement().satisfies(h -> assertThat(h.y()).isEqualTo(1.5));
  }

  @Test
  void shouldDegradeOnATruncatedBody() {
    ProviderAnswer a = adapter.parse(Direction.FORWARD, Fixtures.body(200, "[{\"lat\":\"1.5\",", Map.of()), SchemaMode.RELAXED);
    assertFailure(a, FailureClass.DEGRADABLE);
  }
}
