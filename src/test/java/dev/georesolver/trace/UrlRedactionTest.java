package dev.georesolver.trace;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UrlRedactionTest {

  @Test
  @DisplayName("every query value is REDACTED, the names kept")
  void queryValuesRedacted() {
    assertThat(UrlRedaction.redact("https://geo.example/v1/search?q=10+Downing+St&key=sk-secret&format=json"))
        .isEqualTo("https://geo.example/v1/search?q=REDACTED&key=REDACTED&format=REDACTED");
  }

  @Test
  @DisplayName("user info is dropped and a fragment is not kept")
  void userInfoAndFragment() {
    assertThat(UrlRedaction.redact("http://user:pa55@geo.example:8080/p?a=1#frag")).isEqualTo("http://geo.example:8080/p?a=REDACTED");
    assertThat(UrlRedaction.redact("http://geo.example/p#frag")).isEqualTo("http://geo.example/p");
  }

  @Test
  @DisplayName("a URL without a query or path is kept as it is, a value-less parameter gets a redacted value")
  void plain() {
    assertThat(UrlRedaction.redact("http://localhost:1234")).isEqualTo("http://localhost:1234");
    assertThat(UrlRedaction.redact("http://localhost:1234?flag")).isEqualTo("http://localhost:1234?flag=REDACTED");
  }

  @Test
  @DisplayName("a huge URL is bounded")
  void bounded() {
    assertThat(UrlRedaction.redact("http://h/" + "p".repeat(5000))).hasSize(1024);
  }
}
