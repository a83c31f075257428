package dev.georesolver.bus;

import dev.georesolver.bus.RequestValidator.Validated;
import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The public request contract (DESIGN §9): every bad input names its field; budgets default and cap. */
class RequestValidatorTest {

  private static final long DEFAULT_BUDGET = 2500;
  private static final long MAX_BUDGET = 10_000;

  private final RequestValidator validator =
      new RequestValidator(Set.of("describe", "measure", "contain"), "describe", DEFAULT_BUDGET, MAX_BUDGET);

  private Validated forward(JsonObject body) {
    return validator.validate(body, Direction.FORWARD, null, "trace-1");
  }

  private Validated reverse(JsonObject body) {
    return validator.validate(body, Direction.REVERSE, null, "trace-1");
  }

  private static JsonObject q(String text) {
    return new JsonObject().put("q", text);
  }

  private static List<String> fields(Validated v) {
    return v.problems().stream().map(FieldProblem::field).toList();
  }

  private static void assertOnlyProblemOn(Validated v, String field) {
    assertThat(v.valid()).isFalse();
    assertThat(v.request()).isNull();
    assertThat(fields(v)).containsExactly(field);
  }

  @Nested
  @DisplayName("free text q")
  class FreeText {

    @Test
    void shouldAcceptAnAddressAndStripIt() {
      Validated v = forward(q("  10 Downing Street, London "));

      assertThat(v.valid()).isTrue();
      assertThat(v.problems()).isEmpty();
      ResolveRequest r = v.request();
      assertThat(r.direction()).isEqualTo(Direction.FORWARD);
      assertThat(r.text()).isEqualTo("10 Downing Street, London");
      assertThat(r.components()).isEmpty();
      assertThat(r.bbox()).isNull();
      assertThat(r.intent()).isEqualTo("describe");
      assertThat(r.language()).isNull();
      assertThat(r.traceId()).isEqualTo("trace-1");
      assertThat(v.budgetMs()).isEqualTo(DEFAULT_BUDGET);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"\u00a0\u00a0", "\u2007", " , . ; ", "\u3000-"})
    void shouldRefuseAnAddressOfOnlySeparatorsOrPunctuation(String text) {
      Validated v = forward(q(text));
      assertOnlyProblemOn(v, "q");
      assertThat(v.problems().get(0).message()).isEqualTo("must contain an address, not only spaces or punctuation");
    }

    @Test
    void shouldRequireQOrAnAddress() {
      Validated v = forward(new JsonObject());

      assertOnlyProblemOn(v, "q");
      assertThat(v.problems().get(0).message()).isEqualTo("is required (or give a structured address)");
    }

    @ParameterizedTest(name = "q=''{0}''")
    @ValueSource(strings = {"", " ", "\t\u2003 "})
    void shouldRefuseAnEmptyOrBlankQ(String text) {
      Validated v = forward(q(text));

      assertOnlyProblemOn(v, "q");
      assertThat(v.problems().get(0).message()).isEqualTo("must not be empty");
    }

    @Test
    void shouldRefuseAQThatIsNotAString() {
      assertOnlyProblemOn(forward(new JsonObject().put("q", 42)), "q");
      assertOnlyProblemOn(forward(new JsonObject().put("q", new JsonArray().add("a"))), "q");
    }

    @Test
    void shouldAcceptExactlyAThousandCharacters() {
      assertThat(forward(q("a".repeat(RequestValidator.MAX_ADDRESS_CHARS))).valid()).isTrue();
    }

    @Test
    void shouldRefuseMoreThanAThousandCharacters() {
      Validated v = forward(q("a".repeat(RequestValidator.MAX_ADDRESS_CHARS + 1)));

      assertOnlyProblemOn(v, "q");
      assertThat(v.problems().get(0).message()).isEqualTo("must be at most 1000 characters (got 1001)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10 Downing\u0000 Street", "10 Downing\nStreet", "10 Downing\tStreet", "bell\u0007", "del\u007f"})
    void shouldRefuseControlCharacters(String text) {
      Validated v = forward(q(text));

      assertOnlyProblemOn(v, "q");
      assertThat(v.problems().get(0).message()).isEqualTo("must not contain control characters");
    }

    @Test
    void shouldRefuseQAndAddressTogether() {
      assertOnlyProblemOn(forward(q("Main St").put("address", new JsonObject().put("street", "Main St"))), "q");
    }
  }

  @Nested
  @DisplayName("structured address")
  class StructuredAddress {

    private JsonObject address(JsonObject components) {
      return new JsonObject().put("address", components);
    }

    @Test
    void shouldJoinComponentsInCanonicalOrder() {
      Validated v = forward(address(new JsonObject()
          .put("country", "FR").put("street", "Rue de Rivoli").put("house_number", 99).put("locality", "Paris")));

      assertThat(v.valid()).isTrue();
      assertThat(v.request().text()).isEqualTo("99, Rue de Rivoli, Paris, FR");
      assertThat(v.request().components()).containsOnly(
          Map.entry("house_number", "99"), Map.entry("street", "Rue de Rivoli"),
          Map.entry("locality", "Paris"), Map.entry("country", "FR"));
    }

    @Test
    void shouldRefuseAnAddressThatIsNotAnObject() {
      assertOnlyProblemOn(forward(new JsonObject().put("address", "99 Rue de Rivoli")), "address");
    }

    @Test
    void shouldRefuseAnUnknownComponentNamingIt() {
      assertOnlyProblemOn(forward(address(new JsonObject().put("street", "Main St").put("planet", "Mars"))), "address.planet");
    }

    @Test
    void shouldRefuseAnEmptyAddress() {
      Validated v = forward(address(new JsonObject()));

      assertOnlyProblemOn(v, "address");
      assertThat(v.problems().get(0).message()).isEqualTo("must have at least one non-empty component");
    }

    @Test
    void shouldRefuseAnAddressWhoseComponentsAreAllNull() {
      assertOnlyProblemOn(forward(address(new JsonObject().putNull("street"))), "address");
    }

    @Test
    void shouldRefuseABlankComponentNamingIt() {
      assertOnlyProblemOn(forward(address(new JsonObject().put("street", "  "))), "address.street");
    }

    @Test
    void shouldRefuseAComponentWithControlCharacters() {
      assertOnlyProblemOn(forward(address(new JsonObject().put("locality", "Par\u0000is"))), "address.locality");
    }

    @Test
    void shouldRefuseAComponentThatIsNotText() {
      assertOnlyProblemOn(forward(address(new JsonObject().put("street", true))), "address.street");
    }

    @Test
    void shouldRefuseComponentsLongerThanAThousandCharactersInAll() {
      Validated v = forward(address(new JsonObject().put("street", "s".repeat(600)).put("locality", "l".repeat(600))));

      assertOnlyProblemOn(v, "address");
      assertThat(v.problems().get(0).message()).isEqualTo("must be at most 1000 characters in all");
    }

    @Test
    @DisplayName("an empty address is reported even when another field is wrong too")
    void shouldReportAnEmptyAddressAlongsideOtherProblems() {
      Validated v = forward(address(new JsonObject()).put("intent", "survey"));

      assertThat(fields(v)).containsExactlyInAnyOrder("intent", "address");
    }
  }

  @Nested
  @DisplayName("bbox")
  class BboxField {

    @Test
    void shouldReadFourNumbersFromText() {
      Validated v = forward(q("Louvre").put("bbox", " 2.2, 48.8 ,2.4,48.9 "));

      assertThat(v.request().bbox()).isEqualTo(Bbox.of(2.2, 48.8, 2.4, 48.9));
    }

    @Test
    void shouldReadFourNumbersFromAJsonArray() {
      Validated v = forward(q("Louvre").put("bbox", new JsonArray().add(2.2).add(48.8).add(2.4).add(48.9)));

      assertThat(v.request().bbox()).isEqualTo(Bbox.of(2.2, 48.8, 2.4, 48.9));
    }

    @ParameterizedTest(name = "bbox=''{0}''")
    @ValueSource(strings = {
        "2.2,48.8,2.4", "2.2,48.8,2.4,48.9,1", "", "2.2,48.8,2.4,", "2.2,north,2.4,48.9",
        "-190,48.8,2.4,48.9", "2.2,-91,2.4,48.9", "2.2,48.8,181,48.9", "2.2,48.8,2.4,90.5",
        "2.4,48.8,2.2,48.9", "2.2,48.9,2.4,48.8", "2.2,48.8,2.2,48.9", "NaN,48.8,2.4,48.9", "2.2,48.8,Infinity,48.9"})
    void shouldRefuseBadText(String bbox) {
      assertOnlyProblemOn(forward(q("Louvre").put("bbox", bbox)), "bbox");
    }

    static Stream<Arguments> badArrays() {
      return Stream.of(
          arguments("three numbers", new JsonArray().add(2.2).add(48.8).add(2.4)),
          arguments("five numbers", new JsonArray().add(2.2).add(48.8).add(2.4).add(48.9).add(0)),
          arguments("a text element", new JsonArray().add(2.2).add("48.8").add(2.4).add(48.9)),
          arguments("a null element", new JsonArray().add(2.2).addNull().add(2.4).add(48.9)),
          arguments("lon out of range", new JsonArray().add(-180.5).add(48.8).add(2.4).add(48.9)),
          arguments("lat out of range", new JsonArray().add(2.2).add(48.8).add(2.4).add(91)),
          arguments("min lon not below max", new JsonArray().add(2.4).add(48.8).add(2.4).add(48.9)),
          arguments("min lat above max", new JsonArray().add(2.2).add(49).add(2.4).add(48.9)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badArrays")
    void shouldRefuseBadArrays(String what, JsonArray bbox) {
      assertOnlyProblemOn(forward(q("Louvre").put("bbox", bbox)), "bbox");
    }

    @Test
    void shouldRefuseABboxThatIsNeitherTextNorArray() {
      assertOnlyProblemOn(forward(q("Louvre").put("bbox", 5)), "bbox");
      assertOnlyProblemOn(forward(q("Louvre").put("bbox", new JsonObject().put("minLon", 1))), "bbox");
    }

    @Test
    void shouldNameTheValueThatIsNotANumber() {
      assertThat(forward(q("Louvre").put("bbox", "2.2,north,2.4,48.9")).problems().get(0).message())
          .contains("'north' is not a number");
    }

    @Test
    void shouldSayWhichBoundIsWrong() {
      assertThat(forward(q("Louvre").put("bbox", "2.4,48.8,2.2,48.9")).problems().get(0).message())
          .isEqualTo("minLon must be less than maxLon");
    }
  }

  @Nested
  @DisplayName("budget")
  class Budget {

    private Validated withBudget(Object budget, String header) {
      return validator.validate(q("Louvre").put("budget_ms", budget), Direction.FORWARD, header, "t");
    }

    @Test
    void shouldDefaultToTheManifestBudget() {
      assertThat(forward(q("Louvre")).budgetMs()).isEqualTo(DEFAULT_BUDGET);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 800, 10_000})
    void shouldAcceptAPositiveIntegerUpToTheMaximum(int ms) {
      Validated v = withBudget(ms, null);

      assertThat(v.valid()).isTrue();
      assertThat(v.budgetMs()).isEqualTo(ms);
    }

    @Test
    void shouldReadTheBudgetFromQueryText() {
      assertThat(withBudget(" 1500 ", null).budgetMs()).isEqualTo(1500);
    }

    @ParameterizedTest(name = "budget_ms={0}")
    @MethodSource("overMaximum")
    @DisplayName("a budget over the maximum is capped, not refused")
    void shouldCapABudgetOverTheMaximum(Object budget) {
      Validated v = withBudget(budget, null);

      assertThat(v.valid()).isTrue();
      assertThat(v.budgetMs()).isEqualTo(MAX_BUDGET);
    }

    static Stream<Object> overMaximum() {
      return Stream.of(10_001, 60_000L, Long.MAX_VALUE, "10001", "99999999999999", "99999999999999999999999");
    }

    @ParameterizedTest(name = "budget_ms={0}")
    @MethodSource("notPositiveIntegers")
    void shouldRefuseABudgetThatIsNotAPositiveInteger(Object budget) {
      Validated v = withBudget(budget, null);

      assertOnlyProblemOn(v, "budget_ms");
      assertThat(v.problems().get(0).message()).isEqualTo("must be a positive integer number of milliseconds");
      assertThat(v.budgetMs()).isEqualTo(DEFAULT_BUDGET);
    }

    static Stream<Object> notPositiveIntegers() {
      return Stream.of(0, -5, -5L, 1.5, 1500.0, "0", "0000000000000000000000", "-5", "1.5", "fast", "", "15 00", "１５００", true);
    }

    @Test
    void shouldCapAJsonIntegerTooLargeForALong() {
      Validated v = forward(new JsonObject("{\"q\": \"Louvre\", \"budget_ms\": 99999999999999999999999}"));

      assertThat(v.valid()).isTrue();
      assertThat(v.budgetMs()).isEqualTo(MAX_BUDGET);
    }

    @Test
    void shouldRefuseANegativeJsonIntegerTooLargeForALong() {
      assertOnlyProblemOn(forward(new JsonObject("{\"q\": \"Louvre\", \"budget_ms\": -99999999999999999999999}")), "budget_ms");
    }

    @Test
    void shouldUseTheRequestTimeoutHeaderWhenBudgetMsIsAbsent() {
      Validated v = validator.validate(q("Louvre"), Direction.FORWARD, "1200", "t");

      assertThat(v.valid()).isTrue();
      assertThat(v.budgetMs()).isEqualTo(1200);
    }

    @Test
    void shouldCapTheRequestTimeoutHeader() {
      assertThat(validator.validate(q("Louvre"), Direction.FORWARD, "60000", "t").budgetMs()).isEqualTo(MAX_BUDGET);
    }

    @Test
    void shouldPreferBudgetMsOverTheHeader() {
      assertThat(withBudget(800, "1200").budgetMs()).isEqualTo(800);
    }

    @Test
    @DisplayName("a bad Request-Timeout header is ignored when budget_ms is given")
    void shouldIgnoreABadHeaderWhenBudgetMsIsGiven() {
      Validated v = withBudget(800, "soon");

      assertThat(v.valid()).isTrue();
      assertThat(v.budgetMs()).isEqualTo(800);
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "0", "-1", "1.5"})
    void shouldReportABadHeaderUnderItsName(String header) {
      assertOnlyProblemOn(validator.validate(q("Louvre"), Direction.FORWARD, header, "t"), "Request-Timeout");
    }
  }

  @Nested
  @DisplayName("intent and language")
  class IntentAndLanguage {

    @Test
    void shouldUseTheDefaultIntentWhenNoneIsGiven() {
      assertThat(forward(q("Louvre")).request().intent()).isEqualTo("describe");
    }

    @Test
    void shouldAcceptAnIntentOfTheManifest() {
      assertThat(forward(q("Louvre").put("intent", "contain")).request().intent()).isEqualTo("contain");
    }

    @Test
    void shouldRefuseAnUnknownIntentListingTheKnownOnes() {
      Validated v = forward(q("Louvre").put("intent", "survey"));

      assertOnlyProblemOn(v, "intent");
      assertThat(v.problems().get(0).message()).isEqualTo("must be one of contain, describe, measure");
    }

    @Test
    void shouldRefuseAnIntentThatIsNotText() {
      assertOnlyProblemOn(forward(q("Louvre").put("intent", 1)), "intent");
    }

    @ParameterizedTest
    @ValueSource(strings = {"en", "pt-BR", "zh-Hant-TW", "fil", "es-419"})
    void shouldAcceptALanguageTag(String tag) {
      assertThat(forward(q("Louvre").put("language", tag)).request().language()).isEqualTo(tag);
    }

    @ParameterizedTest
    @ValueSource(strings = {"e", "english", "en_US", "en-", "pt-B", "", "en;q=0.8"})
    void shouldRefuseABadLanguageTag(String tag) {
      assertOnlyProblemOn(forward(q("Louvre").put("language", tag)), "language");
    }

    @Test
    void shouldRefuseALanguageThatIsNotText() {
      assertOnlyProblemOn(forward(q("Louvre").put("language", 7)), "language");
    }
  }

  @Nested
  @DisplayName("fields")
  class Fields {

    @Test
    void shouldRefuseAnUnknownFieldNamingIt() {
      Validated v = forward(q("Louvre").put("colour", "red"));

      assertOnlyProblemOn(v, "colour");
      assertThat(v.problems().get(0).message())
          .isEqualTo("is not a known field (known: address, bbox, budget_ms, intent, language, q)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"q", "address", "bbox"})
    void shouldRefuseForwardFieldsInAReverseRequest(String field) {
      Validated v = reverse(new JsonObject().put("lat", 48.86).put("lon", 2.34).put(field, "x"));

      assertOnlyProblemOn(v, field);
    }

    @Test
    void shouldRefuseReverseFieldsInAForwardRequest() {
      assertThat(fields(forward(q("Louvre").put("lat", 48.86).put("lon", 2.34)))).containsExactlyInAnyOrder("lat", "lon");
    }
  }

  @Nested
  @DisplayName("reverse")
  class Reverse {

    @Test
    void shouldAcceptAPointAsNumbersOrText() {
      ResolveRequest r = reverse(new JsonObject().put("lat", "48.8606").put("lon", 2.3376).put("intent", "measure")).request();

      assertThat(r.direction()).isEqualTo(Direction.REVERSE);
      assertThat(r.lat()).isEqualTo(48.8606);
      assertThat(r.lon()).isEqualTo(2.3376);
      assertThat(r.text()).isNull();
      assertThat(r.intent()).isEqualTo("measure");
    }

    @Test
    void shouldAcceptTheEdgesOfTheRanges() {
      assertThat(reverse(new JsonObject().put("lat", -90).put("lon", 180)).valid()).isTrue();
      assertThat(reverse(new JsonObject().put("lat", 90).put("lon", -180)).valid()).isTrue();
    }

    @Test
    void shouldRequireLatAndLon() {
      Validated v = reverse(new JsonObject());

      assertThat(fields(v)).containsExactly("lat", "lon");
      assertThat(v.problems()).extracting(FieldProblem::message).containsOnly("is required");
    }

    @ParameterizedTest(name = "lat={0}, lon={1} -> {2}")
    @CsvSource({
        "90.0001, 0, lat",
        "-91, 0, lat",
        "0, 180.5, lon",
        "0, -181, lon",
        "north, 0, lat",
        "0, east, lon",
        "NaN, 0, lat",
        "0, Infinity, lon",
    })
    void shouldRefuseAPointOutOfRangeOrNotANumber(String lat, String lon, String field) {
      assertOnlyProblemOn(reverse(new JsonObject().put("lat", lat).put("lon", lon)), field);
    }

    @Test
    void shouldRefuseALatitudeThatIsNotANumberOrText() {
      assertOnlyProblemOn(reverse(new JsonObject().put("lat", true).put("lon", 0)), "lat");
    }

    @Test
    void shouldSayTheRange() {
      assertThat(reverse(new JsonObject().put("lat", 0).put("lon", 200)).problems().get(0).message())
          .isEqualTo("must be a number in [-180, 180]");
    }
  }

  @Test
  @DisplayName("every problem is reported at once, each naming its field")
  void shouldReportSeveralProblemsAtOnce() {
    JsonObject body = new JsonObject()
        .put("q", " ")
        .put("bbox", "1,2")
        .put("budget_ms", 0)
        .put("intent", "survey")
        .put("language", "en_GB")
        .put("colour", "red");

    Validated v = forward(body);

    assertThat(v.valid()).isFalse();
    assertThat(v.request()).isNull();
    assertThat(fields(v)).hasSize(6).containsExactlyInAnyOrder("q", "bbox", "budget_ms", "intent", "language", "colour");
  }

  @Test
  @DisplayName("problem JSON follows RFC 9457: type, title, status, detail, the first field, and every error")
  void shouldBuildProblemJson() {
    List<FieldProblem> problems = forward(q("").put("budget_ms", -1)).problems();

    JsonObject p = RequestValidator.problemJson(problems);

    assertThat(p.fieldNames()).containsExactlyInAnyOrder("type", "title", "status", "detail", "field", "errors");
    assertThat(p.getString("type")).isEqualTo("https://georesolver.dev/problems/invalid-request");
    assertThat(p.getString("title")).isEqualTo("Invalid request");
    assertThat(p.getInteger("status")).isEqualTo(400);
    assertThat(p.getString("field")).isEqualTo(problems.get(0).field());
    assertThat(p.getString("detail")).isEqualTo(problems.get(0).field() + " " + problems.get(0).message());
    assertThat(p.getJsonArray("errors")).hasSize(2);
    assertThat(p.getJsonArray("errors").getJsonObject(0)).isEqualTo(new JsonObject()
        .put("field", problems.get(0).field()).put("message", problems.get(0).message()));
    assertThat(p.getJsonArray("errors").stream().map(e -> ((JsonObject) e).getString("field")))
        .containsExactlyInAnyOrder("q", "budget_ms");
  }
}
