package dev.georesolver.compat;

import dev.georesolver.bus.FieldProblem;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class NominatimRequestsTest {

  private static final RequestValidator VALIDATOR = new RequestValidator(Set.of("describe", "measure"), "describe", 2500, 10_000);

  private static Params params(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i + 1 < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Params.of(m);
  }

  private static Translation<NominatimRequests.Options> search(String... kv) {
    return NominatimRequests.search(params(kv), null);
  }

  private static ResolveRequest validated(Translation<?> t) {
    RequestValidator.Validated v = VALIDATOR.validate(t.fields(), t.direction(), null, "t");
    assertThat(v.problems()).isEmpty();
    return v.request();
  }

  @Test
  @DisplayName("a free-text search is the very request /v1/geocode?q= makes, so it shares its idempotency key")
  void freeTextIsTheV1Request() {
    Translation<NominatimRequests.Options> t = search("q", "10 Downing St, London", "format", "json", "osmServer", "http://x",
        "email", "me@example.org");
    ResolveRequest viaCompat = validated(t);
    ResolveRequest viaV1 = VALIDATOR.validate(new JsonObject().put("q", "10 Downing St, London"), Direction.FORWARD, null, "t").request();
    assertThat(viaCompat).isEqualTo(viaV1);
    assertThat(t.options().format()).isEqualTo(NominatimFormat.JSON);
    assertThat(t.options().query()).isEqualTo("10 Downing St, London");
  }

  @Test
  @DisplayName("structured parameters become the structured address: street, city, county and state as region, postalcode, country")
  void structured() {
    ResolveRequest r = validated(search("street", "10 Downing Street", "city", "London", "county", "Greater London",
        "state", "England", "postalcode", "SW1A 2AA", "country", "United Kingdom"));
    assertThat(r.components()).containsExactlyInAnyOrderEntriesOf(Map.of("street", "10 Downing Street", "locality", "London",
        "region", "Greater London, England", "postcode", "SW1A 2AA", "country", "United Kingdom"));
  }

  @Test
  @DisplayName("amenity has no component, so the structured parts become one free-text query")
  void amenityAsText() {
    assertThat(validated(search("amenity", "Cathedral", "city", "Cologne")).text()).isEqualTo("Cathedral, Cologne");
  }

  @Test
  @DisplayName("q together with structured parameters is Nominatim's 400")
  void qAndStructured() {
    Outcome o = search("q", "x", "city", "y").early();
    assertThat(o).isInstanceOf(Outcome.Invalid.class);
    assertThat(((Outcome.Invalid) o).message()).contains("cannot be used together with 'q' parameter");
  }

  @Test
  @DisplayName("an empty or missing query is an empty result, as in Nominatim, without asking the chain")
  void emptyQuery() {
    assertThat(search("q", "   ").early()).isInstanceOf(Outcome.NotFound.class);
    assertThat(search("format", "json").early()).isInstanceOf(Outcome.NotFound.class);
  }

  @ParameterizedTest
  @CsvSource({"xml,XML", "XML,XML", "json,JSON", "jsonv2,JSONV2", "JSONv2,JSONV2", "geojson,GEOJSON", "geocodejson,GEOCODEJSON"})
  @DisplayName("format chooses the output; search defaults to jsonv2 and reverse to xml, like Nominatim")
  void formats(String value, NominatimFormat expected) {
    assertThat(search("q", "x", "format", value).options().format()).isEqualTo(expected);
    assertThat(NominatimRequests.reverse(params("lat", "1", "lon", "2", "format", value), null).options().format())
        .isEqualTo(expected);
    assertThat(search("q", "x").options().format()).isEqualTo(NominatimFormat.JSONV2);
    assertThat(NominatimRequests.reverse(params("lat", "1", "lon", "2"), null).options().format()).isEqualTo(NominatimFormat.XML);
  }

  @Test
  @DisplayName("an unserved format is a 400 listing the served ones in Nominatim's order, in JSON (the format asked for is unknown)")
  void badFormat() {
    Translation<NominatimRequests.Options> t = search("q", "x", "format", "html");
    Outcome.Invalid i = (Outcome.Invalid) t.early();
    assertThat(i.message()).isEqualTo("Parameter 'format' must be one of: xml, json, jsonv2, geojson, geocodejson.");
    assertThat(t.options().format()).isEqualTo(NominatimFormat.JSONV2);
  }

  @Test
  @DisplayName("an error found after the format is read is written in that format")
  void errorsKeepTheFormat() {
    assertThat(search("q", "x", "format", "xml", "limit", "five").options().format()).isEqualTo(NominatimFormat.XML);
    assertThat(search("q", "x", "city", "y", "format", "xml").options().format()).isEqualTo(NominatimFormat.XML);
    assertThat(NominatimRequests.reverse(params("lon", "2", "format", "xml"), null).options().format()).isEqualTo(NominatimFormat.XML);
    assertThat(NominatimRequests.reverse(params("lon", "2"), null).options().format()).as("reverse's default").isEqualTo(NominatimFormat.XML);
  }

  @Test
  @DisplayName("xml search: the root repeats the question, the viewbox, and a more_url that is the same search with the same parameters")
  void xmlSearchContext() {
    Translation<NominatimRequests.Options> t = NominatimRequests.search(params("q", " Paris & Co ", "format", "xml", "limit", "3",
        "addressdetails", "1", "countrycodes", "FR,de,x", "viewbox", "2.5,48.9,2.2,48.8", "bounded", "1", "polygon_geojson", "1",
        "email", "a@b.c"), null, "https://geo.example");
    NominatimRequests.XmlContext x = t.options().xml();
    assertThat(x.querystring()).isEqualTo("Paris & Co");
    assertThat(x.viewbox()).isEqualTo("2.2,48.8,2.5,48.9");
    assertThat(x.moreUrl()).isEqualTo("https://geo.example/search?q=Paris+%26+Co&addressdetails=1&limit=3&countrycodes=fr%2Cde"
        + "&viewbox=2.2%2C48.8%2C2.5%2C48.9&bounded=1");
    NominatimRequests.XmlContext structured = NominatimRequests.search(params("street", "10 Downing St", "city", "London",
        "countrycodes", "gb", "format", "xml"), null).options().xml();
    assertThat(structured.querystring()).as("the parts as given, as Nominatim joins them").isEqualTo("10 Downing St, London");
    assertThat(structured.moreUrl()).isEqualTo("/search?street=10+Downing+St&city=London&countrycodes=gb");
    assertThat(search("q", "x", "format", "json").options().xml()).isEqualTo(NominatimRequests.XmlContext.NONE);
  }

  @Test
  @DisplayName("xml reverse: the root's querystring is lat, lon, format and zoom as Nominatim writes it")
  void xmlReverseContext() {
    assertThat(NominatimRequests.reverse(params("lat", " 48.860 ", "lon", "2.35", "zoom", "18"), null).options().xml().querystring())
        .isEqualTo("lat=48.86&lon=2.35&format=xml&zoom=18");
    assertThat(NominatimRequests.reverse(params("lat", "-1", "lon", "2", "format", "xml"), null).options().xml().querystring())
        .isEqualTo("lat=-1.0&lon=2.0&format=xml");
  }

  @Test
  @DisplayName("exclude_place_ids: place ids in order without repeats; anything else in the list is skipped")
  void excludePlaceIds() {
    assertThat(search("q", "x", "exclude_place_ids", "12, 7,12,N34,,x,999999999999999999999").options().excluded())
        .containsExactly(12L, 7L);
    assertThat(search("q", "x").options().excluded()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "http  | geo.example        | -1    | http://geo.example",
      "https | geo.example        | 8443  | https://geo.example:8443",
      "http  | 127.0.0.1          | 8080  | http://127.0.0.1:8080",
      "http  | [::1]              | 8080  | http://[::1]:8080",
      "http  | evil.example/x?y=1 | -1    | ''",
      "http  | a b                | -1    | ''",
      "http  | <x>&amp;           | -1    | ''",
      "http  | -geo.example       | -1    | ''",
      "ftp   | geo.example        | -1    | ''",
      "http  | geo.example        | 70000 | ''"})
  @DisplayName("more_url starts at the request's origin only when scheme and Host are well-formed, else it is relative")
  void baseUrl(String scheme, String host, int port, String expected) {
    assertThat(NominatimRequests.baseUrl(scheme, host, port)).isEqualTo(expected);
  }

  @Test
  @DisplayName("limit is checked as a number and clamped to [1, 50]; addressdetails is true for anything but 0")
  void limitAndDetails() {
    assertThat(search("q", "x", "limit", "500").options().limit()).isEqualTo(50);
    assertThat(search("q", "x", "limit", "0").options().limit()).isEqualTo(1);
    assertThat(((Outcome.Invalid) search("q", "x", "limit", "five").early()).message()).isEqualTo("Parameter 'limit' must be a number.");
    assertThat(search("q", "x").options().addressDetails()).isFalse();
    assertThat(search("q", "x", "addressdetails", "1").options().addressDetails()).isTrue();
    assertThat(search("q", "x", "addressdetails", "0").options().addressDetails()).isFalse();
  }

  @Test
  @DisplayName("viewbox restricts only with bounded=1, from any two opposite corners")
  void viewbox() {
    assertThat(validated(search("q", "x", "viewbox", "4.5,50.9,4.3,50.8")).bbox()).isNull();
    ResolveRequest r = validated(search("q", "x", "viewbox", "4.5,50.9,4.3,50.8", "bounded", "1"));
    assertThat(r.bbox().minLon()).isEqualTo(4.3);
    assertThat(r.bbox().maxLat()).isEqualTo(50.9);
    assertThat(search("q", "x", "viewbox", "1,2,3").early()).isInstanceOf(Outcome.Invalid.class);
  }

  @Test
  @DisplayName("one country code is added to the query as that country; several are ignored")
  void countrycodes() {
    assertThat(validated(search("q", "Paris", "countrycodes", "FR")).text()).isEqualTo("Paris, France");
    assertThat(validated(search("city", "Paris", "countrycodes", "us")).components()).containsEntry("country", "us");
    assertThat(validated(search("q", "Paris", "countrycodes", "fr,us")).text()).isEqualTo("Paris");
  }

  @Test
  @DisplayName("accept-language comes from the parameter, else the header; a list gives its first tag, * gives none")
  void acceptLanguage() {
    assertThat(validated(NominatimRequests.search(params("q", "x"), "en-GB,en;q=0.9")).language()).isEqualTo("en-GB");
    assertThat(validated(NominatimRequests.search(params("q", "x", "accept-language", "de"), "en")).language()).isEqualTo("de");
    assertThat(validated(NominatimRequests.search(params("q", "x"), "*")).language()).isNull();
    assertThat(validated(NominatimRequests.search(params("q", "x", "accept-language", "fr;q=0.8,*"), null)).language()).isEqualTo("fr");
  }

  @Test
  @DisplayName("reverse: lat and lon checked with Nominatim's messages, zoom must be a number, addressdetails defaults to 1")
  void reverse() {
    Translation<NominatimRequests.Options> t = NominatimRequests.reverse(params("lat", "48.86", "lon", "2.35", "zoom", "18"), null);
    ResolveRequest r = validated(t);
    assertThat(r.direction()).isEqualTo(Direction.REVERSE);
    assertThat(r.lat()).isEqualTo(48.86);
    assertThat(t.options().addressDetails()).isTrue();
    assertThat(((Outcome.Invalid) NominatimRequests.reverse(params("lon", "2"), null).early()).message())
        .isEqualTo("Parameter 'lat' missing.");
    assertThat(((Outcome.Invalid) NominatimRequests.reverse(params("lat", "x", "lon", "2"), null).early()).message())
        .isEqualTo("Parameter 'lat' must be a number.");
    assertThat(((Outcome.Invalid) NominatimRequests.reverse(params("lat", "1", "lon", "2", "zoom", "high"), null).early()).message())
        .isEqualTo("Parameter 'zoom' must be a number.");
  }

  @Test
  @DisplayName("the validator's problems come back in Nominatim's words, naming Nominatim's parameter")
  void validatorProblems() {
    Outcome.Invalid i = (Outcome.Invalid) NominatimRequests.invalid(List.of(new FieldProblem("lat", "must be a number in [-90, 90]")));
    assertThat(i.message()).isEqualTo("Parameter 'lat' must be a number in [-90, 90].");
    Translation<NominatimRequests.Options> t = search("city", "x".repeat(1001));
    RequestValidator.Validated v = VALIDATOR.validate(t.fields(), t.direction(), null, "t");
    assertThat(((Outcome.Invalid) NominatimRequests.invalid(v.problems())).param()).isEqualTo("city");
  }

  @Test
  @DisplayName("georesolver's intent and budget_ms pass through to the chain")
  void extensions() {
    Translation<NominatimRequests.Options> t = search("q", "x", "intent", "measure", "budget_ms", "900");
    RequestValidator.Validated v = VALIDATOR.validate(t.fields(), t.direction(), null, "t");
    assertThat(v.request().intent()).isEqualTo("measure");
    assertThat(v.budgetMs()).isEqualTo(900);
  }
}
