package dev.georesolver.ladder;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.Hit;
import dev.georesolver.config.TierConfig;
import dev.georesolver.geo.Claim;
import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The result's notice opener per rung, the age wording, and refusal reasons (DESIGN §4). */
class NoticesTest {

  private static final long NOW = 1_767_225_600_000L;

  private static TierConfig tier(String name, Claim claim, String notice) {
    return ManifestBuilder.tierConfig("name: " + name, "claim: " + claim.wire(), "typical_ms: 500",
        notice == null ? "-notice" : "notice: '" + notice.replace("'", "''") + "'");
  }

  private static Hit hitObservedAt(Long observedAtMs) {
    return new Hit(2.3376, 48.8606, 0.9, "Louvre", "rooftop", null, observedAtMs, null);
  }

  private static long ago(Duration d) {
    return NOW - d.toMillis();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      EXACT     | primary  | Matched to the address by primary,
      OPEN_DATA | osm      | From open data via osm,
      LOCALITY  | gazettes | Working from the city centre only,
      """)
  void shouldOpenWithTheClaimsDefault(Claim claim, String name, String expected) {
    assertThat(Notices.opener(tier(name, claim, null), hitObservedAt(null), NOW)).isEqualTo(expected + " ");
  }

  @Test
  void shouldSayHowOldACachedResultIs() {
    assertThat(Notices.opener(tier("cache", Claim.CACHED, null), hitObservedAt(ago(Duration.ofHours(4))), NOW))
        .isEqualTo("From a cached result 4 h old, ");
  }

  @Test
  @DisplayName("a cached result of unknown age says so, without a dangling 'old'")
  void shouldSayACachedResultIsOfUnknownAge() {
    assertThat(Notices.opener(tier("cache", Claim.CACHED, null), hitObservedAt(null), NOW))
        .isEqualTo("From a cached result of unknown age, ");
  }

  @Test
  void shouldUseTheManifestNoticeWithTierAndAgeFilledIn() {
    TierConfig t = tier("redis_index", Claim.CACHED, "Replayed by {tier} ({age} old; {tier}), ");

    assertThat(Notices.opener(t, hitObservedAt(ago(Duration.ofMinutes(12))), NOW))
        .isEqualTo("Replayed by redis_index (12 min old; redis_index), ");
  }

  @Test
  void shouldUseTheManifestNoticeOverAnyClaim() {
    assertThat(Notices.opener(tier("primary", Claim.EXACT, "Per our licensed provider, "), hitObservedAt(null), NOW))
        .isEqualTo("Per our licensed provider, ");
  }

  @Test
  void shouldFillInAnUnknownAgeInAManifestNotice() {
    assertThat(Notices.opener(tier("cache", Claim.CACHED, "Cached ({age}), "), hitObservedAt(null), NOW))
        .isEqualTo("Cached (of unknown age), ");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "PT0S, under a minute",
      "PT59S, under a minute",
      "PT59.999S, under a minute",
      "PT60S, 1 min",
      "PT119S, 1 min",
      "PT12M, 12 min",
      "PT59M, 59 min",
      "PT59M59S, 59 min",
      "PT1H, 1 h",
      "PT4H30M, 4 h",
      "PT47H, 47 h",
      "PT47H59M59S, 47 h",
      "PT48H, 2 d",
      "PT71H59M, 2 d",
      "PT72H, 3 d",
      "P30D, 30 d",
  })
  void shouldWordAnAge(Duration age, String words) {
    assertThat(Notices.age(age.toMillis())).isEqualTo(words);
  }

  @Test
  @DisplayName("an entry stamped slightly in the future (clock skew) is under a minute old")
  void shouldWordANegativeAgeAsUnderAMinute() {
    assertThat(Notices.age(-5_000)).isEqualTo("under a minute");
  }

  private static List<Attempt> attempts(String... outcomes) {
    return Arrays.stream(outcomes).map(o -> new Attempt("t", o, 1, 10, null)).toList();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      no_match                                   | not_found
      no_match, out_of_bbox, rejected            | not_found
      rejected                                   | not_found
      no_match, skipped_admission                | budget_exhausted
      transient, deadline                        | budget_exhausted
      skipped_admission                          | budget_exhausted
      transient, skipped_breaker_open            | no_rung_available
      no_match, transient                        | not_found_where_asked
      skipped_rate_limited, no_match, no_match   | not_found_where_asked
      unavailable                                | no_rung_available
      skipped_rate_limited, quota, credential    | no_rung_available
      """)
  void shouldGiveTheRefusalReason(String outcomes, String reason) {
    assertThat(Notices.refusalReason(attempts(outcomes.split(",\\s*")))).isEqualTo(reason);
  }

  @Test
  void shouldSayNoRungWasAvailableWhenNoneWasVisited() {
    assertThat(Notices.refusalReason(List.of())).isEqualTo("no_rung_available");
  }

  @Test
  @DisplayName("a refusal's notice says what each rung did, in ladder order")
  void shouldWordTheRefusalPerRung() {
    List<Attempt> walk = List.of(
        new Attempt("osm", "skipped_rate_limited", 0, 0, null),
        new Attempt("cache", "no_match", 1, 2, null),
        new Attempt("city", "no_match", 1, 1, null),
        new Attempt("commercial", "transient", 3, 900, "HTTP 503"),
        new Attempt("slow", "skipped_admission", 0, 0, null));
    assertThat(Notices.refusalNotice(walk)).isEqualTo("No rung could answer: osm was not asked (rate limited); "
        + "cache found nothing; city found nothing; commercial failed (transient); slow was skipped for lack of time.");
    assertThat(Notices.refusalNotice(List.of())).isEqualTo("No rung could answer: no rung was available.");
  }
}
