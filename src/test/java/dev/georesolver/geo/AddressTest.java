package dev.georesolver.geo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.georesolver.geo.Address.Component;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The structured address value: one list of components, normalised values, a fixed order. */
class AddressTest {

  /** A value every component accepts (the country code needs a code). */
  private static String sample(Component c) {
    return c == Component.COUNTRY_CODE ? "GB" : "v-" + c.key();
  }

  private static Address full() {
    Address.Builder b = Address.builder();
    for (Component c : Address.components()) {
      b.put(c, sample(c));
    }
    return b.build();
  }

  @Test
  @DisplayName("the components, their wire names and their writing order are the issue's list, stated once")
  void shouldListTheComponentsInWritingOrder() {
    assertThat(Address.keys()).containsExactly("house_number", "road", "neighbourhood", "locality", "county", "region",
        "postcode", "country", "country_code", "place_type");
    assertThat(Address.components()).containsExactly(Component.values());
  }

  @Test
  @DisplayName("every component has its own snake_case wire name, found again by byKey")
  void everyComponentShouldHaveAUniqueWireName() {
    Set<String> seen = new HashSet<>();
    for (Component c : Address.components()) {
      assertThat(c.key()).matches("[a-z]+(_[a-z]+)*");
      assertThat(seen.add(c.key())).as("%s is unique", c.key()).isTrue();
      assertThat(Component.byKey(c.key())).isSameAs(c);
    }
    assertThat(Component.byKey("city")).isNull();
  }

  @Test
  @DisplayName("every component survives toMap/fromMap, so a component added to the list is carried everywhere")
  void everyComponentShouldRoundTripThroughItsMap() {
    Address a = full();
    assertThat(a.size()).isEqualTo(Address.components().size());
    assertThat(a.toMap().keySet()).containsExactlyElementsOf(Address.keys());
    assertThat(Address.fromMap(a.toMap())).isEqualTo(a).hasSameHashCodeAs(a);
    for (Component c : Address.components()) {
      assertThat(a.get(c)).isEqualTo(sample(c));
      assertThat(a.has(c)).isTrue();
    }
  }

  @Test
  @DisplayName("forEach and toMap give the known components in writing order, whatever order they were set in")
  void shouldIterateKnownComponentsInWritingOrder() {
    Address a = Address.builder()
        .put(Component.COUNTRY_CODE, "fr").put(Component.ROAD, "Avenue Gambetta").put(Component.HOUSE_NUMBER, "10")
        .build();
    List<Component> order = new java.util.ArrayList<>();
    a.forEach((c, v) -> order.add(c));
    assertThat(order).containsExactly(Component.HOUSE_NUMBER, Component.ROAD, Component.COUNTRY_CODE);
    assertThat(a.toMap()).containsExactly(Map.entry("house_number", "10"), Map.entry("road", "Avenue Gambetta"),
        Map.entry("country_code", "FR"));
    assertThat(a).hasToString("Address{house_number=10, road=Avenue Gambetta, country_code=FR}");
  }

  @Test
  @DisplayName("values are stripped; null and blank values are absent; no component at all is EMPTY")
  void shouldDropBlankValues() {
    Address a = Address.builder().put(Component.ROAD, "  Downing Street \n").put(Component.LOCALITY, "   ")
        .put(Component.REGION, null).build();
    assertThat(a.get(Component.ROAD)).isEqualTo("Downing Street");
    assertThat(a.has(Component.LOCALITY)).isFalse();
    assertThat(a.size()).isEqualTo(1);
    assertThat(Address.builder().put(Component.ROAD, " ").build()).isSameAs(Address.EMPTY);
    assertThat(Address.EMPTY.isEmpty()).isTrue();
    assertThat(Address.EMPTY.toMap()).isEmpty();
    assertThat(a.isEmpty()).isFalse();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(nullValues = "null", value = {
      "GB, GB", "gb, GB", "' us ', US", "GBR, GB", "fra, FR", "DEU, DE", "uk, GB", "XKX, XK",
      "Deutschland, null", "G1, null", "ZZZ, null", "'', null", "GB-ENG, null"})
  @DisplayName("the country code is ISO 3166-1 alpha-2, upper case; alpha-3 is mapped, anything else dropped")
  void shouldNormaliseTheCountryCode(String in, String expected) {
    assertThat(Address.builder().put(Component.COUNTRY_CODE, in).build().get(Component.COUNTRY_CODE)).isEqualTo(expected);
  }

  @Test
  @DisplayName("fill keeps the first known value; an invalid one does not block a later valid one")
  void fillShouldKeepTheFirstKnownValue() {
    Address a = Address.builder()
        .fill(Component.LOCALITY, null).fill(Component.LOCALITY, "Paris").fill(Component.LOCALITY, "Lyon")
        .fill(Component.COUNTRY_CODE, "France").fill(Component.COUNTRY_CODE, "FRA")
        .build();
    assertThat(a.get(Component.LOCALITY)).isEqualTo("Paris");
    assertThat(a.get(Component.COUNTRY_CODE)).isEqualTo("FR");
  }

  @Test
  @DisplayName("fromMap ignores unknown names and values that are not strings, and normalises the rest")
  void fromMapShouldIgnoreWhatIsNotAComponent() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("city", "Paris");
    m.put("locality", "Paris");
    m.put("postcode", 75020);
    m.put("road", List.of("x"));
    m.put("country_code", "fr");
    Address a = Address.fromMap(m);
    assertThat(a.toMap()).isEqualTo(Map.of("locality", "Paris", "country_code", "FR"));
    assertThat(Address.fromMap(Map.of())).isSameAs(Address.EMPTY);
    assertThat(Address.fromMap(null)).isSameAs(Address.EMPTY);
  }

  @Test
  @DisplayName("map is the same instance when nothing changes, and normalises what it changes")
  void mapShouldShareUnchangedAddresses() {
    Address a = full();
    assertThat(a.map(UnaryOperator.identity())).isSameAs(a);
    Address blanked = a.map(v -> v.equals("v-road") ? "  " : v.equals("GB") ? "gbr" : v);
    assertThat(blanked.has(Component.ROAD)).isFalse();
    assertThat(blanked.get(Component.COUNTRY_CODE)).isEqualTo("GB");
    assertThat(blanked.get(Component.LOCALITY)).isEqualTo("v-locality");
    assertThat(Address.EMPTY.map(v -> "x")).isSameAs(Address.EMPTY);
  }

  @Test
  @DisplayName("with sets or removes one component and leaves the original untouched")
  void withShouldReturnANewAddress() {
    Address a = Address.builder().put(Component.LOCALITY, "Paris").build();
    Address b = a.with(Component.POSTCODE, "75020");
    assertThat(b.toMap()).isEqualTo(Map.of("locality", "Paris", "postcode", "75020"));
    assertThat(a.toMap()).isEqualTo(Map.of("locality", "Paris"));
    assertThat(a.with(Component.LOCALITY, null)).isSameAs(Address.EMPTY);
    assertThat(a.toBuilder().put(Component.REGION, "Île-de-France").build()).isNotEqualTo(a);
  }
}
