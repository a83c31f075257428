package dev.georesolver.issues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.georesolver.gazetteer.Gazetteer;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.ProviderResponse;
import dev.georesolver.provider.RawHit;
import dev.georesolver.provider.SchemaMode;
import dev.georesolver.tier.GazetteerAdapter;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Proves issue 24's adapter part: the providers' address fields reach the hit instead of being dropped. */
class Issue24AdapterAddressTest {

  private static RawHit best(String adapter, String fixture) throws IOException {
    try (InputStream in = Issue24AdapterAddressTest.class.getResourceAsStream("/fixtures/providers/" + fixture)) {
      ProviderResponse r = new ProviderResponse(200, Map.of(), Buffer.buffer(in.readAllBytes()));
      ProviderAnswer a = AdapterRegistry.http(adapter).orElseThrow().parse(Direction.FORWARD, r, SchemaMode.STRICT);
      return ((ProviderAnswer.Found) a).best();
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "google, google/geocode-10-downing-st-london-en.json, SW1A 2AB",
      "nominatim, nominatim/search-jsonv2-10-downing-st-london-en.json, SW1A 2AA",
      "pelias, pelias/geocodeearth-search-10-downing-st-london.json, SW1A 2AA",
      "opencage, opencage/geocode-10-downing-st-london-en.json, SW1A 2AA",
      "mapbox_v5, mapbox/v5-forward-10-downing-st-london.json, SW1A 2AT",
      "arcgis, arcgis/findAddressCandidates-10-downing-st-london.json, SW1A 2"})
  @DisplayName("10 Downing St answers with its house number, road, postcode and country code from every provider")
  void downingStreetCarriesItsComponents(String adapter, String fixture, String postcode) throws IOException {
    RawHit hit = best(adapter, fixture);
    assertThat(hit.address().get(Component.HOUSE_NUMBER)).isEqualTo("10");
    assertThat(hit.address().get(Component.ROAD)).isEqualTo("Downing Street");
    assertThat(hit.address().get(Component.POSTCODE)).isEqualTo(postcode);
    assertThat(hit.address().get(Component.COUNTRY_CODE)).isEqualTo("GB");
  }

  @Test
  @DisplayName("the gazetteer's Sarajevo carries country code BA")
  void sarajevoCarriesItsCountryCode() {
    RawHit hit = ((ProviderAnswer.Found) new GazetteerAdapter(Gazetteer.loadDefault())
        .forward(ForwardQuery.of("Sarajevo")).result()).best();
    assertThat(hit.address().get(Component.COUNTRY_CODE)).isEqualTo("BA");
  }
}
