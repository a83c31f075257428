package dev.georesolver.cache;

import dev.georesolver.bus.StoredEntry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-process idempotency store: bounded by bytes as well as by entries, answers kept as bytes
 * and given back whole, oldest evicted first, never a stale answer.
 */
class MemoryStoreTest {

  private static final long HOUR = 3_600_000;

  private static StoredEntry entry(int labelChars) {
    return entry("L".repeat(labelChars), 1L);
  }

  private static StoredEntry entry(String label, long storedAt) {
    StoredAnswer a = StoredAnswer.of(ResolveResult.builder().status(ResolveResult.RESOLVED).lon(2.35).lat(48.85)
        .label(label).resolutionSource("primary").claim(Claim.EXACT).resolvedAtMs(1L).build());
    return new StoredEntry(a, storedAt, HOUR);
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
  @DisplayName("small answers are still bounded by entries")
  void shouldKeepTheEntryBoundForSmallAnswers() {
    MemoryStore store = new MemoryStore(100, 256L * 1024 * 1024, HOUR, Ticker.systemTicker());
    for (int i = 0; i < 1000; i++) {
      store.put(key(i), entry(10));
    }
    assertThat(store.size()).isEqualTo(100);
    assertThat(store.get(key(899))).as("evicted oldest first").isNull();
    assertThat(store.get(key(900))).isNotNull();
    assertThat(store.get(key(999))).isNotNull();
  }

  @Test
  @DisplayName("an answer weighs its JSON, its key and about 70 bytes of fields: nothing per answer outside the ring")
  void shouldWeighAnEntryByItsJsonAndKey() {
    StoredEntry e = entry(1000);
    MemoryStore store = new MemoryStore(100, 1024 * 1024, HOUR, Ticker.systemTicker());
    store.put(key(1), e);
    assertThat(e.answer().encodedLength()).isGreaterThan(1000);
    assertThat(store.weightedBytes()).isBetween(e.answer().encodedLength() + 64L, e.answer().encodedLength() + 64L + 100);
  }

  @Test
  @DisplayName("every field the chain and the replay rule read comes back as it went in, with the same JSON")
  void shouldRoundTripEveryField() {
    MemoryStore store = new MemoryStore(100, 1024 * 1024, HOUR, Ticker.systemTicker());
    ResolveResult r = ResolveResult.builder().status(ResolveResult.RESOLVED).direction(Direction.REVERSE)
        .lon(-0.1275).lat(51.5072).label("10 Downing St — Londres").precision("rooftop").distanceM(3.5)
        .resolutionSource("cached_index").claim(Claim.CACHED).confidence(0.8).degraded(true).notice("Cached:")
        .reason("upstream slow, answered from below").intent("x").idempotencyKey("k").manifestRevision("rev-7")
        .attempts(List.of(new Attempt("primary", "timeout", 2, 200, "no answer"))).observedAtMs(1_700_000_000_000L)
        .resolvedAtMs(1_700_000_123_456L).build();
    StoredAnswer a = StoredAnswer.of(r);
    store.put("ключ-1", new StoredEntry(a, 42L, 7_000L));
    StoredEntry back = store.get("ключ-1");
    assertThat(back.storedAtMs()).isEqualTo(42L);
    assertThat(back.ttlMs()).isEqualTo(7_000L);
    StoredAnswer b = back.answer();
    assertThat(b).isEqualTo(a);
    assertThat(b.toJson()).isEqualTo(a.toJson());
    assertThat(b.status()).isEqualTo(a.status());
    assertThat(b.direction()).isEqualTo(Direction.REVERSE);
    assertThat(b.resolutionSource()).isEqualTo("cached_index");
    assertThat(b.claim()).isEqualTo(Claim.CACHED);
    assertThat(b.degraded()).isTrue();
    assertThat(b.reason()).isEqualTo("upstream slow, answered from below");
    assertThat(b.manifestRevision()).isEqualTo("rev-7");
    assertThat(b.observedAtMs()).isEqualTo(1_700_000_000_000L);
    assertThat(b.resolvedAtMs()).isEqualTo(1_700_000_123_456L);

    StoredAnswer bare = StoredAnswer.of(ResolveResult.builder().status(ResolveResult.REFUSED).resolvedAtMs(5L).build());
    store.put("bare", new StoredEntry(bare, 1L, 1L));
    StoredAnswer c = store.get("bare").answer();
    assertThat(c).isEqualTo(bare);
    assertThat(c.claim()).isNull();
    assertThat(c.resolutionSource()).isNull();
    assertThat(c.reason()).isNull();
    assertThat(c.observedAtMs()).isNull();
    assertThat(c.direction()).isEqualTo(Direction.FORWARD);
    assertThat(store.get("absent")).isNull();
  }

  @Test
  @DisplayName("a key stored again is replaced: one entry, the newest answer")
  void shouldReplaceUnderTheSameKey() {
    MemoryStore store = new MemoryStore(100, 1024 * 1024, HOUR, Ticker.systemTicker());
    store.put(key(1), entry("first", 1L));
    store.put(key(1), entry("second", 2L));
    assertThat(store.size()).isEqualTo(1);
    assertThat(store.get(key(1)).storedAtMs()).isEqualTo(2L);
    assertThat(store.get(key(1)).answer().toJson().getString("label")).isEqualTo("second");
  }

  @Test
  @DisplayName("entries past the longest TTL, by the ticker, read as absent")
  void shouldExpireByTheTicker() {
    AtomicLong now = new AtomicLong();
    MemoryStore store = new MemoryStore(100, 1024 * 1024, 1_000, now::get);
    store.put(key(1), entry(10));
    now.addAndGet(999_000_000L);
    assertThat(store.get(key(1))).isNotNull();
    now.addAndGet(2_000_000L);
    assertThat(store.get(key(1))).isNull();
    assertThat(store.size()).isZero();
  }

  @Test
  @DisplayName("an answer read while among the oldest is moved to the front and outlives its neighbours")
  void shouldGiveAHotAnswerASecondChance() {
    MemoryStore store = new MemoryStore(100, 1024 * 1024, HOUR, Ticker.systemTicker());
    for (int i = 0; i < 1000; i++) {
      store.put(key(i), entry(10));
      assertThat(store.get(key(0))).as("read at put %d", i).isNotNull();
    }
    assertThat(store.get(key(0)).storedAtMs()).as("its stored-at is unchanged").isEqualTo(1L);
    assertThat(store.size()).isEqualTo(100);
  }

  @Test
  @DisplayName("keys of one hash code are told apart, and survive the others' removal")
  void shouldTellCollidingKeysApart() {
    MemoryStore store = new MemoryStore(64, 1024 * 1024, HOUR, Ticker.systemTicker());
    String[] keys = new String[64];
    for (int i = 0; i < 64; i++) {
      StringBuilder k = new StringBuilder();
      for (int b = 0; b < 6; b++) {
        k.append((i >> b & 1) == 0 ? "Aa" : "BB"); // "Aa" and "BB" have the same hash code
      }
      keys[i] = k.toString();
      store.put(keys[i], entry("v" + i, i));
    }
    assertThat(keys[0].hashCode()).isEqualTo(keys[63].hashCode());
    for (int i = 0; i < 64; i += 3) {
      store.put(keys[i], entry("w" + i, 1000 + i)); // replace a third: deletes in the middle of the probe run
    }
    for (int i = 0; i < 64; i++) {
      assertThat(store.get(keys[i]).storedAtMs()).as(keys[i]).isEqualTo(i % 3 == 0 ? 1000 + i : i);
    }
  }

  @Test
  @DisplayName("an answer larger than one array of the ring is not kept, and the older one under its key is dropped")
  void shouldNotKeepAnOversizedAnswer() {
    MemoryStore store = new MemoryStore(100, 64 * 1024, HOUR, Ticker.systemTicker());
    store.put(key(1), entry(10));
    store.put(key(1), entry(70_000));
    assertThat(store.get(key(1))).isNull();
    store.put(key(2), entry(10));
    assertThat(store.get(key(2))).isNotNull();
  }

  @Test
  @DisplayName("random puts and reads of mixed sizes round the ring many times: within both bounds, never a stale answer, the newest always there")
  void shouldStayCorrectUnderRandomUse() {
    long maxBytes = 96 * 1024;
    int maxEntries = 120;
    MemoryStore store = new MemoryStore(maxEntries, maxBytes, HOUR, Ticker.systemTicker());
    Map<String, Long> last = new HashMap<>();
    Random rnd = new Random(17);
    for (long n = 1; n <= 15_000; n++) {
      String k = key(rnd.nextInt(400));
      if (rnd.nextInt(3) == 0) {
        StoredEntry got = store.get(k);
        if (got != null) {
          assertThat(got.storedAtMs()).as("the last put of %s", k).isEqualTo(last.get(k));
        }
      } else {
        int size = rnd.nextInt(10) == 0 ? 8_000 + rnd.nextInt(20_000) : rnd.nextInt(600);
        store.put(k, entry("x".repeat(size), n));
        last.put(k, n);
        assertThat(store.get(k).storedAtMs()).isEqualTo(n);
      }
      assertThat(store.size()).isLessThanOrEqualTo(maxEntries);
      assertThat(store.weightedBytes()).isLessThanOrEqualTo(maxBytes);
    }
    long found = last.keySet().stream().filter(k -> store.get(k) != null).count();
    assertThat(found).isEqualTo(store.size());
  }
}
