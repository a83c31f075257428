package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import static dev.georesolver.provider.Fixtures.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.georesolver.geo.Bbox;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every registered HTTP adapter must do alike: the DESIGN §3 classes and their breaker
 * accounting, Retry-After on quota, requests that the tier can send, and a parse that never throws.
 */
class AdapterContractTest {

  private static final List<String> ADAPTERS =
      List.of("generic", "nominatim", "pelias", "photon", "google", "here", "mapbox", "mapbox_v5", "opencage", "arcgis");

  private static ProviderAdapter adapter(String name) {
    return AdapterRegistry.http(name).orElseThrow();
  }

  static Stream<String> adapterNames() {
    return ADAPTERS.stream();
  }

  /** Each provider's own way of saying "found nothing". */
  static Stream<Arguments> nativeNoMatch() {
    return Stream.of(
        Arguments.of("generic", ProviderResponse.of(200, "")),
        Arguments.of("nominatim", Fixtures.ok("nominatim/search-jsonv2-no-results.json")),
        Arguments.of("pelias", Fixtures.ok("pelias/geocodeearth-search-no-results.json")),
        Arguments.of("photon", Fixtures.ok("photon/search-no-results.json")),
        Arguments.of("google", Fixtures.ok("google/geocode-zero-results.json")),
        Arguments.of("here", Fixtures.ok("here/v7-geocode-no-results.json")),
        Arguments.of("mapbox", ProviderResponse.of(200, "{\"type\":\"FeatureCollection\",\"features\":[]}")),
        Arguments.of("mapbox_v5", Fixtures.ok("mapbox/v5-forward-no-results.json")),
        Arguments.of("opencage", Fixtures.ok("opencage/geocode-no-results.json")),
        Arguments.of("arcgis", Fixtures.ok("arcgis/findAddressCandidates-no-results.json")));
  }

  /** Over-quota signals that arrive in the body rather than as HTTP 429. */
  static Stream<Arguments> inBodyQuota() {
    return Stream.of(
        Arguments.of("nominatim", Fixtures.ok("nominatim/error-bandwidth-limit-exceeded.html.txt")),
        Arguments.of("google", Fixtures.ok("google/error-over-query-limit.json")),
        Arguments.of("mapbox", ProviderResponse.of(200, "{\"message\":\"Rate limit exceeded\"}")),
        Arguments.of("opencage", Fixtures.ok("opencage/error-402-quota-exceeded.json")),
        Arguments.of("arcgis", ProviderResponse.of(200, "{\"error\":{\"code\":429,\"message\":\"Too many requests\"}}")));
  }

  /** Credential denials that arrive in the body rather than as HTTP 401/403. */
  static Stream<Arguments> inBodyDenied() {
    return Stream.of(
        Arguments.of("google", Fixtures.ok("google/error-request-denied-invalid-key.json")),
        Arguments.of("mapbox", Fixtures.ok("mapbox/error-401-invalid-token.json")),
        Arguments.of("mapbox_v5", Fixtures.ok("mapbox/error-401-invalid-token.json")),
        Arguments.of("opencage", Fixtures.ok("opencage/error-403-invalid-api-key.json")),
        Arguments.of("arcgis", Fixtures.ok("arcgis/error-498-invalid-token.json")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nativeNoMatch")
  @DisplayName("No match never counts against the breaker")
  void noMatchShouldNotCountAgainstTheBreaker(String name, ProviderResponse response) {
    for (SchemaMode mode : SchemaMode.values()) {
      ProviderAnswer.Failed f = assertFailure(adapter(name).parse(Direction.FORWARD, response, mode), FailureClass.NO_MATCH);
      assertThat(f.failureClass().countsAgainstBreaker()).isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("adapterNames")
  @DisplayName("HTTP 429 is quota, counts against the breaker and carries Retry-After")
  void http429ShouldBeQuotaWithRetryAfter(String name) {
    ProviderResponse r = Fixtures.body(429, "{}", Map.of("retry-after", "7"));
    ProviderAnswer.Failed f = assertFailure(adapter(name).parse(Direction.FORWARD, r, SchemaMode.STRICT), FailureClass.QUOTA);
    assertThat(f.retryAfterMs()).isEqualTo(7_000L);
    assertThat(f.failureClass().countsAgainstBreaker()).isTrue();
    assertThat(f.failureClass().retryable()).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inBodyQuota")
  @DisplayName("An in-body over-quota status is quota and carries Retry-After when sent")
  void inBodyQuotaShouldBeQuotaWithRetryAfter(String name, ProviderResponse recorded) {
    ProviderResponse r = new ProviderResponse(recorded.status(), Map.of("retry-after", "9"), recorded.body());
    ProviderAnswer.Failed f = assertFailure(adapter(name).parse(Direction.FORWARD, r, SchemaMode.STRICT), FailureClass.QUOTA);
    assertThat(f.retryAfterMs()).isEqualTo(9_000L);
    assertThat(f.failureClass().countsAgainstBreaker()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("adapterNames")
  @DisplayName("HTTP 401 and 403 are credential failures that count against the breaker")
  void http401And403ShouldBeCredential(String name) {
    for (int status : new int[] {401, 403}) {
      ProviderAnswer.Failed f = assertFailure(adapter(name).parse(Direction.FORWARD, Fixtures.body(status, "{}", Map.of()), SchemaMode.STRICT), FailureClass.CREDENTIAL);
      assertThat(f.failureClass().countsAgainstBreaker()).isTrue();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inBodyDenied")
  @DisplayName("An in-body denial is a credential failure that counts against the breaker")
  void inBodyDenialShouldBeCredential(String name, ProviderResponse r) {
    ProviderAnswer.Failed f = assertFailure(adapter(name).parse(Direction.FORWARD, r, SchemaMode.STRICT), FailureClass.CREDENTIAL);
    assertThat(f.failureClass().countsAgainstBreaker()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("adapterNames")
  @DisplayName("HTTP 5xx and 400 follow the shared status rules")
  void serverErrorsAndBadRequestsShouldFollowTheSharedRules(String name) {
    ProviderAdapter a = adapter(name);
    assertFailure(a.parse(Direction.FORWARD, Fixtures.body(503, "", Map.of()), SchemaMode.STRICT), FailureClass.TRANSIENT);
    assertFailure(a.parse(Direction.FORWARD, Fixtures.body(502, "<html>", Map.of()), SchemaMode.STRICT), FailureClass.TRANSIENT);
    assertFailure(a.parse(Direction.FORWARD, Fixtures.body(500, "oops", Map.of()), SchemaMode.STRICT), FailureClass.DEGRADABLE);
    ProviderAnswer.Failed rejected = assertFailure(a.parse(Direction.FORWARD, Fixtures.body(400, "{}", Map.of()), SchemaMode.STRICT), FailureClass.REJECTED);
    assertThat(rejected.failureClass().countsAgainstBreaker()).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("adapterNames")
  @DisplayName("A 200 whose body is not JSON is degradable")
  void unreadableBodyShouldBeDegradable(String name) {
    for (SchemaMode mode : SchemaMode.values()) {
      ProviderAnswer a = adapter(name).parse(Direction.FORWARD, Fixtures.body(200, "<html><body>maintenance</body></html>", Map.of()), mode);
      assertFailure(a, FailureClass.DEGRADABLE);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("adapterNames")
  @DisplayName("Requests carry the query, the bbox and the endpoint, for forward and reverse")
  void requestsShouldBeSendable(String name) {
    ProviderAdapter a = adapter(name);
    ForwardQuery q = new ForwardQuery("1 Main St", Map.of(), Bbox.of(-1, 50, 1, 52), "en");
    OutboundRequest forward = a.forward("https://provider.example/base", q);
    assertThat(forward.url()).startsWith("https://provider.example/base");
    assertThat(forward.url()).doesNotContain(" ");
    assertThat(forward.url()).containsAnyOf("-1", "50");
    if (AdapterRegistry.get(name).capabilities().supports(Direction.REVERSE)) {
      OutboundRequest reverse = a.reverse("https://provider.example/base", new ReverseQuery(51.5, -0.12, null));
      assertThat(reverse.url()).startsWith("https://provider.example/base").contains("51.5").contains("-0.12");
    }
  }

  /** Every recorded body in the fixture tree, and a truncated copy of each. */
  static Stream<Arguments> everyBodyForEveryAdapter() throws IOException, URISyntaxException {
    Path root = Path.of(AdapterContractTest.class.getResource("/fixtures/providers").toURI());
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().endsWith(".md")).sorted().toList();
    }
    return ADAPTERS.stream().flatMap(name -> files.stream().map(f -> Arguments.of(name, root.relativize(f).toString())));
  }

  @ParameterizedTest(name = "{0} reads {1}")
  @MethodSource("everyBodyForEveryAdapter")
  @DisplayName("Parse never throws, whatever provider's body it is handed, whole or truncated")
  void parseShouldNeverThrow(String name, String fixture) {
    ProviderAdapter a = adapter(name);
    Buffer whole = Fixtures.bytes(fixture);
    Buffer half = whole.getBuffer(0, whole.length() / 2);
    for (Buffer body : List.of(whole, half)) {
      for (SchemaMode mode : SchemaMode.values()) {
        for (Direction d : Direction.values()) {
          assertThatCode(() -> assertThat(a.parse(d, new ProviderResponse(200, Map.of(), body), mode)).isNotNull())
              .doesNotThrowAnyException();
        }
      }
    }
  }

  @Test
  void shouldRegisterEveryManifestAdapterName() {
    assertThat(AdapterRegistry.names()).containsAll(ADAPTERS).contains("cached_index", "gazetteer");
    for (String name : ADAPTERS) {
      AdapterRegistry.Adapter a = AdapterRegistry.get(name);
      assertThat(a.name()).isEqualTo(name);
      assertThat(a.local()).as("%s is answered over HTTP", name).isFalse();
      assertThat(a.capabilities().needsEndpoint()).isTrue();
    }
  }

  @Test
  @DisplayName("Local adapters take no endpoint, answer both directions, and only the cached index reads the index")
  void shouldStateTheLocalAdaptersCapabilitiesInTheRegistry() {
    for (String name : List.of(AdapterRegistry.CACHED_INDEX, AdapterRegistry.GAZETTEER)) {
      AdapterRegistry.Adapter a = AdapterRegistry.get(name);
      assertThat(a.local()).isTrue();
      assertThat(a.http()).isNull();
      assertThat(a.capabilities().needsEndpoint()).isFalse();
      assertThat(a.capabilities().supports(Direction.FORWARD)).isTrue();
      assertThat(a.capabilities().supports(Direction.REVERSE)).isTrue();
      assertThat(AdapterRegistry.isLocal(name)).isTrue();
    }
    assertThat(AdapterRegistry.get(AdapterRegistry.CACHED_INDEX).capabilities().readsIndex()).isTrue();
    assertThat(AdapterRegistry.names()).filteredOn(n -> !n.equals(AdapterRegistry.CACHED_INDEX))
        .allSatisfy(n -> assertThat(AdapterRegistry.get(n).capabilities().readsIndex()).isFalse());
  }

  @Test
  void shouldHandWrongJsonTypesToTheDegradablePathInsteadOfThrowing() {
    String[] bodies = {"{\"features\":\"nope\"}", "{\"results\":{}}", "{\"items\":[1,2]}", "[1,2,3]", "{\"candidates\":[null]}", "42", "null"};
    for (String name : ADAPTERS) {
      for (String body : bodies) {
        ProviderAnswer a = adapter(name).parse(Direction.FORWARD, ProviderResponse.of(200, body), SchemaMode.STRICT);
        assertThat(a).as("%s on %s", name, body).isInstanceOf(ProviderAnswer.Failed.class);
      }
    }
  }
}
