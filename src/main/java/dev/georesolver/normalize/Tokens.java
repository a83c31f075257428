package dev.georesolver.normalize;

import java.util.Arrays;

/**
 * The words of one address, each tagged with the segment it came from. A segment is a stretch
 * between commas, semicolons or line breaks in free text, or one structured component; the
 * saint/suite/doctor rule looks at neighbours only within a segment.
 *
 * <p>Mutable, owned by a single {@link AddressNormalizer#normalize} call.
 */
final class Tokens {

  String[] words = new String[16];
  int[] segments = new int[16];
  int size;
  private int segment;

  /** Starts a new segment for the words added from now on. */
  void breakSegment() {
    if (size > 0 && segments[size - 1] == segment) {
      segment++;
    }
  }

  void add(String word) {
    insert(size, word);
  }

  /**
   * Inserts {@code word} at {@code index}, in the segment of the word it pushes right, or in the
   * segment currently being filled when it goes at the end.
   */
  void insert(int index, String word) {
    int seg = index < size ? segments[index] : segment;
    if (size == words.length) {
      words = Arrays.copyOf(words, size * 2);
      segments = Arrays.copyOf(segments, size * 2);
    }
    System.arraycopy(words, index, words, index + 1, size - index);
    System.arraycopy(segments, index, segments, index + 1, size - index);
    words[index] = word;
    segments[index] = seg;
    size++;
  }

  /** Removes and returns the last word. */
  String removeLast() {
    String w = words[--size];
    words[size] = null;
    return w;
  }

  /** True when the last word was added in the segment currently being filled. */
  boolean lastInCurrentSegment() {
    return size > 0 && segments[size - 1] == segment;
  }

  /** True when {@code j} is a valid index in the same segment as {@code i}. */
  boolean sameSegment(int i, int j) {
    return j >= 0 && j < size && segments[j] == segments[i];
  }

  /** The word at {@code j} if it shares {@code i}'s segment, else null. */
  String neighbour(int i, int j) {
    return sameSegment(i, j) ? words[j] : null;
  }

  /** Removes word {@code i}. */
  void remove(int i) {
    System.arraycopy(words, i + 1, words, i, size - i - 1);
    System.arraycopy(segments, i + 1, segments, i, size - i - 1);
    words[--size] = null;
  }

  /** Replaces words {@code i} and {@code i + 1} with {@code merged}. */
  void merge(int i, String merged) {
    words[i] = merged;
    System.arraycopy(words, i + 2, words, i + 1, size - i - 2);
    System.arraycopy(segments, i + 2, segments, i + 1, size - i - 2);
    words[--size] = null;
  }
}
