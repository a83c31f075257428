package dev.georesolver.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Claim;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The in-process idempotency store is bounded by bytes as well as by entries. */
class MemoryStoreTest {

  private static final long HOUR = 3_600_000;

  private static StoredEntry entry(int labelChars) {
    StoredAnswer a = StoredAnswer.of(ResolveResult.builder().status(ResolveResult.RESOLVED).lon(2.35).lat(48.85)
        .label("L".repeat(labelChars)).resolutionSource("primary").claim(Claim.EXACT).resolvedAtMs(1L).build());
    return new StoredEntry(a, 1L, HOUR);
  }

  private static String key(int i) {
    return String.format("%064x", i);
  }

  @Test
  @DisplayName("large answers are evicted by bytes long before the entry bound is reached")
  void shouldHoldLargeAnswersToTheByteBound() {
    long maxBytes = 1024 * 1024;
    MemoryStore store = new MemoryStore(100_000, maxBytes, HOUR, Ticker.systemTicker());
    for (int i = 0; i < 500; i++) {
      store.put(key(i), entry(20_000));
    }
    assertThat(store.weightedBytes()).isLessThanOrEqualTo(maxBytes);
    assertThat(store.size()).as("about 1 MiB / 20 KB").isBetween(30L, 60L);
    assertThat(store.get(key(499))).as("the newest is kept").isNotNull();
  }

  @Test
  @DisplayName("small answers are still bounded by entries: each weighs at least max_bytes / max_entries")
  void shouldKeepTheEntryBoundForSmallAnswers() {
    MemoryStore store = new MemoryStore(100, 256L * 1024 * 1024, HOUR, Ticker.systemTicker());
    for (int i = 0; i < 1000; i++) {
      store.put(key(i), entry(10));
    }
    store.weightedBytes();
    assertThat(store.size()).isLessThanOrEqualTo(100);
  }

  @Test
  void shouldWeighAnEntryByItsJsonAndKey() {
    StoredEntry e = entry(1000);
    assertThat(MemoryStore.weight(key(1), e)).isEqualTo(e.answer().encodedLength() + 128 + MemoryStore.ENTRY_OVERHEAD_BYTES);
    assertThat(e.answer().encodedLength()).isGreaterThan(1000);
  }
}
