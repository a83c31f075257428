package dev.georesolver.issues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.georesolver.gazetteer.AskedArea;
import dev.georesolver.gazetteer.Gazetteer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A street's last word that happens to be an ISO code ("10 Downing St" and São Tomé's ST) names no country, so the chain refuses no rung's answer for it; a code as a segment of its own still does. */
class Issue24StreetWordIsNoCountryTest {

  private static final Gazetteer G = Gazetteer.loadDefault();

  @Test
  @DisplayName("a code as the last word of a street or place names no country; as its own segment it does")
  void codesCountOnlyAsTheirOwnSegment() {
    assertThat(G.countryNames().find("10 Downing St")).isEqualTo(AskedArea.NONE);
    assertThat(G.countryNames().find("Via Roma 1 Torino IT").countryCodes()).doesNotContain("IT");
    assertThat(G.countryNames().find("10 Downing St, London").countryCodes()).isEmpty();
    assertThat(G.countryNames().find("Paris, FR").countryCodes()).containsExactly("FR");
    assertThat(G.countryNames().find("Lyon, France").countryCodes()).containsExactly("FR");
  }
}
