package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The keyed hash a sample keeps of its request. */
class KeyHasherTest {

  private static final String KEY = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

  @Test
  @DisplayName("the same key gives the same id under one secret, and another id under another")
  void shouldBeStableUnderOneSecretAndDifferUnderAnother() {
    KeyHasher a = new KeyHasher("secret number one, 32 bytes long".getBytes(StandardCharsets.UTF_8));
    KeyHasher a2 = new KeyHasher("secret number one, 32 bytes long".getBytes(StandardCharsets.UTF_8));
    KeyHasher b = new KeyHasher("secret number two, 32 bytes long".getBytes(StandardCharsets.UTF_8));

    assertThat(a.idOf(KEY)).matches("[0-9a-f]{32}").isEqualTo(a2.idOf(KEY)).isNotEqualTo(b.idOf(KEY));
    assertThat(a.idOf(KEY)).isNotEqualTo(a.idOf(KEY.replace('9', '8')));
    // Not a prefix of the key itself, nor of its plain sha256.
    assertThat(KEY).doesNotContain(a.idOf(KEY));
  }

  @Test
  @DisplayName("a short secret is refused, and the hasher's text shows none of it")
  void shouldRefuseAShortSecretAndHideIt() {
    assertThatThrownBy(() -> new KeyHasher(new byte[15])).isInstanceOf(IllegalArgumentException.class);
    KeyHasher h = new KeyHasher("do not show this secret anywhere".getBytes(StandardCharsets.UTF_8));
    assertThat(h.toString()).doesNotContain("secret anywhere").contains("hidden");
  }

  @Test
  @DisplayName("bitsOf reads an id's first 64 bits, and refuses what is not an id")
  void shouldReadTheBitsOfAnId() {
    assertThat(KeyHasher.bitsOf("ffffffffffffffff0000000000000000")).isEqualTo(-1L);
    assertThat(KeyHasher.bitsOf("00000000000000010000000000000000")).isEqualTo(1L);
    assertThatThrownBy(() -> KeyHasher.bitsOf("not an id")).isInstanceOf(IllegalArgumentException.class);
  }
}
