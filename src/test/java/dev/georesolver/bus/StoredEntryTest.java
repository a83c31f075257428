package dev.georesolver.bus;

import dev.georesolver.geo.Claim;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The replay rule, without Vert.x: age against the claim's maximum and the entry's TTL, and the accepted claims. */
class StoredEntryTest {

  private static final long NOW = 1_767_225_600_000L;
  private static final long HOUR = 3_600_000;

  private static StoredAnswer answer(Claim claim) {
    return StoredAnswer.of(ResolveResult.builder().status(ResolveResult.RESOLVED).lon(2.35).lat(48.85)
        .resolutionSource("primary").claim(claim).resolvedAtMs(NOW - HOUR).build());
  }

  private static StoredEntry storedAgo(long ageMs, long ttlMs) {
    return new StoredEntry(answer(Claim.EXACT), NOW - ageMs, ttlMs);
  }

  private static DedupeClaim claim(long maxAgeMs, String accepted) {
    return new DedupeClaim("k", "k|describe|FORWARD", maxAgeMs, accepted);
  }

  @Test
  void shouldReplayAnAnswerWithinTheClaimsMaximumAgeAndItsTtl() {
    assertThat(storedAgo(60_000, HOUR).replayableTo(claim(HOUR, ""), NOW)).isTrue();
    assertThat(storedAgo(HOUR, HOUR).replayableTo(claim(HOUR, ""), NOW)).as("at the limit").isTrue();
  }

  @Test
  void shouldNotReplayPastTheClaimsMaximumAge() {
    assertThat(storedAgo(600_001, HOUR).replayableTo(claim(600_000, ""), NOW)).isFalse();
  }

  @Test
  void shouldNotReplayPastItsOwnTtl() {
    assertThat(storedAgo(60_001, 60_000).replayableTo(claim(HOUR, ""), NOW)).isFalse();
  }

  @Test
  @DisplayName("an intent with max_cache_age 0 is never replayed, not even an answer stored this millisecond")
  void shouldNeverReplayToAClaimThatTakesNoReplays() {
    assertThat(storedAgo(0, HOUR).replayableTo(claim(0, ""), NOW)).isFalse();
  }

  @Test
  @DisplayName("an answer read from the shared store past half its TTL stays replayable, kept as read, until its own TTL")
  void shouldKeepAnEntryReadFromTheSharedStoreReplayableUntilItsOwnTtl() {
    StoredEntry read = storedAgo(HOUR * 2 / 3, HOUR);

    assertThat(read.replayableTo(claim(HOUR, ""), NOW)).isTrue();
    assertThat(read.replayableTo(claim(HOUR, ""), NOW + HOUR / 3)).isTrue();
    assertThat(read.replayableTo(claim(HOUR, ""), NOW + HOUR / 3 + 1)).isFalse();
    assertThat(read.replay(NOW + 1_000).ageMs()).as("aged from when it was first stored").isEqualTo(HOUR * 2 / 3 + 1_000);
  }

  @Test
  void shouldReplayOnlyClaimsTheIntentAccepts() {
    StoredEntry openData = new StoredEntry(answer(Claim.OPEN_DATA), NOW, HOUR);

    assertThat(openData.replayableTo(claim(HOUR, "exact,open_data"), NOW)).isTrue();
    assertThat(openData.replayableTo(claim(HOUR, "open_data"), NOW)).isTrue();
    assertThat(openData.replayableTo(claim(HOUR, "cached,exact"), NOW)).isFalse();
    assertThat(openData.replayableTo(claim(HOUR, ""), NOW)).as("empty: every claim").isTrue();
    assertThat(openData.replayableTo(claim(HOUR, null), NOW)).isTrue();
  }

  @Test
  @DisplayName("accepted claims match whole names only")
  void shouldMatchWholeClaimNames() {
    assertThat(StoredEntry.accepts("open_data_plus,exact", Claim.OPEN_DATA)).isFalse();
    assertThat(StoredEntry.accepts("xopen_data", Claim.OPEN_DATA)).isFalse();
    assertThat(StoredEntry.accepts("open", Claim.OPEN_DATA)).isFalse();
    assertThat(StoredEntry.accepts("exact,,locality", Claim.LOCALITY)).isTrue();
    assertThat(StoredEntry.accepts("exact,", Claim.EXACT)).isTrue();
    assertThat(StoredEntry.accepts("exact", null)).as("an answer without a claim").isTrue();
  }

  @Test
  void shouldGiveTheReplayVerdictWithItsAge() {
    DedupeVerdict v = storedAgo(4_500, HOUR).replay(NOW);

    assertThat(v.kind()).isEqualTo(DedupeVerdict.Kind.REPLAY);
    assertThat(v.ageMs()).isEqualTo(4_500);
    assertThat(v.answer()).isEqualTo(answer(Claim.EXACT));
  }

  @Test
  void shouldRoundTripTheSharedStoresForm() {
    StoredEntry e = storedAgo(4_500, HOUR);
    JsonObject j = new JsonObject(e.toBuffer());

    assertThat(j.getLong("stored_at_ms")).isEqualTo(NOW - 4_500);
    assertThat(j.getLong("ttl_ms")).isEqualTo(HOUR);
    assertThat(j.getJsonObject("result")).isEqualTo(e.answer().toJson());
    assertThat(StoredEntry.fromJson(j)).isEqualTo(e);
  }
}
