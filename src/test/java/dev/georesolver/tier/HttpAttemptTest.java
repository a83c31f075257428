package dev.georesolver.tier;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The scheme-and-authority prefix an attempt reuses between calls to the same provider. */
class HttpAttemptTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "http://localhost:1234/search?q=x, http://localhost:1234",
      "https://maps.googleapis.com/maps/api/geocode/json?address=a, https://maps.googleapis.com",
      "http://h?q=1, http://h",
      "http://h, http://h",
      "http://[::1]:8080/x, http://[::1]:8080",
  })
  void shouldFindTheEndOfTheAuthority(String url, String prefix) {
    assertThat(url.substring(0, HttpAttempt.authorityEnd(url))).isEqualTo(prefix);
  }
}
