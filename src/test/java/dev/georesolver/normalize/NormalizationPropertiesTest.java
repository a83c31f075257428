package dev.georesolver.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Properties over seeded random mixes of the words and punctuation that the rules react to, so
 * that rule interactions nobody wrote a row for are exercised too.
 */
@DisplayName("Normalization properties")
class NormalizationPropertiesTest {

  private static final String[] PIECES = {
      "st", "St.", "ste", "str", "dr", "n", "e", "ne", "NW", "s", "sw", "#", "apt", "Apt #",
      "ky", "key", "fl", "ct", "CT", "mt", "1", "12", "2", "11", "3", "-", "–", " - ", "/", "½",
      "1/2", ".", ",", ";", "\n", "'", "’", "&", "1st", "first", "twenty", "fifth", "rd", "nd",
      "th", "main", "Main", "park", "lake", "louis", "saint", "sainte", "fort", "port", "ave",
      "av.", "avenue", "avenue n", "street", "rue", "c/", "p.zza", "v.le", "via", "n.e.",
      "hauptstr", "straße", "kalverstr", "nederland", "deutschland", "nl", "de", "ß", "é",
      "e\u0301", "(", "ph", "unit", "rm", "bldg", "post", "office", "box", "p", "o", "x",
      "4-b", "b-", "-4", "63101", "06103", "33101", "68102-1234", "0", "sankt", "allée", "bd"};

  private static final AddressNormalizer NORMALIZER = AddressNormalizer.standard();

  private static List<String> randomAddresses(long seed, int count) {
    SplittableRandom random = new SplittableRandom(seed);
    List<String> addresses = new ArrayList<>(count);
    for (int k = 0; k < count; k++) {
      StringBuilder sb = new StringBuilder();
      int words = 1 + random.nextInt(10);
      for (int j = 0; j < words; j++) {
        sb.append(PIECES[random.nextInt(PIECES.length)]);
        if (random.nextBoolean()) {
          sb.append(' ');
        }
      }
      addresses.add(sb.toString());
    }
    return addresses;
  }

  @Test
  @DisplayName("normalizing twice gives the same string as normalizing once")
  void idempotent() {
    for (String address : randomAddresses(20240601L, 20_000)) {
      String once = NORMALIZER.normalize(address);
      assertThat(NORMALIZER.normalize(once)).as("[%s] → [%s]", address, once).isEqualTo(once);
    }
  }

  @Test
  @DisplayName("the result is lower case, single-spaced and free of separating punctuation")
  void resultShape() {
    for (String address : randomAddresses(7L, 5_000)) {
      String result = NORMALIZER.normalize(address);
      assertThat(result).as("[%s] → [%s]", address, result)
          .doesNotContain("  ", ",", ";", "#", "'", "\n")
          .doesNotStartWith(" ").doesNotEndWith(" ")
          .isEqualTo(result.toLowerCase(Locale.ROOT));
    }
  }
}
