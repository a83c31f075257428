package dev.georesolver.compat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class HeaderTextTest {

  @Test
  @DisplayName("printable ASCII passes unchanged apart from the stripped ends")
  void plainAscii() {
    assertThat(HeaderText.of("From a cached result 4 h old, ")).isEqualTo("From a cached result 4 h old,");
  }

  @Test
  @DisplayName("non-ASCII is percent-encoded as UTF-8 and decodes back; % itself is escaped")
  void nonAsciiEncoded() {
    String notice = "Résultat 100% sûr – 東京";
    String h = HeaderText.of(notice);
    assertThat(h).matches("[\\x20-\\x7e]*");
    assertThat(h).contains("R%C3%A9sultat", "100%25");
    assertThat(URLDecoder.decode(h.replace("+", "%2B"), StandardCharsets.UTF_8)).isEqualTo(notice);
  }

  @Test
  @DisplayName("CR, LF, tab and other control characters cannot split or forge a header: they become one space")
  void controlCharacters() {
    assertThat(HeaderText.of("a\r\nSet-Cookie: x=1\t\u0000b")).isEqualTo("a Set-Cookie: x=1 b");
  }

  @Test
  @DisplayName("long text is cut to the limit, never inside an escape")
  void bounded() {
    String h = HeaderText.of("é".repeat(2000));
    assertThat(h.length()).isLessThanOrEqualTo(HeaderText.MAX_CHARS);
    assertThat(h).endsWith("%C3%A9");
    assertThat(HeaderText.of(null)).isEmpty();
  }
}
