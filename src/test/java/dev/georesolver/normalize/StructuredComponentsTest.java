package dev.georesolver.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link AddressNormalizer#normalize(Map)}: ordering, blanks, and agreement with free text. */
@DisplayName("AddressNormalizer structured components")
class StructuredComponentsTest {

  private static final AddressNormalizer NORMALIZER = AddressNormalizer.standard();

  @Test
  @DisplayName("components join as house number, street, unit, locality, region, postcode, country")
  void componentOrder() {
    Map<String, String> reversed = new LinkedHashMap<>();
    reversed.put("country", "USA");
    reversed.put("postcode", "63101");
    reversed.put("region", "MO");
    reversed.put("locality", "St. Louis");
    reversed.put("unit", "Apt 4");
    reversed.put("street", "Market St");
    reversed.put("house_number", "100");
    assertThat(NORMALIZER.normalize(reversed))
        .isEqualTo("100 market street apartment 4 saint louis mo 63101 usa");
    assertThat(AddressNormalizer.COMPONENT_ORDER).containsExactly(
        "house_number", "street", "unit", "locality", "region", "postcode", "country");
  }

  @Test
  @DisplayName("each component is normalized on its own")
  void eachComponentNormalized() {
    assertThat(NORMALIZER.normalize(Map.of("street", "St Paul St", "locality", "Ste. Genevieve")))
        .isEqualTo("saint paul street sainte genevieve");
    assertThat(NORMALIZER.normalize(Map.of("street", "Main", "locality", "St Louis")))
        .isEqualTo("main saint louis");
  }

  @Test
  @DisplayName("blank and null components are dropped, unknown keys ignored")
  void blanksDropped() {
    Map<String, String> components = new HashMap<>();
    components.put("house_number", "100");
    components.put("street", "Main St");
    components.put("unit", "   ");
    components.put("locality", null);
    components.put("region", "");
    components.put("attention", "Jane Doe");
    assertThat(NORMALIZER.normalize(components)).isEqualTo("100 main street");
    assertThat(NORMALIZER.normalize(Map.of())).isEmpty();
  }

  @Test
  @DisplayName("a null map is rejected")
  void nullRejected() {
    assertThatNullPointerException()
        .isThrownBy(() -> NORMALIZER.normalize((Map<String, String>) null));
  }

  @Test
  @DisplayName("a unit without a designator reads as \"unit\", the same as #")
  void bareUnit() {
    Map<String, String> bare = Map.of("house_number", "100", "street", "Main St", "unit", "4B");
    assertThat(NORMALIZER.normalize(bare)).isEqualTo("100 main street unit 4b")
        .isEqualTo(NORMALIZER.normalize("100 Main St #4B"));
    assertThat(NORMALIZER.normalize(Map.of("unit", "Apt 4B"))).isEqualTo("apartment 4b");
    assertThat(NORMALIZER.normalize(Map.of("unit", "2nd Floor"))).isEqualTo("2nd floor");
    assertThat(NORMALIZER.normalize(Map.of("unit", "N"))).isEqualTo("unit n");
  }

  static Stream<Map<String, String>> examples() {
    return Stream.of(
        Map.of("house_number", "100", "street", "Main St", "locality", "St Louis",
            "region", "MO", "postcode", "63101"),
        Map.of("house_number", "100", "street", "St Paul St", "unit", "Ste 200",
            "locality", "Saint Paul", "region", "MN"),
        Map.of("house_number", "1500", "street", "Pennsylvania Ave NW", "locality", "Washington",
            "region", "DC", "postcode", "20220", "country", "US"),
        Map.of("house_number", "12-14", "street", "E St", "unit", "#3",
            "locality", "Washington"),
        Map.of("street", "Hauptstr.", "house_number", "5", "locality", "Berlin",
            "country", "Deutschland"),
        Map.of("house_number", "92", "street", "Kalverstr.", "locality", "Amsterdam",
            "country", "NL"),
        Map.of("house_number", "5", "street", "Av. Corrientes", "locality", "Buenos Aires"),
        Map.of("house_number", "1", "street", "1 st Ave", "region", "NE", "postcode", "68102"),
        Map.of("locality", "Ste. Genevieve", "region", "MO"),
        Map.of("house_number", "3", "street", "Avenue N", "locality", "Brooklyn"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  @DisplayName("structured input equals the free text of its components joined with commas")
  void structuredEqualsCommaJoinedFreeText(Map<String, String> components) {
    List<String> parts = new ArrayList<>();
    for (String name : AddressNormalizer.COMPONENT_ORDER) {
      String value = components.get(name);
      if (value != null && !value.isBlank()) {
        parts.add(value);
      }
    }
    String structured = NORMALIZER.normalize(components);
    assertThat(NORMALIZER.normalize(String.join(", ", parts))).isEqualTo(structured);
    assertThat(IdempotencyKey.of(NORMALIZER.normalize(String.join(", ", parts)), null))
        .isEqualTo(IdempotencyKey.of(structured, null));
  }

  @Test
  @DisplayName("joined with blanks instead, the result agrees where no rule reads across parts")
  void blankJoinedFreeText() {
    Map<String, String> components = Map.of("house_number", "100", "street", "Main St",
        "locality", "Springfield", "region", "IL", "postcode", "62701");
    assertThat(NORMALIZER.normalize("100 Main St Springfield IL 62701"))
        .isEqualTo(NORMALIZER.normalize(components));
  }
}
