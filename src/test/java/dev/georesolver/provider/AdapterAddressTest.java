package dev.georesolver.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every HTTP adapter maps its provider's address fields onto the one {@link Address}: asserted on
 * the recorded bodies (forward and reverse, every component, so a component the adapter should
 * not fill is asserted absent), and on hostile bodies, whose components must never fail a hit and
 * leave the tier cleaned like labels.
 */
class AdapterAddressTest {

  /** A recorded body, the hit asked about and its whole address. */
  record Recorded(String adapter, String fixture, Direction direction, int hit, Map<String, String> address) {
    @Override
    public String toString() {
      return adapter + " " + fixture + (hit == 0 ? "" : " #" + hit);
    }
  }

  private static Recorded fwd(String adapter, String fixture, String... components) {
    return at(adapter, fixture, Direction.FORWARD, 0, components);
  }

  private static Recorded rev(String adapter, String fixture, String... components) {
    return at(adapter, fixture, Direction.REVERSE, 0, components);
  }

  private static Recorded at(String adapter, String fixture, Direction d, int hit, String... components) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String c : components) {
      int eq = c.indexOf('=');
      m.put(c.substring(0, eq), c.substring(eq + 1));
    }
    return new Recorded(adapter, fixture, d, hit, m);
  }

  static Stream<Recorded> recorded() {
    return Stream.of(
        // Google: address_components by type; short_name only for the country code.
        fwd("google", "google/geocode-10-downing-st-london-en.json", "house_number=10", "road=Downing Street",
            "neighbourhood=Westminster", "locality=London", "county=Greater London", "region=England",
            "postcode=SW1A 2AB", "country=United Kingdom", "country_code=GB", "place_type=street_address"),
        fwd("google", "google/geocode-135-pilkington-avenue-birmingham.json", "house_number=135",
            "road=Pilkington Avenue", "locality=Sutton Coldfield", "county=West Midlands", "region=England",
            "postcode=B72 1LH", "country=United Kingdom", "country_code=GB", "place_type=street_address"),
        fwd("google", "google/geocode-madison-square-garden-rooftop.json", "house_number=4", "road=Penn Plaza",
            "neighbourhood=Manhattan", "locality=New York", "county=New York", "region=New York", "postcode=10001",
            "country=United States", "country_code=US", "place_type=street_address"),
        fwd("google", "google/geocode-garbage-partial-match-approximate.json", "neighbourhood=Hedge End",
            "locality=Southampton", "county=Hampshire", "postcode=SO30 4RT", "country=United Kingdom",
            "country_code=GB", "place_type=postal_code"),
        at("google", "google/geocode-garbage-partial-match-approximate.json", Direction.FORWARD, 2,
            "neighbourhood=Caerau", "locality=Cardiff", "county=South Glamorgan", "postcode=CF5 4RT",
            "country=United Kingdom", "country_code=GB", "place_type=postal_code"),
        fwd("google", "google/geocode-paris-france-approximate.json", "locality=Paris", "county=Paris",
            "region=Île-de-France", "country=France", "country_code=FR", "place_type=locality"),
        rev("google", "google/reverse-48.863151-2.388911.json", "house_number=12", "road=Avenue Gambetta",
            "locality=Paris", "county=Arrondissement de Paris", "region=Île-de-France", "postcode=75020",
            "country=France", "country_code=FR", "place_type=street_address"),

        // Nominatim: the OSM-keyed address of addressdetails=1; the place type is category/type.
        fwd("nominatim", "nominatim/search-jsonv2-10-downing-st-london-en.json", "house_number=10",
            "road=Downing Street", "neighbourhood=Westminster", "locality=Westminster", "county=Greater London",
            "region=England", "postcode=SW1A 2AA", "country=United Kingdom", "country_code=GB",
            "place_type=tourism/attraction"),
        fwd("nominatim", "nominatim/search-jsonv2-woronicza-17-warszawa.json", "house_number=17",
            "road=Jana Pawła Woronicza", "neighbourhood=Ksawerów", "locality=Warszawa",
            "region=województwo mazowieckie", "postcode=02-625", "country=Polska", "country_code=PL",
            "place_type=place/house"),
        fwd("nominatim", "nominatim/search-json-cologne-cathedral.json", "house_number=4", "road=Domkloster",
            "neighbourhood=Kunibertsviertel", "locality=Cologne", "county=Cologne", "region=North Rhine-Westphalia",
            "postcode=50667", "country=Germany", "country_code=DE", "place_type=amenity/place_of_worship"),
        fwd("nominatim", "nominatim/search-jsonv2-90210-postcode-no-osm-id.json", "locality=Beverly Hills",
            "region=California", "postcode=90210", "country=United States", "country_code=US",
            "place_type=place/postcode"),
        fwd("nominatim", "nominatim/search-jsonv2-1-place-des-palais-bruxelles.json", "house_number=1",
            "road=Place des Palais - Paleizenplein", "neighbourhood=Quartier Royal - Koninklijke Wijk",
            "locality=Ville de Bruxelles - Stad Brussel", "county=Brussel-Hoofdstad - Bruxelles-Capitale",
            "region=Région de Bruxelles-Capitale - Brussels Hoofdstedelijk Gewest", "postcode=1000",
            "country=België / Belgique / Belgien", "country_code=BE", "place_type=tourism/attraction"),
        fwd("nominatim", "nominatim/search-jsonv2-italia-viewbox-bounded-no-country.json", "place_type=waterway/stream"),
        fwd("nominatim", "nominatim/search-geocodejson-docs-example-athens.json", "place_type=place_of_worship"),
        rev("nominatim", "nominatim/reverse-jsonv2-35.685939-139.811695-en.json", "neighbourhood=Sarue 1-chome",
            "locality=Koto", "postcode=135-0002", "country=Japan", "country_code=JP", "place_type=highway/tertiary"),
        rev("nominatim", "nominatim/reverse-jsonv2-48.86-2.35.json", "road=Rue Quincampoix", "neighbourhood=Beaubourg",
            "locality=Paris", "county=Paris", "region=Île-de-France", "postcode=75004", "country=France",
            "country_code=FR", "place_type=amenity/cafe"),

        // Pelias: the feature's hierarchy; country_a (alpha-3) when there is no country_code.
        fwd("pelias", "pelias/geocodeearth-search-10-downing-st-london.json", "house_number=10", "road=Downing Street",
            "neighbourhood=Whitehall", "locality=London", "county=Lambeth", "region=Greater London",
            "postcode=SW1A 2AA", "country=United Kingdom", "country_code=GB", "place_type=address"),
        fwd("pelias", "pelias/geocodeearth-search-hanover.json", "locality=Hanover", "county=Hannover",
            "region=Lower Saxony", "country=Germany", "country_code=DE", "place_type=locality"),
        at("pelias", "pelias/geocodeearth-search-hanover.json", Direction.FORWARD, 1, "region=Hanover",
            "country=Jamaica", "country_code=JM", "place_type=region"),
        fwd("pelias", "pelias/mapzen-search-madison-square-garden.json", "neighbourhood=Garment District",
            "locality=New York", "county=New York County", "region=New York", "country=United States",
            "country_code=US", "place_type=venue"),
        rev("pelias", "pelias/geocodeearth-reverse-40.714232--73.9612889.json", "house_number=279",
            "road=Bedford Avenue", "neighbourhood=Williamsburg", "locality=New York", "county=Kings County",
            "region=New York", "postcode=11211", "country=United States", "country_code=US", "place_type=address"),
        rev("pelias", "pelias/geocodeearth-reverse-54.0484068--2.7990345.json", "house_number=11",
            "road=Ffrances Passage", "locality=Lancaster", "county=Lancaster", "region=Lancashire",
            "postcode=LA1 1UG", "country=United Kingdom", "country_code=GB", "place_type=address"),

        // Photon: its properties; a city feature names its own locality.
        fwd("photon", "photon/search-10-avenue-gambetta-paris.json", "house_number=10", "road=Avenue Gambetta",
            "neighbourhood=Quartier Saint-Fargeau", "locality=Paris", "region=Île-de-France", "postcode=75020",
            "country=France", "country_code=FR", "place_type=place/house"),
        fwd("photon", "photon/search-sherlock-holmes-museum-london.json", "house_number=221b", "road=Baker Street",
            "neighbourhood=Marylebone", "locality=London", "county=Greater London", "region=England",
            "postcode=NW1 6XE", "country=United Kingdom", "country_code=GB", "place_type=tourism/museum"),
        fwd("photon", "photon/search-madison-square-garden.json", "house_number=4", "road=Pennsylvania Plaza",
            "locality=New York", "region=New York", "postcode=10001", "country=United States of America",
            "place_type=leisure/stadium"),
        rev("photon", "photon/reverse-berlin-layer-city-radius-20.json", "locality=Berlin", "country=Deutschland",
            "country_code=DE", "place_type=place/city"),
        rev("photon", "photon/reverse-52-10-limit-1.json", "road=Evensener Dorfstraße", "neighbourhood=Sehlem",
            "locality=Lamspringe", "county=Landkreis Hildesheim", "region=Niedersachsen", "postcode=31195",
            "country=Deutschland", "country_code=DE", "place_type=tourism/information"),

        // HERE: address, with the alpha-3 countryCode.
        fwd("here", "here/v7-geocode-135-pilkington-avenue-birmingham.json", "house_number=135", "road=Avenue Y",
            "neighbourhood=North Pratt", "locality=Birmingham", "county=Jefferson", "region=Alabama",
            "postcode=35214-5103", "country=United States", "country_code=US", "place_type=houseNumber"),
        fwd("here", "here/v7-geocode-berlin-locality.json", "locality=Berlin", "county=Berlin", "region=Berlin",
            "postcode=10117", "country=Germany", "country_code=DE", "place_type=locality"),
        rev("here", "here/v7-revgeocode-40.714232--73.9612889.json", "house_number=277", "road=Bedford Ave",
            "neighbourhood=Williamsburg", "locality=Brooklyn", "county=Kings", "region=New York",
            "postcode=11211-4203", "country=United States", "country_code=US", "place_type=houseNumber"),

        // Mapbox v6: properties.context by level.
        fwd("mapbox", "mapbox/v6-forward-135-pilkington-avenue-birmingham.json", "house_number=135",
            "road=Pilkington Avenue", "locality=Sutton Coldfield", "county=West Midlands", "region=England",
            "postcode=B72 1LH", "country=United Kingdom", "country_code=GB", "place_type=address"),
        at("mapbox", "mapbox/v6-forward-135-pilkington-avenue-birmingham.json", Direction.FORWARD, 1,
            "house_number=135", "road=Pilkington Avenue", "neighbourhood=Newcastle-under-Lyme", "locality=Newcastle",
            "county=Staffordshire", "region=England", "postcode=ST5 3RE", "country=United Kingdom", "country_code=GB",
            "place_type=address"),
        rev("mapbox", "mapbox/v6-reverse-40.714232--73.9612889.json", "house_number=277", "road=Bedford Avenue",
            "neighbourhood=Williamsburg", "locality=New York", "county=Kings County", "region=New York",
            "postcode=11211", "country=United States", "country_code=US", "place_type=address"),
        at("mapbox", "mapbox/v6-reverse-40.714232--73.9612889.json", Direction.REVERSE, 1,
            "neighbourhood=Williamsburg", "locality=New York", "county=Kings County", "region=New York",
            "postcode=11211", "country=United States", "country_code=US", "place_type=neighborhood"),

        // Mapbox v5: the feature itself, then its context by id prefix.
        fwd("mapbox_v5", "mapbox/v5-forward-10-downing-st-london.json", "house_number=10", "road=Downing Street",
            "neighbourhood=St. James's", "locality=London", "county=Greater London", "region=England",
            "postcode=SW1A 2AT", "country=United Kingdom", "country_code=GB", "place_type=address"),
        fwd("mapbox_v5", "mapbox/v5-forward-116th-st-broadway-new-york.json", "road=116th Street",
            "neighbourhood=College Point", "locality=New York", "region=New York", "postcode=11356",
            "country=United States", "country_code=US", "place_type=address"),
        at("mapbox_v5", "mapbox/v5-forward-madison-square-garden.json", Direction.FORWARD, 1, "locality=Madison",
            "county=Morris County", "region=New Jersey", "country=United States", "country_code=US",
            "place_type=place"),
        fwd("mapbox_v5", "mapbox/v5-forward-princ-monaco-it.json", "locality=Principato di Monaco",
            "country=Principato di Monaco", "place_type=place"),
        rev("mapbox_v5", "mapbox/v5-reverse-48.8631507-2.388911.json", "house_number=8", "road=Avenue Gambetta",
            "locality=Paris", "postcode=75020", "country=France", "country_code=FR", "place_type=address"),

        // OpenCage: components (OSM keys), _type.
        fwd("opencage", "opencage/geocode-10-downing-st-london-en.json", "house_number=10", "road=Downing Street",
            "neighbourhood=St. James's", "locality=Westminster", "county=Greater London", "region=England",
            "postcode=SW1A 2AA", "country=United Kingdom", "country_code=GB", "place_type=attraction"),
        fwd("opencage", "opencage/geocode-135-pilkington-avenue-birmingham.json", "house_number=135",
            "road=Pilkington Avenue", "locality=Birmingham", "county=West Midlands Combined Authority",
            "region=England", "postcode=B72 1LH", "country=United Kingdom", "country_code=GB", "place_type=building"),
        at("opencage", "opencage/geocode-10-avenue-gambetta-paris.json", Direction.FORWARD, 1, "locality=Paris",
            "county=Paris", "region=Île-de-France", "country=France", "place_type=local_administrative_area"),
        fwd("opencage", "opencage/geocode-madison-square-garden.json", "house_number=46", "road=West 31st Street",
            "neighbourhood=Koreatown", "locality=New York City", "county=New York County", "region=New York",
            "postcode=10011", "country=United States of America", "country_code=US"),
        rev("opencage", "opencage/reverse-54.0484068--2.7990345-lancaster.json", "road=Lancaster Gate",
            "neighbourhood=Vale", "locality=Lancaster", "county=Lancashire", "region=England", "postcode=LA1 1LZ",
            "country=United Kingdom", "country_code=GB", "place_type=building"),

        // ArcGIS: candidate attributes and reverse address; alpha-3 country codes.
        fwd("arcgis", "arcgis/findAddressCandidates-10-downing-st-london.json", "house_number=10",
            "road=Downing Street", "locality=London", "county=London", "region=England", "postcode=SW1A 2",
            "country_code=GB", "place_type=PointAddress"),
        fwd("arcgis", "arcgis/findAddressCandidates-10-avenue-gambetta-paris.json", "house_number=10",
            "road=Avenue Gambetta", "neighbourhood=Père Lachaise Réunion", "locality=Paris", "county=Paris",
            "region=Île-de-France", "postcode=75020", "country_code=FR", "place_type=PointAddress"),
        fwd("arcgis", "arcgis/findAddressCandidates-hannover.json", "locality=Hannover", "county=Region Hannover",
            "region=Niedersachsen", "country_code=DE", "place_type=Locality"),
        fwd("arcgis", "arcgis/find-legacy-madison-square-garden.json", "locality=New York", "county=New York",
            "region=New York", "postcode=10001", "country_code=US", "place_type=POI"),
        rev("arcgis", "arcgis/reverseGeocode-48.86328-2.38902-paris.json", "house_number=5", "road=Avenue Gambetta",
            "neighbourhood=Amandiers", "locality=Paris", "county=Paris", "region=Île-de-France", "postcode=75020",
            "country_code=FR", "place_type=StreetAddress"),
        rev("arcgis", "arcgis/reverseGeocode-legacy-eiffel-paris.json", "neighbourhood=7e Arrondissement",
            "locality=Paris", "county=Paris", "region=Île-de-France", "postcode=75007", "country_code=FR"));
  }

  private static ProviderAdapter adapter(String name) {
    return AdapterRegistry.http(name).orElseThrow();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recorded")
  @DisplayName("each recorded body gives its hit exactly the address its provider fields say")
  void shouldMapTheRecordedAddressFields(Recorded c) {
    RawHit hit = Fixtures.hits(adapter(c.adapter()).parse(c.direction(), Fixtures.ok(c.fixture()), SchemaMode.RELAXED))
        .get(c.hit());
    assertThat(hit.address().toMap()).isEqualTo(c.address());
  }

  @Test
  @DisplayName("every HTTP adapter is covered by a recorded body with an address, forward and (where it has one) reverse")
  void everyAdapterShouldBeCoveredOnRecordedBodies() {
    Map<String, List<Direction>> covered = recorded().collect(Collectors.groupingBy(Recorded::adapter,
        Collectors.mapping(Recorded::direction, Collectors.toList())));
    for (String name : AdapterRegistry.names()) {
      if (AdapterRegistry.isLocal(name) || name.equals("generic")) {
        continue;
      }
      assertThat(covered).as(name).containsKey(name);
      assertThat(covered.get(name)).as(name).contains(Direction.FORWARD, Direction.REVERSE);
    }
  }

  @Test
  @DisplayName("the address survives strict validation too, and is the same as under relaxed")
  void strictShouldCarryTheSameAddress() {
    for (Recorded c : recorded().toList()) {
      ProviderAnswer strict = adapter(c.adapter()).parse(c.direction(), Fixtures.ok(c.fixture()), SchemaMode.STRICT);
      if (strict instanceof ProviderAnswer.Found f && f.hits().size() > c.hit()) {
        assertThat(f.hits().get(c.hit()).address().toMap()).as(c.toString()).isEqualTo(c.address());
      }
    }
  }

  @Test
  @DisplayName("Nominatim is asked for its address details, forward and reverse")
  void nominatimShouldAskForAddressDetails() {
    NominatimAdapter a = new NominatimAdapter();
    assertThat(Fixtures.param(a.forward("https://n.example", ForwardQuery.of("10 Downing St")), "addressdetails")).isEqualTo("1");
    assertThat(Fixtures.param(a.reverse("https://n.example", new ReverseQuery(51.5, -0.12, null)), "addressdetails"))
        .isEqualTo("1");
  }

  @Test
  @DisplayName("ArcGIS is asked for every candidate attribute the address reads")
  void arcGisShouldAskForTheFieldsItReads() {
    String fields = Fixtures.param(new ArcGisAdapter().forward("https://a.example/GeocodeServer", ForwardQuery.of("x")),
        "outFields");
    assertThat(Arrays.asList(fields.split(","))).contains("Addr_type", "AddNum", "StName", "StType", "Nbrhd", "City",
        "Subregion", "Region", "Postal", "CntryName", "Country");
  }

  @Test
  @DisplayName("the generic contract takes an optional address object named by the components")
  void genericShouldReadTheOptionalAddressObject() {
    String body = "{\"x\": -0.1276, \"y\": 51.5033, \"crs\": \"EPSG:4326\", \"confidence\": 0.9, \"label\": \"10 Downing St\","
        + " \"address\": {\"house_number\": \"10\", \"road\": \"Downing Street\", \"locality\": \"London\","
        + " \"postcode\": \"SW1A 2AA\", \"country_code\": \"gb\", \"place_type\": \"house\", \"city\": \"ignored\"}}";
    RawHit hit = Fixtures.best(new GenericAdapter().parse(Direction.FORWARD, ProviderResponse.of(200, body), SchemaMode.STRICT));
    assertThat(hit.address().toMap()).isEqualTo(Map.of("house_number", "10", "road", "Downing Street", "locality", "London",
        "postcode", "SW1A 2AA", "country_code", "GB", "place_type", "house"));
    RawHit bare = Fixtures.best(new GenericAdapter().parse(Direction.FORWARD,
        ProviderResponse.of(200, "{\"x\": 1, \"y\": 2, \"crs\": \"EPSG:4326\", \"confidence\": 1}"), SchemaMode.STRICT));
    assertThat(bare.address()).isSameAs(Address.EMPTY);
  }

  // ---- hostile components -------------------------------------------------------------------

  private static final String KEY = "s3cr3t-tier-key-42";
  private static final ProviderText CLEANER = ProviderText.forTier(KEY, CredentialPlacement.queryParam("key"));
  /** Values for the slots of a hostile body: road, locality, region, house number, postcode, country, code. */
  private static final String LONG = "a".repeat(10_240);
  private static final String CONTROLS = "Lon\u001b[31mdon\r\n12:00 ERROR forged";
  private static final String ECHO = "Region for /geocode?key=" + KEY + "&q=x (" + KEY + ")";
  private static final Object NUMBER = 12;
  private static final Object ARRAY = new JsonArray().add("SW1A 2AA");
  private static final Object OBJECT = new JsonObject().put("name", "United Kingdom");
  private static final String NOT_A_CODE = "Deutschland";

  private static JsonObject point(JsonObject properties) {
    return new JsonObject().put("type", "Feature")
        .put("geometry", new JsonObject().put("type", "Point").put("coordinates", new JsonArray().add(-0.12).add(51.5)))
        .put("properties", properties);
  }

  private static JsonObject collection(JsonObject... features) {
    return new JsonObject().put("type", "FeatureCollection").put("features", new JsonArray(List.of((Object[]) features)));
  }

  /** One body per adapter with the hostile values in the fields that fill road, locality, region, … */
  static Stream<Arguments> hostile() {
    return Stream.of(
        Arguments.of("google", new JsonObject().put("status", "OK").put("results", new JsonArray().add(new JsonObject()
            .put("geometry", new JsonObject().put("location", new JsonObject().put("lat", 51.5).put("lng", -0.12))
                .put("location_type", "ROOFTOP"))
            .put("formatted_address", "x").put("types", new JsonArray().add("street_address"))
            .put("address_components", new JsonArray()
                .add(component(NUMBER, "street_number")).add(component(LONG, "route"))
                .add(component(CONTROLS, "locality")).add(component(ECHO, "administrative_area_level_1"))
                .add(component(ARRAY, "postal_code"))
                .add(component(OBJECT, "country").put("short_name", NOT_A_CODE))
                .add(component("Spain", "country").put("short_name", NOT_A_CODE)))))),
        Arguments.of("nominatim", new JsonObject().put("lat", "51.5").put("lon", "-0.12").put("display_name", "x")
            .put("importance", 0.5).put("category", "place").put("type", "house").put("place_rank", 30)
            .put("address", new JsonObject().put("house_number", NUMBER).put("road", LONG).put("city", CONTROLS)
                .put("state", ECHO).put("postcode", ARRAY).put("country", OBJECT).put("country_code", NOT_A_CODE))),
        Arguments.of("pelias", collection(point(new JsonObject().put("confidence", 1).put("label", "x").put("layer", "address")
            .put("housenumber", NUMBER).put("street", LONG).put("locality", CONTROLS).put("region", ECHO)
            .put("postalcode", ARRAY).put("country", OBJECT).put("country_code", NOT_A_CODE).put("country_a", 276)))),
        Arguments.of("photon", collection(point(new JsonObject().put("osm_key", "place").put("osm_value", "house")
            .put("type", "house").put("housenumber", NUMBER).put("street", LONG).put("city", CONTROLS).put("state", ECHO)
            .put("postcode", ARRAY).put("country", OBJECT).put("countrycode", NOT_A_CODE)))),
        Arguments.of("here", new JsonObject().put("items", new JsonArray().add(new JsonObject().put("title", "x")
            .put("position", new JsonObject().put("lat", 51.5).put("lng", -0.12))
            .put("scoring", new JsonObject().put("queryScore", 1)).put("resultType", "houseNumber")
            .put("address", new JsonObject().put("houseNumber", NUMBER).put("street", LONG).put("city", CONTROLS)
                .put("state", ECHO).put("postalCode", ARRAY).put("countryName", OBJECT).put("countryCode", NOT_A_CODE))))),
        Arguments.of("mapbox", collection(point(new JsonObject().put("feature_type", "address").put("name", "x")
            .put("context", new JsonObject()
                .put("address", new JsonObject().put("address_number", NUMBER))
                .put("street", new JsonObject().put("name", LONG)).put("place", new JsonObject().put("name", CONTROLS))
                .put("region", new JsonObject().put("name", ECHO)).put("postcode", new JsonObject().put("name", ARRAY))
                .put("country", new JsonObject().put("name", OBJECT).put("country_code", NOT_A_CODE)))))),
        Arguments.of("mapbox_v5", collection(new JsonObject().put("type", "Feature")
            .put("center", new JsonArray().add(-0.12).add(51.5)).put("relevance", 1).put("place_name", "x")
            .put("place_type", new JsonArray().add("address")).put("address", NUMBER).put("text", LONG)
            .put("context", new JsonArray()
                .add(new JsonObject().put("id", "place.1").put("text", CONTROLS))
                .add(new JsonObject().put("id", "region.1").put("text", ECHO))
                .add(new JsonObject().put("id", "postcode.1").put("text", ARRAY))
                .add(new JsonObject().put("id", "country.1").put("text", OBJECT).put("short_code", NOT_A_CODE))
                .add("not an object").add(new JsonObject().put("id", 7))))),
        Arguments.of("opencage", new JsonObject().put("status", new JsonObject().put("code", 200))
            .put("results", new JsonArray().add(new JsonObject()
                .put("geometry", new JsonObject().put("lat", 51.5).put("lng", -0.12)).put("confidence", 9).put("formatted", "x")
                .put("components", new JsonObject().put("_type", "building").put("house_number", NUMBER).put("road", LONG)
                    .put("city", CONTROLS).put("state", ECHO).put("postcode", ARRAY).put("country", OBJECT)
                    .put("country_code", NOT_A_CODE))))),
        Arguments.of("arcgis", new JsonObject().put("spatialReference", new JsonObject().put("wkid", 4326))
            .put("candidates", new JsonArray().add(new JsonObject().put("address", "x")
                .put("location", new JsonObject().put("x", -0.12).put("y", 51.5)).put("score", 100)
                .put("attributes", new JsonObject().put("Addr_type", "PointAddress").put("AddNum", NUMBER).put("StName", LONG)
                    .put("City", CONTROLS).put("Region", ECHO).put("Postal", ARRAY).put("CntryName", OBJECT)
                    .put("Country", NOT_A_CODE))))),
        Arguments.of("generic", new JsonObject().put("x", -0.12).put("y", 51.5).put("crs", "EPSG:4326").put("confidence", 1)
            .put("address", new JsonObject().put("house_number", NUMBER).put("road", LONG).put("locality", CONTROLS)
                .put("region", ECHO).put("postcode", ARRAY).put("country", OBJECT).put("country_code", NOT_A_CODE))));
  }

  private static JsonObject component(Object longName, String type) {
    return new JsonObject().put("long_name", longName).put("types", new JsonArray().add(type));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostile")
  @DisplayName("hostile components never fail the hit: long ones are bounded, controls escaped, the credential redacted, wrong types dropped")
  void hostileComponentsShouldBeBoundedEscapedRedactedOrDropped(String name, JsonObject body) {
    for (SchemaMode mode : SchemaMode.values()) {
      ProviderAnswer parsed = adapter(name).parse(Direction.FORWARD, ProviderResponse.of(200, body.encode()), mode);
      RawHit raw = Fixtures.best(parsed);
      assertThat(raw.address().get(Component.ROAD)).as("the adapter reads, the cleaner bounds").hasSize(LONG.length());

      Address a = Fixtures.best(CLEANER.clean(parsed)).address();
      assertThat(a.get(Component.ROAD)).hasSize(ProviderText.MAX_COMPONENT_CHARS + 1).endsWith(ProviderText.ELLIPSIS);
      assertThat(a.get(Component.LOCALITY)).startsWith("Lon\\u001b[31mdon\\r\\n12:00").doesNotContain("\u001b", "\r", "\n");
      assertThat(a.get(Component.REGION)).doesNotContain(KEY).contains(ProviderText.REDACTED);
      assertThat(a.get(Component.HOUSE_NUMBER)).as("a number is read as its text").isEqualTo("12");
      assertThat(a.has(Component.POSTCODE)).as("an array is no postcode").isFalse();
      assertThat(a.has(Component.COUNTRY_CODE)).as("a name is no country code").isFalse();
      if (!name.equals("google")) {
        assertThat(a.has(Component.COUNTRY)).as("an object is no country").isFalse();
      }
    }
  }

  /** Bodies whose address container has the wrong type: the hit stands, without those components. */
  static Stream<Arguments> wrongContainers() {
    return Stream.of(
        Arguments.of("google", "{\"status\":\"OK\",\"results\":[{\"geometry\":{\"location\":{\"lat\":1,\"lng\":2},"
            + "\"location_type\":\"ROOFTOP\"},\"formatted_address\":\"x\",\"address_components\":{\"route\":\"x\"}}]}"),
        Arguments.of("google", "{\"status\":\"OK\",\"results\":[{\"geometry\":{\"location\":{\"lat\":1,\"lng\":2},"
            + "\"location_type\":\"ROOFTOP\"},\"formatted_address\":\"x\",\"address_components\":[1,null,\"x\","
            + "{\"long_name\":\"x\",\"types\":\"route\"},{\"types\":[\"route\"]}]}]}"),
        Arguments.of("nominatim", "[{\"lat\":\"1\",\"lon\":\"2\",\"display_name\":\"x\",\"importance\":0.5,\"address\":[\"x\"]}]"),
        Arguments.of("here", "{\"items\":[{\"title\":\"x\",\"position\":{\"lat\":1,\"lng\":2},\"scoring\":{\"queryScore\":1},"
            + "\"address\":\"10 Downing St\"}]}"),
        Arguments.of("mapbox", "{\"features\":[{\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\"properties\":"
            + "{\"feature_type\":\"x\",\"name\":\"x\",\"context\":[1,2]}}]}"),
        Arguments.of("mapbox", "{\"features\":[{\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\"properties\":"
            + "{\"feature_type\":\"x\",\"name\":\"x\",\"context\":{\"place\":\"London\",\"country\":[\"GB\"]}}}]}"),
        Arguments.of("mapbox_v5", "{\"features\":[{\"center\":[2,1],\"relevance\":1,\"place_name\":\"x\",\"context\":{\"id\":\"place.1\"}}]}"),
        Arguments.of("opencage", "{\"status\":{\"code\":200},\"results\":[{\"geometry\":{\"lat\":1,\"lng\":2},\"confidence\":5,"
            + "\"formatted\":\"x\",\"components\":\"x\"}]}"),
        Arguments.of("arcgis", "{\"spatialReference\":{\"wkid\":4326},\"candidates\":[{\"address\":\"x\",\"location\":{\"x\":2,\"y\":1},"
            + "\"score\":90,\"attributes\":[\"City\"]}]}"),
        Arguments.of("arcgis", "{\"location\":{\"x\":2,\"y\":1,\"spatialReference\":{\"wkid\":4326}},\"address\":{\"AddNum\":5,"
            + "\"Address\":7,\"City\":[\"Paris\"]}}"),
        Arguments.of("generic", "{\"x\":2,\"y\":1,\"crs\":\"EPSG:4326\",\"confidence\":1,\"address\":\"10 Downing St\"}"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("wrongContainers")
  @DisplayName("an address container of the wrong type drops its components, never the hit")
  void wrongContainerShouldDropComponentsNotTheHit(String name, String body) {
    for (SchemaMode mode : SchemaMode.values()) {
      assertThatCode(() -> {
        RawHit hit = Fixtures.best(adapter(name).parse(Direction.FORWARD, ProviderResponse.of(200, body), mode));
        assertThat(hit.address().has(Component.ROAD)).isFalse();
        assertThat(hit.address().has(Component.LOCALITY)).isFalse();
        assertThat(hit.address().has(Component.COUNTRY_CODE)).isFalse();
      }).as("%s %s", name, mode).doesNotThrowAnyException();
    }
  }

  // ---- the hit carries it -------------------------------------------------------------------

  @Test
  @DisplayName("the address travels on the wire with the hit, and is left out when there is none")
  void rawHitJsonShouldCarryTheAddress() {
    RawHit hit = Fixtures.best(new GoogleAdapter().parse(Direction.FORWARD,
        Fixtures.ok("google/geocode-10-downing-st-london-en.json"), SchemaMode.STRICT)).withDistance(12.5);
    JsonObject wire = hit.toJson();
    assertThat(wire.getJsonObject("address").getString("country_code")).isEqualTo("GB");
    RawHit back = RawHit.fromJson(new JsonObject(wire.encode()));
    assertThat(back).isEqualTo(hit);
    assertThat(back.address().toMap()).containsExactlyEntriesOf(hit.address().toMap());

    RawHit bare = RawHit.of(1, 2, "EPSG:4326", 0.5, "x", null);
    assertThat(bare.address()).isSameAs(Address.EMPTY);
    assertThat(bare.toJson().containsKey("address")).isFalse();
    assertThat(RawHit.fromJson(bare.toJson())).isEqualTo(bare);
    assertThat(new RawHit(1, 2, "EPSG:4326", 0.5, "x", null, null, null, null).address()).isSameAs(Address.EMPTY);
  }

  @Test
  @DisplayName("withDistance keeps the address; withAddress keeps the rest")
  void withersShouldKeepEachOther() {
    Address a = Address.builder().put(Component.LOCALITY, "Paris").build();
    RawHit hit = RawHit.of(2.35, 48.85, "EPSG:4326", 0.7, "Paris", "locality").withAddress(a).withDistance(40);
    assertThat(hit.address()).isSameAs(a);
    assertThat(hit.distanceM()).isEqualTo(40.0);
    assertThat(hit.withAddress(null).address()).isSameAs(Address.EMPTY);
    assertThat(hit.withAddress(Address.EMPTY).label()).isEqualTo("Paris");
  }

  @Test
  @DisplayName("an answer whose components need no cleaning is returned as the same instance")
  void cleanAnswersShouldBeShared() {
    ProviderAnswer parsed = new NominatimAdapter().parse(Direction.FORWARD,
        Fixtures.ok("nominatim/search-jsonv2-10-downing-st-london-en.json"), SchemaMode.STRICT);
    assertThat(CLEANER.clean(parsed)).isSameAs(parsed);
  }
}
