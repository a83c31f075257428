package dev.georesolver.gazetteer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The bundled data: provenance, size, and agreement between build.mjs's fold and {@link TextFold}. */
class GazetteerDataTest {

  private final Gazetteer g = TestGazetteer.get();

  @Test
  void recordsItsSourcesAndCutOff() {
    assertThat(g.info()).containsKeys("source.cities", "source.admin1", "source.countries", "geonames.snapshot");
    assertThat(g.info().get("data.licence")).contains("CC-BY-4.0").contains("GeoNames");
    assertThat(g.info().get("min.population")).isEqualTo("1000");
    assertThat(Integer.parseInt(g.info().get("cities"))).isEqualTo(g.size());
    assertThat(Integer.parseInt(g.info().get("keys"))).isEqualTo(g.names().keyCount());
    assertThat(g.size()).isGreaterThan(100_000);
  }

  @Test
  void citiesAreOrderedMostPopulousFirst() {
    for (int c = 1; c < g.size(); c++) {
      assertThat(g.populationOf(c)).isLessThanOrEqualTo(g.populationOf(c - 1));
    }
  }

  @Test
  @DisplayName("every city's own name, folded in Java, finds that city: the build script folds the same way")
  void javaFoldAgreesWithTheIndexOnEveryCityName() {
    NameIndex names = g.names();
    List<String> misses = new ArrayList<>();
    for (int c = 0; c < g.size(); c++) {
      String name = g.place(c).name();
      int key = names.find(TextFold.fold(name));
      boolean found = false;
      for (int i = key < 0 ? 0 : names.start(key); key >= 0 && i < names.end(key); i++) {
        if (NameIndex.city(names.posting(i)) == c && !NameIndex.alternate(names.posting(i))) {
          found = true;
          break;
        }
      }
      if (!found && misses.size() < 20) {
        misses.add(name);
      }
    }
    assertThat(misses).isEmpty();
  }

  @Test
  void everyCityHasACountryNameAndMostARegion() {
    int withRegion = 0;
    for (int c = 0; c < g.size(); c++) {
      Place p = g.place(c);
      assertThat(p.countryName()).isNotBlank();
      if (p.region() != null) {
        withRegion++;
      }
    }
    assertThat(withRegion).isGreaterThan(g.size() * 95 / 100);
  }
}
