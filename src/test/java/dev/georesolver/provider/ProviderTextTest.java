package dev.georesolver.provider;

import dev.georesolver.geo.FailureClass;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Provider text is redacted of the tier's credential, escaped and bounded before it goes anywhere. */
class ProviderTextTest {

  private static final String KEY = "AIzaSy-k3y/with+odd=chars";
  private static final ProviderText QUERY = ProviderText.forTier(KEY, CredentialPlacement.queryParam("key"));
  private static final ProviderText HEADER = ProviderText.forTier("hdr-s3cret-9", CredentialPlacement.header("X-Api-Key"));

  @Test
  @DisplayName("the credential value is redacted as sent and as percent-encoded in a URL")
  void shouldRedactTheValueInBothForms() {
    String encoded = java.net.URLEncoder.encode(KEY, java.nio.charset.StandardCharsets.UTF_8);
    String out = QUERY.clean("denied: " + KEY + " and /json?address=x&k=" + encoded + "&z=1", 256);
    assertThat(out).doesNotContain(KEY).doesNotContain(encoded).contains("denied: [redacted] and").contains("&k=[redacted]&z=1");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "GET /search?q=x&key=other-value-123&format=json",
      "GET /search?q=x&KEY=other-value-123",
      "url: \"https://geo.example/?key = other-value-123\"",
  })
  @DisplayName("anything shaped like the configured query parameter is redacted, whatever its value")
  void shouldRedactTheQueryParameterShape(String text) {
    assertThat(QUERY.clean(text, 256)).doesNotContain("other-value-123").contains(ProviderText.REDACTED);
  }

  @Test
  @DisplayName("a parameter that merely ends in the name is not the credential's")
  void shouldLeaveOtherParametersAlone() {
    assertThat(QUERY.clean("monkey=banana&api_key_hint=none", 256)).isEqualTo("monkey=banana&api_key_hint=none");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "request headers: X-Api-Key: other-value-123, Accept: json",
      "x-api-key:other-value-123",
      "{\"X-Api-Key\": \"other-value-123\"}",
      "X-Api-Key: Bearer other-value-123",
  })
  @DisplayName("anything shaped like the configured header is redacted, whatever its value")
  void shouldRedactTheHeaderShape(String text) {
    assertThat(HEADER.clean(text, 256)).doesNotContain("other-value-123").contains(ProviderText.REDACTED);
  }

  @Test
  @DisplayName("CR, LF, TAB, ESC and the Unicode line separators are escaped, so no log line can be forged")
  void shouldEscapeControlCharacters() {
    String out = ProviderText.bound("bad\r\n12:00:00 ERROR forged\tline \u001b[31mred\u2028x\u0085y");
    assertThat(out).isEqualTo("bad\\r\\n12:00:00 ERROR forged\\tline \\u001b[31mred\\u2028x\\u0085y");
    assertThat(out.chars().noneMatch(c -> c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028)).isTrue();
  }

  @Test
  @DisplayName("text is cut at its bound, without splitting a surrogate pair, and marked")
  void shouldTruncate() {
    assertThat(ProviderText.none().clean("a".repeat(600), 512)).hasSize(513).endsWith(ProviderText.ELLIPSIS);
    String emoji = "a" + "\uD83D\uDE00".repeat(10);
    String out = ProviderText.none().clean(emoji, 4);
    assertThat(out).isEqualTo("a\uD83D\uDE00" + ProviderText.ELLIPSIS);
  }

  @Test
  @DisplayName("a credential straddling the bound is never left half shown, even in a megabyte of text")
  void shouldRedactBeforeCutting() {
    for (int at = 240; at < 260; at++) {
      String text = "x".repeat(at) + KEY + "y".repeat(1024 * 1024);
      String out = QUERY.clean(text, 256);
      assertThat(out).hasSizeLessThanOrEqualTo(257);
      assertThat(out).doesNotContain(KEY.substring(0, 6));
    }
  }

  @Test
  @DisplayName("ordinary text comes back as the same instance: nothing is copied")
  void shouldNotCopyCleanText() {
    String label = "Paris, Île-de-France, France";
    assertThat(QUERY.clean(label, 512)).isSameAs(label);
    assertThat(HEADER.clean("Rue de Rivoli: 75001", 512)).isSameAs("Rue de Rivoli: 75001");
    RawHit hit = RawHit.of(2.35, 48.85, "EPSG:4326", 0.9, label, "locality");
    ProviderAnswer found = new ProviderAnswer.Found(List.of(hit));
    assertThat(QUERY.clean(found)).isSameAs(found);
    ProviderAnswer failed = ProviderAnswer.failed(FailureClass.TRANSIENT, "HTTP 503");
    assertThat(QUERY.clean(failed)).isSameAs(failed);
  }

  @Test
  @DisplayName("an answer's label, precision, CRS name and failure detail are each cleaned")
  void shouldCleanEveryTextOfAnAnswer() {
    RawHit big = RawHit.of(1, 2, "EPSG:4326" + "z".repeat(500), 0.5, "L".repeat(1024 * 1024) + KEY, "p\n" + "q".repeat(300));
    RawHit echo = RawHit.of(1, 2, "EPSG:4326", 0.5, "you sent key=" + KEY, null);
    ProviderAnswer.Found found = (ProviderAnswer.Found) QUERY.clean(new ProviderAnswer.Found(List.of(big, echo)));
    assertThat(found.hits().get(0).label()).hasSize(ProviderText.MAX_LABEL_CHARS + 1);
    assertThat(found.hits().get(0).precision()).startsWith("p\\n").hasSize(ProviderText.MAX_CODE_CHARS + 1);
    assertThat(found.hits().get(0).crs()).hasSize(ProviderText.MAX_CODE_CHARS + 1);
    assertThat(found.hits().get(1).label()).isEqualTo("you sent key=[redacted]");

    ProviderAnswer.Failed f = (ProviderAnswer.Failed) QUERY.clean(
        new ProviderAnswer.Failed(FailureClass.QUOTA, "REQUEST_DENIED: " + KEY + "\n" + "e".repeat(5000), 1000L));
    assertThat(f.detail()).startsWith("REQUEST_DENIED: [redacted]\\n").hasSize(ProviderText.MAX_DETAIL_CHARS + 1);
    assertThat(f.failureClass()).isEqualTo(FailureClass.QUOTA);
    assertThat(f.retryAfterMs()).isEqualTo(1000L);
  }

  @Test
  @DisplayName("a tier without a credential only escapes and bounds")
  void shouldOnlyBoundWithoutACredential() {
    ProviderText none = ProviderText.forTier(null, CredentialPlacement.queryParam("key"));
    assertThat(none.clean("key=abc\n", 256)).isEqualTo("key=abc\\n");
    assertThat(ProviderText.clean("x&key=" + KEY, KEY, CredentialPlacement.queryParam("key"))).isEqualTo("x&key=[redacted]");
  }
}
