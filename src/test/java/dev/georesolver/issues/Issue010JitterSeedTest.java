package dev.georesolver.issues;

import dev.georesolver.GeoResolver;
import dev.georesolver.tier.Backoff;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Two replicas started alike draw different retry jitter: randomness is drawn on the thread that uses it. */
class Issue010JitterSeedTest {

  /**
   * One replica, reduced to what the jitter depends on: the production options made on the
   * deploying thread, and a tier's backoff drawing on another thread (its event loop) that never
   * asked for a random number itself. Prints the draws.
   */
  public static void main(String[] args) throws InterruptedException {
    GeoResolver.Options options = GeoResolver.Options.defaults(0, Map.of());
    StringBuilder draws = new StringBuilder();
    Thread loop = new Thread(() -> {
      Backoff backoff = new Backoff(1000, options.random());
      for (int i = 0; i < 8; i++) {
        draws.append(backoff.delayMs(1)).append(' ');
      }
    }, "tier-event-loop");
    loop.start();
    loop.join();
    System.out.println(draws.toString().strip());
  }

  private static String replica() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    // -Xint: no JIT threads, so both replicas number their threads alike, as identical deployments do.
    Process p = new ProcessBuilder(java.toString(), "-Xint", "-cp", System.getProperty("java.class.path"),
        Issue010JitterSeedTest.class.getName())
        .redirectErrorStream(true)
        .start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("replica finished").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).as("eight draws").matches("(\\d+ ){7}\\d+");
    return out;
  }

  @Test
  @DisplayName("two replicas started the same way do not retry in lockstep")
  void replicasDrawIndependentJitter() throws Exception {
    List<String> draws = List.of(replica(), replica());
    assertThat(draws.get(0)).isNotEqualTo(draws.get(1));
  }
}
