package dev.georesolver.issues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.georesolver.gazetteer.AskedArea;
import dev.georesolver.gazetteer.ForwardMatch;
import dev.georesolver.gazetteer.ForwardResolution;
import dev.georesolver.gazetteer.Gazetteer;
import dev.georesolver.geo.ForwardQuery;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Proves issue 24's gazetteer cases: countries are places, a named country constrains, size ranks namesakes. */
class Issue24GazetteerCountriesTest {

  private static final Gazetteer G = Gazetteer.loadDefault();

  private static ForwardResolution resolve(String q) {
    return G.resolve(ForwardQuery.of(q));
  }

  @ParameterizedTest
  @ValueSource(strings = {"Bahrain", "Jamaica", "Fiji", "Guam", "Jersey", "Aruba", "Barbados", "Isle of Man",
      "Wallis and Futuna", "Saint Helena", "US Virgin Islands", "Antigua and Barbuda", "Saint Lucia"})
  @DisplayName("a country or territory named alone resolves to the country, at precision country")
  void countriesAreResolvable(String name) {
    List<ForwardMatch> m = resolve(name).matches();
    assertThat(m).isNotEmpty();
    assertThat(m.get(0).precision()).isEqualTo("country");
    assertThat(m.get(0).place().pointNote()).contains("stands for");
  }

  @ParameterizedTest(name = "{0} stays in {1}")
  @CsvSource(delimiter = ';', value = {
      "Antigua, Antigua & Barbuda;      AG",
      "Wallis, Wallis & Futuna;         WF",
      "St Thomas, Virgin Islands (US);  VI",
      "St Helena, St Helena;            SH",
      "St Lucia, St Lucia;              LC",
  })
  @DisplayName("a query naming a country answers in that country or not at all")
  void aNamedCountryIsAConstraint(String query, String country) {
    ForwardResolution r = resolve(query);
    assertThat(r.asked().countryCodes()).contains(country);
    assertThat(r.matches()).allSatisfy(m -> assertThat(m.place().countryCode()).isEqualTo(country));
  }

  @Test
  @DisplayName("the named countries are exposed for the other rungs, with every reading of ambiguous words")
  void askedAreaIsExposed() {
    assertThat(G.countryNames().find("Wallis, Wallis & Futuna").countryCodes()).containsExactly("WF");
    assertThat(G.countryNames().find("Springfield, IL").countryCodes()).contains("IL", "US");
    assertThat(G.countryNames().find("West Jordan")).isEqualTo(AskedArea.NONE);
    assertThat(G.countryNames().find("Boise, Idaho").regionCodes()).containsExactly("US.ID");
    assertThat(G.countryNames().countryCodes("Virgin Islands, U.S.")).containsExactly("VI");
  }

  @Test
  @DisplayName("among namesakes the larger place and the seat rank first, and doubt lowers confidence")
  void rankingBySizeAndSeat() {
    ForwardMatch hovd = resolve("Hovd, Mongolia").matches().get(0);
    assertThat(hovd.place().lat()).isCloseTo(48.0056, within(0.1));   // Khovd, the province seat
    assertThat(hovd.confidence()).isLessThan(0.7);
    assertThat(hovd.alternatives()).isNotEmpty();
    assertThat(hovd.alternatives().get(0).distanceM()).isGreaterThan(800_000);

    ForwardMatch matamoros = resolve("Matamoros, Mexico").matches().get(0);
    assertThat(matamoros.place().region()).isEqualTo("Tamaulipas");
    assertThat(matamoros.confidence()).isLessThan(0.9);
    assertThat(matamoros.alternatives()).extracting(a -> a.place().region()).contains("Coahuila");
  }
}
