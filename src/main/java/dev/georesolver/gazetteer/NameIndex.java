package dev.georesolver.gazetteer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Folded place name → the cities that bear it, in four flat arrays instead of a map of objects.
 *
 * <p>Keys are stored once, UTF-8, end to end in one byte array, sorted by their bytes (unsigned),
 * and found by binary search (about 18 comparisons for 260,000 keys). Each key's postings are a
 * slice of one int array, a posting being {@code city << 2 | how}: {@code how} is
 * {@link #OWN} when the key is the city's own name, {@link #SHORT_FORM} when it is an alternate name
 * whose words stand in the own name ("Matamoros" for Heroica Matamoros, "New York" for New York
 * City), {@link #OTHER_ALTERNATE} for any other alternate name (historical, foreign: "Londres").
 * Within a slice postings are in city order, which is most populous first.
 *
 * <p>Immutable and thread-safe.
 */
final class NameIndex {

  /** The key is the city's own name. */
  static final int OWN = 0;
  /** The key is an alternate name whose words stand in the city's own name. */
  static final int SHORT_FORM = 1;
  /** The key is another alternate name. */
  static final int OTHER_ALTERNATE = 2;

  private final byte[] keyBytes;
  private final int[] keyStart;
  private final int[] postStart;
  private final int[] postings;

  /**
   * @param keyBytes the keys end to end, sorted
   * @param keyStart {@code k + 1} offsets into {@code keyBytes}
   * @param postStart {@code k + 1} offsets into {@code postings}
   * @param postings the postings of key 0, then key 1, ...
   */
  NameIndex(byte[] keyBytes, int[] keyStart, int[] postStart, int[] postings) {
    this.keyBytes = keyBytes;
    this.keyStart = keyStart;
    this.postStart = postStart;
    this.postings = postings;
  }

  /** The id of a folded key, or -1 when no city bears that name. */
  int find(String foldedKey) {
    if (foldedKey.isEmpty()) {
      return -1;
    }
    byte[] k = foldedKey.getBytes(StandardCharsets.UTF_8);
    int lo = 0;
    int hi = keyStart.length - 2;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Arrays.compareUnsigned(keyBytes, keyStart[mid], keyStart[mid + 1], k, 0, k.length);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }

  /** Whether some city bears this folded key as its own name (not only as an alternate). */
  boolean isOwnName(String foldedKey) {
    int id = find(foldedKey);
    if (id < 0) {
      return false;
    }
    for (int i = postStart[id]; i < postStart[id + 1]; i++) {
      if (how(postings[i]) == OWN) {
        return true;
      }
    }
    return false;
  }

  /** First posting index of a key. */
  int start(int keyId) {
    return postStart[keyId];
  }

  /** One past the last posting index of a key. */
  int end(int keyId) {
    return postStart[keyId + 1];
  }

  /** The posting at {@code i}. */
  int posting(int i) {
    return postings[i];
  }

  /** The city of a posting. */
  static int city(int posting) {
    return posting >>> 2;
  }

  /** How a posting's key names its city: {@link #OWN}, {@link #SHORT_FORM} or {@link #OTHER_ALTERNATE}. */
  static int how(int posting) {
    return posting & 3;
  }

  /** Whether a posting matched an alternate name rather than the city's own. */
  static boolean alternate(int posting) {
    return how(posting) != OWN;
  }

  /** Number of distinct keys. */
  int keyCount() {
    return keyStart.length - 1;
  }

  /** Bytes held by the arrays, for the cost report. */
  long arrayBytes() {
    return (long) keyBytes.length + 4L * (keyStart.length + postStart.length + postings.length);
  }
}
