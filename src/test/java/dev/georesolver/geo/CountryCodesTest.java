package dev.georesolver.geo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Country codes as providers send them, read into ISO 3166-1 alpha-2 through the JDK's data. */
class CountryCodesTest {

  @Test
  @DisplayName("every alpha-3 code the JDK knows maps to its alpha-2 code, in either case")
  void everyJdkAlpha3ShouldMapToItsAlpha2() {
    int n = 0;
    for (String a3 : Locale.getISOCountries(Locale.IsoCountryCode.PART1_ALPHA3)) {
      String a2 = CountryCodes.alpha2(a3);
      assertThat(a2).as(a3).matches("[A-Z]{2}");
      assertThat(new Locale("", a2).getISO3Country()).isEqualTo(a3);
      assertThat(CountryCodes.alpha2(a3.toLowerCase(Locale.ROOT))).isEqualTo(a2);
      n++;
    }
    assertThat(n).isGreaterThan(240);
  }

  @Test
  @DisplayName("alpha-2 codes are upper-cased, UK is GB, and what is no code is null")
  void shouldNormaliseAlpha2AndRejectTheRest() {
    assertThat(CountryCodes.alpha2("ba")).isEqualTo("BA");
    assertThat(CountryCodes.alpha2("UK")).isEqualTo("GB");
    assertThat(CountryCodes.alpha2("XKX")).isEqualTo("XK");
    assertThat(CountryCodes.alpha2(null)).isNull();
    assertThat(CountryCodes.alpha2("United Kingdom")).isNull();
    assertThat(CountryCodes.alpha2("QQQ")).isNull();
    assertThat(CountryCodes.alpha2("1A")).isNull();
  }
}
