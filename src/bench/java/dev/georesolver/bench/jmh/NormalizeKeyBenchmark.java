package dev.georesolver.bench.jmh;

import dev.georesolver.normalize.AddressNormalizer;
import dev.georesolver.normalize.IdempotencyKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * What the chain does first for every forward request: normalize the free text and hash it into the
 * idempotency key. Cycles through a few realistic spellings so no single string is learned.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class NormalizeKeyBenchmark {

  private final AddressNormalizer normalizer = AddressNormalizer.standard();
  private final String[] addresses = {
      "10 Downing St., London SW1A 2AA, United Kingdom",
      "123 Main Street Apt 4B, Springfield, IL 62704",
      "1600 Pennsylvania Ave NW, Washington, DC 20500",
      "Rue de la Loi 16, 1000 Bruxelles",
      "350 Fifth Avenue, New York NY 10118 USA",
      "135 Pilkington Avenue, Sutton Coldfield, Birmingham B72 1LH",
      "P.O. Box 1234, Anchorage AK 99501",
      "Elbphilharmonie, Platz der Deutschen Einheit 4, 20457 Hamburg",
  };
  private int i;

  @Benchmark
  public String normalizeAndKey() {
    String a = addresses[i++ & 7];
    return IdempotencyKey.of(normalizer.normalize(a), null);
  }
}
