package dev.georesolver.state.rules;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading a write-behind log back: the rules the upsert in place applied, replayed in log order. */
class CacheReplayTest {

  private long seq;

  private CacheReplay.Write<String> plain(String key, long recentMs, long resolvedAtMs, String value) {
    return new CacheReplay.Write<>(++seq, key, recentMs, 10_000, resolvedAtMs, null, value);
  }

  private CacheReplay.Write<String> correction(String key, long resolvedAtMs, long basisMs, String value) {
    return new CacheReplay.Write<>(++seq, key, resolvedAtMs, 10_000, resolvedAtMs, basisMs, value);
  }

  @Test
  @DisplayName("newer wins whatever the order of the writes; of two equally new, the later write")
  void newerWins() {
    CacheReplay<String> r = new CacheReplay<>();
    r.apply(plain("k", 1, 20, "newer"));
    r.apply(plain("k", 2, 10, "older, written later"));
    r.apply(plain("j", 3, 5, "first"));
    r.apply(plain("j", 4, 5, "second"));
    assertThat(r.newest(10, 0)).extracting(CacheReplay.Write::value).containsExactly("second", "newer");
  }

  @Test
  @DisplayName("a correction replaces what was resolved no later than the answer it corrects, never a fresher answer stored since")
  void corrections() {
    CacheReplay<String> r = new CacheReplay<>();
    r.apply(plain("degraded", 1, 100, "tier 2"));
    r.apply(correction("degraded", 900, 100, "corrected"));
    r.apply(plain("fresh", 2, 100, "tier 2"));
    r.apply(plain("fresh", 3, 500, "primary, since"));
    r.apply(correction("fresh", 900, 100, "corrected"));
    r.apply(correction("gone", 900, 100, "corrected, nothing stored"));
    assertThat(r.newest(10, 0)).extracting(w -> w.key() + "=" + w.value())
        .containsExactlyInAnyOrder("degraded=corrected", "fresh=primary, since", "gone=corrected, nothing stored");
    r.apply(plain("degraded", 4, 800, "an answer older than the correction"));
    assertThat(r.newest(10, 0)).filteredOn(w -> w.key().equals("degraded")).extracting(CacheReplay.Write::value)
        .as("the correction counts as resolved when it was made").containsExactly("corrected");
  }

  @Test
  @DisplayName("only live entries, most recent first, at most the limit; an expired newest write hides the older one")
  void liveNewestFirst() {
    CacheReplay<String> r = new CacheReplay<>();
    r.apply(plain("a", 30, 1, "a"));
    r.apply(plain("b", 10, 1, "b"));
    r.apply(plain("c", 20, 1, "c"));
    r.apply(new CacheReplay.Write<>(++seq, "d", 40, 10_000, 1, null, "d"));
    r.apply(new CacheReplay.Write<>(++seq, "d", 50, 500, 2, null, "d, expired"));
    assertThat(r.newest(10, 1_000)).extracting(CacheReplay.Write::value).containsExactly("a", "c", "b");
    assertThat(r.newest(2, 1_000)).extracting(CacheReplay.Write::value).containsExactly("a", "c");
    assertThat(r.newest(0, 1_000)).isEmpty();
  }
}
