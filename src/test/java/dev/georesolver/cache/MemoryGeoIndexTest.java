package dev.georesolver.cache;

import dev.georesolver.bus.IndexEntry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

/** The in-process index is bounded by bytes as well as by entries, and its byte count follows every removal. */
class MemoryGeoIndexTest {

  private static IndexEntry entry(int i, int labelChars) {
    return new IndexEntry(String.format("%064x", i), 2 + i * 1e-4, 48 + i * 1e-4, "primary", "exact", 0.9,
        "L".repeat(labelChars), "rooftop", 1L, null);
  }

  @Test
  @DisplayName("large entries are evicted by bytes, oldest first, long before the entry bound")
  void shouldHoldLargeEntriesToTheByteBound() {
    long maxBytes = 1024 * 1024;
    MemoryGeoIndex index = new MemoryGeoIndex(100_000, maxBytes, Clock.systemUTC());
    for (int i = 0; i < 500; i++) {
      index.write(entry(i, 10_000), 3600);
    }
    assertThat(index.bytes()).isLessThanOrEqualTo(maxBytes);
    assertThat(index.size()).as("about 1 MiB / 20 KB").isBetween(40, 60);
    assertThat(index.byKey(entry(499, 0).addrKey()).result()).isNotNull();
    assertThat(index.byKey(entry(0, 0).addrKey()).result()).as("the oldest went first").isNull();
  }

  @Test
  @DisplayName("the byte count goes down on replacement, eviction and expiry alike")
  void shouldCountBytesBackOnEveryRemoval() {
    MemoryGeoIndex index = new MemoryGeoIndex(2, 1024 * 1024, Clock.systemUTC());
    index.write(entry(1, 100), 3600);
    long one = index.bytes();
    assertThat(one).isEqualTo(MemoryGeoIndex.weight(entry(1, 100)));
    index.write(entry(1, 100), 3600);
    assertThat(index.bytes()).as("replaced").isEqualTo(one);
    index.write(entry(2, 100), 3600);
    index.write(entry(3, 100), 3600);
    assertThat(index.size()).isEqualTo(2);
    assertThat(index.bytes()).as("one evicted by the entry bound").isEqualTo(2 * one);
    index.write(entry(4, 100), -1);
    assertThat(index.byKey(entry(4, 0).addrKey()).result()).as("expired").isNull();
    assertThat(index.bytes()).isEqualTo(one);
  }
}
