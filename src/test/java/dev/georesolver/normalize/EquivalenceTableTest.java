package dev.georesolver.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key-level contract, driven by {@code same-key.tsv} and {@code different-key.tsv}: keys are
 * computed exactly as the service does, {@code IdempotencyKey.of(normalize(text), null)}.
 */
@DisplayName("Idempotency keys over the equivalence tables")
class EquivalenceTableTest {

  private static final AddressNormalizer NORMALIZER = AddressNormalizer.standard();
  private static final List<PairTable.Pair> SAME = PairTable.read("same-key.tsv");
  private static final List<PairTable.Pair> DIFFERENT = PairTable.read("different-key.tsv");

  static Stream<Arguments> samePairs() {
    return SAME.stream().map(p -> Arguments.of(p.first(), p.second(), p.why()));
  }

  static Stream<Arguments> differentPairs() {
    return DIFFERENT.stream().map(p -> Arguments.of(p.first(), p.second(), p.why()));
  }

  static Stream<String> allAddresses() {
    return Stream.concat(SAME.stream(), DIFFERENT.stream())
        .flatMap(p -> Stream.of(p.first(), p.second()));
  }

  private static String key(String address) {
    return IdempotencyKey.of(NORMALIZER.normalize(address), null);
  }

  @ParameterizedTest(name = "{2}: \"{0}\" ~ \"{1}\"")
  @MethodSource("samePairs")
  @DisplayName("equivalent spellings share a key")
  void equivalentSpellingsShareAKey(String first, String second, String why) {
    assertThat(key(second))
        .as("%s: [%s] vs [%s]", why, NORMALIZER.normalize(first), NORMALIZER.normalize(second))
        .isEqualTo(key(first));
  }

  @ParameterizedTest(name = "{2}: \"{0}\" !~ \"{1}\"")
  @MethodSource("differentPairs")
  @DisplayName("different addresses get different keys")
  void differentAddressesGetDifferentKeys(String first, String second, String why) {
    assertThat(key(second))
        .as("%s: [%s] vs [%s]", why, NORMALIZER.normalize(first), NORMALIZER.normalize(second))
        .isNotEqualTo(key(first));
  }

  @Test
  @DisplayName("the tables hold at least 60 equivalent and 20 different pairs")
  void tablesAreLargeEnough() {
    assertThat(SAME).hasSizeGreaterThanOrEqualTo(60);
    assertThat(DIFFERENT).hasSizeGreaterThanOrEqualTo(20);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @MethodSource("allAddresses")
  @DisplayName("normalizing a normalized address changes nothing")
  void normalizationIsIdempotent(String address) {
    String once = NORMALIZER.normalize(address);
    assertThat(NORMALIZER.normalize(once)).isEqualTo(once);
  }

  @Test
  @DisplayName("the shared instance gives the same results from many threads at once")
  void sharedInstanceIsThreadSafe() throws Exception {
    List<String> addresses = allAddresses().toList();
    List<String> expected = addresses.stream().map(NORMALIZER::normalize).toList();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<String>>> runs = new ArrayList<>();
      for (int r = 0; r < 8; r++) {
        runs.add(pool.submit(() -> addresses.stream().map(NORMALIZER::normalize).toList()));
      }
      for (Future<List<String>> run : runs) {
        assertThat(run.get()).isEqualTo(expected);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
