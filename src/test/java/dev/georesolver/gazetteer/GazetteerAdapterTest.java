package dev.georesolver.gazetteer;

import dev.georesolver.tier.GazetteerAdapter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.RawHit;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.Future;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

/** The rung adapter: completed futures, RawHit fields, no-match and rejection. No Vertx instance needed. */
class GazetteerAdapterTest {

  private final GazetteerAdapter adapter = new GazetteerAdapter(TestGazetteer.get());

  private static ProviderAnswer answer(Future<ProviderAnswer> f) {
    assertThat(f.isComplete()).as("answered synchronously").isTrue();
    return f.result();
  }

  @Test
  void isRegisteredAsALocalRungAnsweringReverse() {
    assertThat(AdapterRegistry.get(AdapterRegistry.GAZETTEER).local()).isTrue();
    assertThat(AdapterRegistry.get(AdapterRegistry.GAZETTEER).capabilities().supports(Direction.REVERSE)).isTrue();
  }

  @Test
  void forwardHitsAreLongitudeLatitudeInWgs84AtLocalityPrecision() {
    ProviderAnswer a = answer(adapter.forward(ForwardQuery.of("Springfield, Illinois")));
    assertThat(a).isInstanceOf(ProviderAnswer.Found.class);
    RawHit hit = ((ProviderAnswer.Found) a).best();
    assertThat(hit.x()).isCloseTo(-89.6501, within(0.1));
    assertThat(hit.y()).isCloseTo(39.7817, within(0.1));
    assertThat(hit.crs()).isEqualTo("EPSG:4326");
    assertThat(hit.precision()).isEqualTo("locality");
    assertThat(hit.label()).isEqualTo("Springfield, Illinois, United States");
    assertThat(hit.confidence()).isBetween(0.0, 1.0);
    assertThat(hit.distanceM()).isNull();
    assertThat(hit.observedAtMs()).isNull();
  }

  @Test
  void aCountryNamedAloneIsAHitAtCountryPrecisionAtItsCapital() {
    RawHit hit = ((ProviderAnswer.Found) answer(adapter.forward(ForwardQuery.of("Bahrain")))).best();
    assertThat(hit.precision()).isEqualTo("country");
    assertThat(hit.label()).isEqualTo("Bahrain");
    assertThat(hit.y()).isCloseTo(26.2279, within(0.05));
    assertThat(GazetteerNotices.opener(hit.precision())).contains("whole country");
  }

  @Test
  void ambiguousForwardQueriesReturnSeveralHitsBestFirst() {
    ProviderAnswer.Found f = (ProviderAnswer.Found) answer(adapter.forward(ForwardQuery.of("Springfield")));
    assertThat(f.hits()).hasSizeBetween(2, ForwardResolver.MAX_RESULTS);
    assertThat(f.hits()).extracting(RawHit::confidence).isSortedAccordingTo((a, b) -> Double.compare(b, a));
  }

  @Test
  void unknownPlaceIsAHealthyNoMatch() {
    ProviderAnswer a = answer(adapter.forward(ForwardQuery.of("qwxzv plorkington")));
    assertThat(a).isInstanceOf(ProviderAnswer.Failed.class);
    assertThat(((ProviderAnswer.Failed) a).failureClass()).isEqualTo(FailureClass.NO_MATCH);
  }

  @Test
  void reverseHitCarriesTheDistanceInMetres() {
    ProviderAnswer a = answer(adapter.reverse(new ReverseQuery(48.8584, 2.2945, null)));
    RawHit hit = ((ProviderAnswer.Found) a).best();
    assertThat(hit.label()).isEqualTo("Paris, Île-de-France, France");
    assertThat(hit.x()).isCloseTo(2.3522, within(0.1));
    assertThat(hit.y()).isCloseTo(48.8566, within(0.1));
    assertThat(hit.distanceM()).isBetween(2_000.0, 6_000.0);
    assertThat(hit.precision()).isEqualTo("locality");
  }

  @Test
  void reverseInMidOceanIsANoMatch() {
    ProviderAnswer a = answer(adapter.reverse(new ReverseQuery(30.0, -40.0, null)));
    assertThat(((ProviderAnswer.Failed) a).failureClass()).isEqualTo(FailureClass.NO_MATCH);
  }

  @Test
  void aLargerConfiguredRadiusAnswersFartherOut() {
    GazetteerAdapter wide = new GazetteerAdapter(TestGazetteer.get(), 3_000_000);
    ProviderAnswer a = answer(wide.reverse(new ReverseQuery(30.0, -40.0, null)));
    RawHit hit = ((ProviderAnswer.Found) a).best();
    assertThat(hit.distanceM()).isGreaterThan(Gazetteer.DEFAULT_MAX_REVERSE_DISTANCE_M);
    assertThat(hit.confidence()).isEqualTo(Gazetteer.MIN_CONFIDENCE);
  }

  @Test
  void reverseOutOfRangeIsRejected() {
    ProviderAnswer a = answer(adapter.reverse(new ReverseQuery(95, 0, null)));
    assertThat(((ProviderAnswer.Failed) a).failureClass()).isEqualTo(FailureClass.REJECTED);
  }

  @Test
  @DisplayName("a city hit carries its locality, region, country and country code, and no place type")
  void cityHitsCarryTheirAddressComponents() {
    RawHit hit = ((ProviderAnswer.Found) answer(adapter.forward(ForwardQuery.of("Springfield, Illinois")))).best();
    assertThat(hit.address().toMap()).isEqualTo(Map.of("locality", "Springfield", "region", "Illinois",
        "country", "United States", "country_code", "US"));
  }

  @Test
  @DisplayName("a country hit carries only the country and its code; Sarajevo answers in BA")
  void countryAndCapitalHitsCarryTheCountryCode() {
    RawHit bahrain = ((ProviderAnswer.Found) answer(adapter.forward(ForwardQuery.of("Bahrain")))).best();
    assertThat(bahrain.address().toMap()).isEqualTo(Map.of("country", "Bahrain", "country_code", "BH"));
    RawHit sarajevo = ((ProviderAnswer.Found) answer(adapter.forward(ForwardQuery.of("Sarajevo")))).best();
    assertThat(sarajevo.address().get(Address.Component.COUNTRY_CODE)).isEqualTo("BA");
    assertThat(sarajevo.address().get(Address.Component.LOCALITY)).isEqualTo("Sarajevo");
  }

  @Test
  @DisplayName("every forward hit's address agrees with the place it stands for")
  void everyHitsAddressMatchesItsPlace() {
    ProviderAnswer.Found f = (ProviderAnswer.Found) answer(adapter.forward(ForwardQuery.of("Springfield")));
    for (RawHit hit : f.hits()) {
      assertThat(hit.address().get(Address.Component.COUNTRY_CODE)).matches("[A-Z]{2}");
      assertThat(hit.label()).startsWith(hit.address().get(Address.Component.LOCALITY));
    }
  }

  @Test
  @DisplayName("a reverse hit carries the components of the city it found")
  void reverseHitsCarryTheirAddressComponents() {
    RawHit hit = ((ProviderAnswer.Found) answer(adapter.reverse(new ReverseQuery(48.8584, 2.2945, null)))).best();
    assertThat(hit.address().toMap()).isEqualTo(Map.of("locality", "Paris", "region", "Île-de-France",
        "country", "France", "country_code", "FR"));
  }
}
