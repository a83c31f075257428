package dev.georesolver.cache;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.geo.Claim;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's read-only view from other threads: it reads what the owner stored, changes nothing,
 * leaves the second chance to the owner, and under a writer that overwrites and evicts all the
 * time it answers each key's own entry or nothing, never a torn or another key's record.
 */
class MemoryStorePeekTest {

  private static final long HOUR = 3_600_000;

  private static StoredEntry entry(String label) {
    StoredAnswer a = StoredAnswer.of(ResolveResult.builder().status(ResolveResult.RESOLVED).lon(2.35).lat(48.85)
        .label(label).resolutionSource("primary").claim(Claim.EXACT).resolvedAtMs(1L).build());
    return new StoredEntry(a, 1L, HOUR);
  }

  private static String key(int i) {
    return String.format("%064x", i);
  }

  private static String label(StoredEntry e) {
    return e.answer().toJson().getString("label");
  }

  @Test
  @DisplayName("peek reads the stored entry, the newest after an overwrite, and nothing for an absent key")
  void peekReadsWhatTheOwnerStored() {
    MemoryStore store = new MemoryStore(1000, 1 << 20, HOUR, Ticker.systemTicker());
    store.put(key(1), entry("first"));
    assertThat(label(store.peek(key(1)))).isEqualTo("first");
    store.put(key(1), entry("second"));
    assertThat(label(store.peek(key(1)))).isEqualTo("second");
    assertThat(store.peek(key(2))).isNull();
  }

  @Test
  @DisplayName("peek changes nothing: an entry due its second chance reads as absent to the view, and the owner's read still moves it")
  void peekLeavesTheSecondChanceToTheOwner() {
    MemoryStore store = new MemoryStore(100, 1 << 20, HOUR, Ticker.systemTicker());
    for (int i = 0; i < 95; i++) {
      store.put(key(i), entry("answer " + i));
    }
    long bytes = store.weightedBytes();
    assertThat(store.peek(key(0))).as("the oldest, in a nearly full ring: the owner must read it").isNull();
    assertThat(store.peek(key(94))).as("the newest").isNotNull();
    assertThat(store.weightedBytes()).as("peeks wrote nothing").isEqualTo(bytes);
    assertThat(label(store.get(key(0)))).isEqualTo("answer 0");
    assertThat(store.weightedBytes()).as("the owner's read moved it to the front").isGreaterThan(bytes);
    assertThat(store.peek(key(0))).as("now at the front, the view reads it").isNotNull();
  }

  @Test
  @DisplayName("two readers peeking while the owner overwrites and evicts: each key's own entry or nothing, never an exception")
  void peekUnderAWriterIsNeverTorn() throws Exception {
    // Small bounds so the writer evicts and wraps the ring all the time; labels of varied length so records move.
    MemoryStore store = new MemoryStore(300, 64 * 1024, HOUR, Ticker.systemTicker());
    int keys = 600;
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong hits = new AtomicLong();
    AtomicLong writes = new AtomicLong();
    Thread writer = new Thread(() -> {
      ThreadLocalRandom r = ThreadLocalRandom.current();
      try {
        while (!stop.get()) {
          int i = r.nextInt(keys);
          store.put(key(i), entry("key " + i + " " + "x".repeat(r.nextInt(200))));
          if (r.nextInt(4) == 0) {
            store.get(key(r.nextInt(keys)));
          }
          writes.incrementAndGet();
        }
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
    });
    List<Thread> readers = new ArrayList<>();
    for (int n = 0; n < 2; n++) {
      readers.add(new Thread(() -> {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        try {
          while (!stop.get()) {
            int i = r.nextInt(keys);
            StoredEntry e = store.peek(key(i));
            if (e != null) {
              assertThat(label(e)).as("the entry read under key %d", i).startsWith("key " + i + " ");
              hits.incrementAndGet();
            }
          }
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        }
      }));
    }
    writer.start();
    readers.forEach(Thread::start);
    Thread.sleep(1500);
    stop.set(true);
    writer.join();
    for (Thread t : readers) {
      t.join();
    }
    assertThat(failure.get()).as("no reader or writer failed").isNull();
    assertThat(writes.get()).as("the writer kept writing").isGreaterThan(10_000);
    assertThat(hits.get()).as("the view answered while the owner wrote").isGreaterThan(1000);
  }
}
