package dev.georesolver.gazetteer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.georesolver.geo.ForwardQuery;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the gazetteer costs: load time, retained heap and lookup time. Prints the measured figures;
 * asserts only generous bounds (a shared, noisy machine), the targets being under 1 s, 100 MB and
 * about 1 ms.
 */
class GazetteerCostTest {

  @Test
  @DisplayName("loads from the classpath in under 5 s and retains under 150 MB of heap")
  void loadTimeAndRetainedHeap() {
    long firstLoadMs = TestGazetteer.firstLoadMs();
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long before = settledHeapUsed(memory);
    long t0 = System.nanoTime();
    Gazetteer g = Gazetteer.loadDefault();
    long loadMs = (System.nanoTime() - t0) / 1_000_000;
    long after = settledHeapUsed(memory);
    long retainedMb = (after - before) / (1024 * 1024);
    System.out.printf("gazetteer: %d cities, first load in this JVM %d ms, another load %d ms, "
            + "retained heap %d MB (arrays %d MB)%n",
        g.size(), firstLoadMs, loadMs, retainedMb, g.approximateBytes() / (1024 * 1024));
    Reference.reachabilityFence(g);
    assertThat(firstLoadMs).isLessThan(5_000);
    assertThat(loadMs).isLessThan(5_000);
    assertThat(retainedMb).isLessThan(150);
  }

  @Test
  @DisplayName("a lookup takes well under a millisecond once warm")
  void lookupTime() {
    Gazetteer g = TestGazetteer.get();
    List<ForwardQuery> queries = List.of(
        ForwardQuery.of("Paris"), ForwardQuery.of("Springfield, Illinois"), ForwardQuery.of("São Paulo"),
        ForwardQuery.of("10 Downing Street, London, UK"), ForwardQuery.of("qwxzv plorkington"),
        ForwardQuery.of("1600 Pennsylvania Ave NW, Washington, DC 20500"), ForwardQuery.of("tokyo japan"));
    for (int i = 0; i < 2_000; i++) {
      g.forward(queries.get(i % queries.size()));
      g.reverse(48.8584 + (i % 10) * 0.01, 2.2945);
    }
    int rounds = 5_000;
    long t0 = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      g.forward(queries.get(i % queries.size()));
    }
    double forwardUs = (System.nanoTime() - t0) / 1e3 / rounds;
    t0 = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      g.reverse(-60 + (i % 140), -180 + (i * 7 % 360));
    }
    double reverseUs = (System.nanoTime() - t0) / 1e3 / rounds;
    System.out.printf("gazetteer: forward %.1f us, reverse %.1f us per lookup (mean, warm)%n", forwardUs, reverseUs);
    assertThat(forwardUs).isLessThan(5_000);
    assertThat(reverseUs).isLessThan(5_000);
  }

  private static long settledHeapUsed(MemoryMXBean memory) {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
