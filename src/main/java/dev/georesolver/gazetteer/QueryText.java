package dev.georesolver.gazetteer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Free text cut into folded words, each with the segment (comma-separated part) it belongs to,
 * and the word helpers the readers share. Immutable.
 */
final class QueryText {

  /** Most words of free text that are read, counted from the end. */
  static final int MAX_WORDS = 40;

  private static final Pattern SEGMENTS = Pattern.compile("[,;|\\n\\r]+");

  final String[] words;
  final int[] segment;

  private QueryText(String[] words, int[] segment) {
    this.words = words;
    this.segment = segment;
  }

  /**
   * The text's words, folded ({@link TextFold}), cut into segments at commas, semicolons, bars
   * and line breaks; only the last {@value #MAX_WORDS} words are kept (the city and its
   * qualifiers stand at the end), which bounds the work per query.
   */
  static QueryText of(String text) {
    List<String> words = new ArrayList<>();
    List<Integer> segs = new ArrayList<>();
    int seg = 0;
    for (String part : SEGMENTS.split(text)) {
      String[] ws = words(TextFold.fold(part));
      if (ws.length == 0) {
        continue;
      }
      for (String w : ws) {
        words.add(w);
        segs.add(seg);
      }
      seg++;
    }
    int from = Math.max(0, words.size() - MAX_WORDS);
    int firstSeg = from < segs.size() ? segs.get(from) : 0;
    int[] segment = new int[words.size() - from];
    for (int i = 0; i < segment.length; i++) {
      segment[i] = segs.get(from + i) - firstSeg;
    }
    return new QueryText(words.subList(from, words.size()).toArray(String[]::new), segment);
  }

  int size() {
    return words.length;
  }

  int firstOf(int seg) {
    int i = 0;
    while (segment[i] != seg) {
      i++;
    }
    return i;
  }

  int lastOf(int seg) {
    int i = words.length - 1;
    while (segment[i] != seg) {
      i--;
    }
    return i;
  }

  String join(int from, int to) {
    return QueryText.join(words, from, to);
  }

  int stripTrailingPostcodes(int end) {
    while (end > 0 && postcodeLike(words[end - 1])) {
      end--;
    }
    return end;
  }

  static String[] words(String folded) {
    return folded.isEmpty() ? new String[0] : folded.split(" ");
  }

  static String join(String[] words, int from, int to) {
    if (to - from == 1) {
      return words[from];
    }
    return String.join(" ", Arrays.asList(words).subList(from, to));
  }

  /**
   * Whether a folded word looks like a postcode or part of one: four or more digits ({@code 20500},
   * {@code 75007}), or two to four letters and digits mixed ({@code sw1a}, {@code 2aa}, {@code k1a}).
   */
  static boolean postcodeLike(String w) {
    int digits = 0;
    for (int i = 0; i < w.length(); i++) {
      if (Character.isDigit(w.charAt(i))) {
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (digits == w.length()) {
      return digits >= 4;
    }
    return w.length() >= 2 && w.length() <= 4;
  }

  static boolean hasDigit(String w) {
    for (int i = 0; i < w.length(); i++) {
      if (Character.isDigit(w.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}
