package dev.georesolver.compat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CredentialsTest {

  @Test
  @DisplayName("Nominatim keys come from Authorization: Bearer first, then X-Api-Key")
  void headers() {
    assertThat(Credentials.fromHeaders("Bearer k1", "k2")).isEqualTo(new Credentials("k1", "authorization"));
    assertThat(Credentials.fromHeaders("Basic abc", "k2")).isEqualTo(new Credentials("k2", "x-api-key"));
    assertThat(Credentials.fromHeaders("bearer  ", " ")).isEqualTo(Credentials.NONE);
  }

  @Test
  @DisplayName("the Google key= parameter wins over headers")
  void googleKey() {
    assertThat(Credentials.google("gk", "Bearer k1", null)).isEqualTo(new Credentials("gk", "key"));
    assertThat(Credentials.google(null, null, "k2").key()).isEqualTo("k2");
  }

  @Test
  @DisplayName("the key never shows in toString (logs)")
  void keyNeverPrinted() {
    assertThat(Credentials.google("secret-key", null, null).toString()).doesNotContain("secret-key");
  }
}
