package dev.georesolver.gazetteer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.ForwardQuery;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Forward lookups against the bundled data: names, qualifiers, ambiguity, addresses, garbage. */
class GazetteerForwardTest {

  private final Gazetteer g = TestGazetteer.get();

  private List<ForwardMatch> forward(String text) {
    return g.forward(ForwardQuery.of(text));
  }

  private ForwardMatch best(String text) {
    List<ForwardMatch> m = forward(text);
    assertThat(m).as("matches for %s", text).isNotEmpty();
    return m.get(0);
  }

  @ParameterizedTest(name = "{0} -> {3}")
  @CsvSource(delimiter = ';', value = {
      "Paris;                         48.8566;    2.3522;  FR",
      "Paris, Texas;                  33.6609;  -95.5555;  US",
      "Paris TX;                      33.6609;  -95.5555;  US",
      "Portland, Maine;               43.6591;  -70.2568;  US",
      "Portland ME;                   43.6591;  -70.2568;  US",
      "Portland, Oregon;              45.5152; -122.6784;  US",
      "Springfield, Illinois;         39.7817;  -89.6501;  US",
      "Springfield IL;                39.7817;  -89.6501;  US",
      "Cape Town, South Africa;      -33.9249;   18.4241;  ZA",
      "São Paulo;                    -23.5505;  -46.6333;  BR",
      "Sao Paulo;                    -23.5505;  -46.6333;  BR",
      "SÃO PAULO, Brazil;            -23.5505;  -46.6333;  BR",
      "tokyo japan;                   35.6762;  139.6503;  JP",
      "München;                       48.1351;   11.5820;  DE",
      "Munich;                        48.1351;   11.5820;  DE",
      "London;                        51.5074;   -0.1278;  GB",
      "London, Ontario;               42.9849;  -81.2453;  CA",
      "New York, NY;                  40.7128;  -74.0060;  US",
      "Zürich;                        47.3769;    8.5417;  CH",
      "Sydney NSW;                   -33.8688;  151.2093;  AU",
      "Los Angeles, CA, USA;          34.0522; -118.2437;  US",
  })
  void findsTheCityCentreAndCountry(String query, double lat, double lon, String country) {
    ForwardMatch m = best(query);
    assertThat(m.place().countryCode()).isEqualTo(country);
    assertThat(m.place().lat()).isCloseTo(lat, within(0.1));
    assertThat(m.place().lon()).isCloseTo(lon, within(0.1));
  }

  @Test
  void labelsCityRegionAndCountry() {
    assertThat(best("springfield, il").place().label()).isEqualTo("Springfield, Illinois, United States");
    assertThat(best("Tokyo").place().label()).isEqualTo("Tokyo, Japan");
    assertThat(best("Cape Town").place().label()).isEqualTo("Cape Town, Western Cape, South Africa");
  }

  @Test
  void anUnqualifiedNameGivesTheMostPopulousPlaceFirstAndTheOthersAfter() {
    List<ForwardMatch> paris = forward("Paris");
    assertThat(paris.get(0).place().countryCode()).isEqualTo("FR");
    assertThat(paris).hasSizeGreaterThan(1);
    assertThat(paris).extracting(ForwardMatch::confidence).isSortedAccordingTo((a, b) -> Double.compare(b, a));
    assertThat(best("London").place().countryCode()).isEqualTo("GB");
  }

  @Test
  @DisplayName("confidence falls with ambiguity: bare Springfield is far less sure than Springfield, Illinois")
  void ambiguityLowersConfidence() {
    double bare = best("Springfield").confidence();
    double qualified = best("Springfield, Illinois").confidence();
    assertThat(bare).isLessThan(0.4);
    assertThat(qualified).isGreaterThan(0.8);
    // Paris, France dwarfs the other Parises: little ambiguity left.
    assertThat(best("Paris").confidence()).isBetween(0.8, 0.9);
  }

  @Test
  void qualifiersChooseBetweenSameNamedCities() {
    assertThat(best("Paris, Texas").place().region()).isEqualTo("Texas");
    assertThat(best("Paris, Kentucky").place().region()).isEqualTo("Kentucky");
    assertThat(best("Portland, Maine").place().region()).isEqualTo("Maine");
    assertThat(best("Portland, OR").place().region()).isEqualTo("Oregon");
    assertThat(best("Springfield, Massachusetts").place().region()).isEqualTo("Massachusetts");
    assertThat(best("Springfield, MO, United States").place().region()).isEqualTo("Missouri");
    assertThat(best("London, UK").place().countryCode()).isEqualTo("GB");
    assertThat(best("London ON").place().countryCode()).isEqualTo("CA");
  }

  @Test
  @DisplayName("a street address whose city is known answers with the city centre at low confidence")
  void streetAddressGivesCityCentreAtLowConfidence() {
    ForwardMatch downing = best("10 Downing Street, London, UK");
    assertThat(downing.place().name()).isEqualTo("London");
    assertThat(downing.place().countryCode()).isEqualTo("GB");
    assertThat(downing.kind()).isEqualTo(MatchKind.FINER_THAN_LOCALITY);
    assertThat(downing.confidence()).isLessThanOrEqualTo(0.35);

    for (String whiteHouse : List.of(
        "1600 Pennsylvania Ave NW, Washington, DC 20500",
        "1600 Pennsylvania Avenue NW Washington DC 20500")) {
      ForwardMatch m = best(whiteHouse);
      assertThat(m.place().lat()).isCloseTo(38.9072, within(0.1));
      assertThat(m.place().lon()).isCloseTo(-77.0369, within(0.1));
      assertThat(m.place().region()).isEqualTo("District of Columbia");
      assertThat(m.kind()).isEqualTo(MatchKind.FINER_THAN_LOCALITY);
      assertThat(m.confidence()).isLessThanOrEqualTo(0.35);
    }
  }

  @Test
  void postcodesAreIgnoredWhereverTheyStand() {
    assertThat(best("75007 Paris").place().countryCode()).isEqualTo("FR");
    assertThat(best("75007 Paris").kind()).isEqualTo(MatchKind.LOCALITY);
    assertThat(best("Springfield, IL 62701").place().region()).isEqualTo("Illinois");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "qwxzv plorkington", "the", "of", "new", "street", "Main Street", "10 Downing Street",
      "Statue of Liberty", "123", "!!!", "   ", "Springfield, UK"})
  @DisplayName("text naming no known city gets no match, never a random city")
  void garbageAndCommonWordsGetNoMatch(String query) {
    assertThat(forward(query)).isEmpty();
  }

  @Test
  @DisplayName("a bare name that is also a country or state reads as a city only when that city belongs there")
  void bareCountryAndStateNames() {
    assertThat(best("Singapore").place().countryCode()).isEqualTo("SG");
    ForwardMatch newYork = best("New York");
    assertThat(newYork.place().lat()).isCloseTo(40.7128, within(0.1));
    assertThat(newYork.confidence()).isGreaterThan(0.8);
    // "California" most likely means the state, which is answered as such; its namesake towns
    // elsewhere are alternatives.
    ForwardMatch california = best("California");
    assertThat(california.precision()).isEqualTo("region");
    assertThat(california.place().name()).isEqualTo("California");
    assertThat(california.alternatives()).isNotEmpty();
    // "Washington" may mean the state: the capital comes first, less sure than "Washington, DC".
    ForwardMatch washington = best("Washington");
    assertThat(washington.place().region()).isEqualTo("District of Columbia");
    assertThat(washington.confidence()).isLessThan(best("Washington, DC").confidence());
  }

  @ParameterizedTest(name = "{0} -> {1} {2}")
  @CsvSource(delimiter = ';', value = {
      "US;            country; US; Washington",
      "USA;           country; US; Washington",
      "Bahrain;       country; BH; Manama",
      "Isle of Man;   country; IM; Douglas",
      "Texas;         region;  US; Austin",
      "Texas, USA;    region;  US; Austin",
      "Ontario, Canada; region; CA; Toronto",
  })
  @DisplayName("a country or a first-level division named as such is answered at its capital or seat")
  void countriesAndRegionsAreAnsweredAsAreas(String query, String precision, String country, String point) {
    ForwardMatch m = best(query);
    assertThat(m.precision()).isEqualTo(precision);
    assertThat(m.place().countryCode()).isEqualTo(country);
    assertThat(m.place().pointName()).isEqualTo(point);
    assertThat(m.place().pointNote()).contains(point).contains("stands for");
  }

  @Test
  void aCommonWordCityIsFoundWhenQualified() {
    assertThat(best("Street, UK").place().countryCode()).isEqualTo("GB");
    assertThat(best("Of, Turkey").place().countryCode()).isEqualTo("TR");
  }

  @Test
  void aVeryLongTextIsReadFromItsEnd() {
    String noise = "lorem ipsum, ".repeat(2_000);
    assertThat(best(noise + "10 Downing Street, London, UK").place().name()).isEqualTo("London");
    assertThat(forward(noise)).isEmpty();
  }

  @Test
  void namesAreMatchedWholeNeverAsSubstrings() {
    assertThat(forward("ondon")).isEmpty();
    assertThat(forward("ortland")).isEmpty();
    assertThat(forward("Springfiel")).isEmpty();
    assertThat(forward("Parisville Texas")).isEmpty();
  }

  @Test
  void alternateNamesMatch() {
    assertThat(best("Londres").place().name()).isEqualTo("London");
    assertThat(best("Den Haag").place().countryCode()).isEqualTo("NL");
    assertThat(best("Saint Louis, MO").place().region()).isEqualTo("Missouri");
  }

  @Test
  void aBboxPrefersCitiesInsideIt() {
    Bbox texas = Bbox.of(-107, 25.8, -93.5, 36.5);
    ForwardMatch m = g.forward(new ForwardQuery("Paris", Map.of(), texas, null)).get(0);
    assertThat(m.place().region()).isEqualTo("Texas");
    // Paris, Arkansas lies inside the box too: a little ambiguity remains.
    assertThat(m.confidence()).isGreaterThan(0.7);
  }

  @Test
  void structuredComponentsAreUsedWhenALocalityIsGiven() {
    ForwardQuery q = new ForwardQuery(
        "springfield illinois us", Map.of("locality", "Springfield", "region", "IL", "country", "US"), null, null);
    ForwardMatch m = g.forward(q).get(0);
    assertThat(m.place().region()).isEqualTo("Illinois");
    assertThat(m.kind()).isEqualTo(MatchKind.LOCALITY);

    ForwardQuery address = new ForwardQuery(
        "10 downing street london",
        Map.of("house_number", "10", "street", "Downing Street", "locality", "London", "country", "GB"),
        null, null);
    ForwardMatch a = g.forward(address).get(0);
    assertThat(a.place().name()).isEqualTo("London");
    assertThat(a.kind()).isEqualTo(MatchKind.FINER_THAN_LOCALITY);
    assertThat(a.confidence()).isLessThanOrEqualTo(0.35);
  }

  @Test
  void aStructuredQueryWhoseQualifiersContradictEachOtherGetsNoMatch() {
    ForwardQuery q = new ForwardQuery(
        "paris texas fr", Map.of("locality", "Paris", "region", "Texas", "country", "FR"), null, null);
    assertThat(g.forward(q)).isEmpty();
  }

  @Test
  void anUnknownStructuredQualifierLowersConfidenceInsteadOfFiltering() {
    ForwardQuery q = new ForwardQuery(
        "tokyo", Map.of("locality", "Tokyo", "country", "Atlantis"), null, null);
    ForwardMatch m = g.forward(q).get(0);
    assertThat(m.place().countryCode()).isEqualTo("JP");
    assertThat(m.confidence()).isLessThan(best("Tokyo").confidence());
  }
}
