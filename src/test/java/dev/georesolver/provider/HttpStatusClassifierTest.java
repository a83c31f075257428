package dev.georesolver.provider;

import dev.georesolver.geo.FailureClass;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTTP-status rules of DESIGN §3 and the {@code Retry-After} reader. */
class HttpStatusClassifierTest {

  /** Wed, 21 Oct 2015 07:28:00 GMT. */
  private static final long DATE_MS = Instant.parse("2015-10-21T07:28:00Z").toEpochMilli();
  private static final String DATE = "Wed, 21 Oct 2015 07:28:00 GMT";

  @ParameterizedTest(name = "Retry-After: {0} -> {1} ms")
  @CsvSource({
      "120, 120000",
      "' 120 ', 120000",
      "0, 0",
      "1, 1000",
      "86400, 86400000",
  })
  void shouldReadDeltaSeconds(String value, long ms) {
    assertThat(HttpStatusClassifier.retryAfterMs(value, DATE_MS)).isEqualTo(ms);
  }

  @Test
  void shouldReadAnHttpDateInTheFuture() {
    assertThat(HttpStatusClassifier.retryAfterMs(DATE, DATE_MS - 90_000)).isEqualTo(90_000);
  }

  @Test
  void shouldReadAnHttpDateWithASingleDigitDay() {
    long now = Instant.parse("2015-10-01T07:27:00Z").toEpochMilli();

    assertThat(HttpStatusClassifier.retryAfterMs("Thu, 1 Oct 2015 07:28:00 GMT", now)).isEqualTo(60_000);
  }

  @Test
  void shouldNeverBeNegativeForAnHttpDateInThePast() {
    assertThat(HttpStatusClassifier.retryAfterMs(DATE, DATE_MS + 5_000)).isZero();
  }

  @Test
  void shouldBeZeroForAnHttpDateThatIsNow() {
    assertThat(HttpStatusClassifier.retryAfterMs(DATE, DATE_MS)).isZero();
  }

  @ParameterizedTest(name = "Retry-After: {0} -> Long.MAX_VALUE")
  @ValueSource(strings = {"99999999999999999999", "99999999999999999", "9223372036854775807", "9223372036854776",
      "00000000000000000000000009223372036854776", "999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999"})
  @DisplayName("delta-seconds too large to count in milliseconds read as the longest wait, never as none: the tier caps it")
  void shouldSaturateAnUnrepresentableNumberOfSeconds(String value) {
    assertThat(HttpStatusClassifier.retryAfterMs(value, DATE_MS)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  @DisplayName("the largest delta-seconds that fits is read exactly, and a far-future date (year 9999) is read as it is")
  void shouldReadTheLargestRepresentableValues() {
    assertThat(HttpStatusClassifier.retryAfterMs("9223372036854774", DATE_MS)).isEqualTo(9_223_372_036_854_774_000L);
    assertThat(HttpStatusClassifier.retryAfterMs("99999999999", DATE_MS)).isEqualTo(99_999_999_999_000L);
    assertThat(HttpStatusClassifier.retryAfterMs("Fri, 31 Dec 9999 23:59:59 GMT", DATE_MS))
        .isEqualTo(Instant.parse("9999-12-31T23:59:59Z").toEpochMilli() - DATE_MS);
  }

  @ParameterizedTest(name = "Retry-After: ''{0}''")
  @NullAndEmptySource
  @ValueSource(strings = {"  ", "-5", "+5", "-0.5", "1.5", "120s", "1 2", "soon", "Wed, 21 Oct 2015", "2015-10-21T07:28:00Z"})
  @DisplayName("absent, signed, fractional or garbage values are unreadable")
  void shouldBeNullWhenUnreadable(String value) {
    assertThat(HttpStatusClassifier.retryAfterMs(value, DATE_MS)).isNull();
  }

  @Test
  @DisplayName("429 is a quota failure carrying Retry-After")
  void shouldCarryRetryAfterOnA429() {
    ProviderResponse r = new ProviderResponse(429, Map.of("retry-after", "30"), Buffer.buffer());

    ProviderAnswer.Failed f = HttpStatusClassifier.classify(r, false);

    assertThat(f.failureClass()).isEqualTo(FailureClass.QUOTA);
    assertThat(f.retryAfterMs()).isEqualTo(30_000);
  }

  @Test
  @DisplayName("a 429 with an absurd Retry-After is still a quota failure, asking for the longest wait")
  void shouldStillBeAQuotaFailureWithAnAbsurdRetryAfter() {
    ProviderResponse r = new ProviderResponse(429, Map.of("retry-after", "99999999999999999"), Buffer.buffer());

    ProviderAnswer.Failed f = HttpStatusClassifier.classify(r, false);

    assertThat(f.failureClass()).isEqualTo(FailureClass.QUOTA);
    assertThat(f.retryAfterMs()).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest(name = "HTTP {0} (404 is no match: {1}) -> {2}")
  @CsvSource({
      "502, false, TRANSIENT",
      "503, false, TRANSIENT",
      "504, false, TRANSIENT",
      "500, false, DEGRADABLE",
      "429, false, QUOTA",
      "401, false, CREDENTIAL",
      "403, false, CREDENTIAL",
      "400, false, REJECTED",
      "422, false, REJECTED",
      "404, true, NO_MATCH",
      "404, false, UNCLASSIFIED",
      "418, false, UNCLASSIFIED",
      "301, false, UNCLASSIFIED",
      "501, false, UNCLASSIFIED",
  })
  void shouldClassifyAnErrorStatus(int status, boolean notFoundIsNoMatch, FailureClass expected) {
    ProviderAnswer.Failed f = HttpStatusClassifier.classify(ProviderResponse.of(status, ""), notFoundIsNoMatch);

    assertThat(f.failureClass()).isEqualTo(expected);
    assertThat(f.detail()).isEqualTo("HTTP " + status);
  }

  @ParameterizedTest
  @ValueSource(ints = {200, 204, 299})
  void shouldLeaveA2xxToTheAdapter(int status) {
    assertThat(HttpStatusClassifier.classify(ProviderResponse.of(status, "{}"), true)).isNull();
  }
}
