package dev.georesolver.normalize;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class HasLetterOrDigitTest {

  private final AddressNormalizer n = AddressNormalizer.standard();

  @ParameterizedTest(name = "{0} has something to look up")
  @ValueSource(strings = {"Paris", "10", "東京", "\uD841\uDF0E", "①", "㎏", "\u2160", "ﬁ", "a\u0301", "\u2603 Paris"})
  void letterOrDigit(String text) {
    assertThat(n.hasLetterOrDigit(text)).isTrue();
    assertThat(n.normalize(text)).isNotEmpty();
  }

  @ParameterizedTest(name = "{0} has nothing to look up")
  @ValueSource(strings = {"\u2603", "\u20AC", "~", "\u200B", "\uFEFF", "\u0301", "\uD83D\uDDFA", "-", ""})
  void nothing(String text) {
    assertThat(n.hasLetterOrDigit(text)).isFalse();
  }
}
