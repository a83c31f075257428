package dev.georesolver.shadow;

import dev.georesolver.normalize.AddressNormalizer;

import java.text.Normalizer;
import java.util.HashSet;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How far two rungs' labels for one place agree: the overlap coefficient (Szymkiewicz–Simpson) of
 * their folded word sets, {@code |A ∩ B| / min(|A|, |B|)}, in [0, 1]. Pure and thread-safe.
 *
 * <p><b>Folding.</b> Each label goes through the address normalizer (Unicode NFKC, lower case,
 * punctuation dropped, street types, unit designators, directionals and ordinals in one canonical
 * form, so "10 Downing St." and "10, Downing Street" give the same words), then diacritics are
 * removed ("Zürich" = "Zurich", "Montréal" = "Montreal"). Words are compared as a set: order and
 * repetition do not count.
 *
 * <p><b>Why the overlap coefficient.</b> Providers describe the same place at very different
 * lengths: one names the street, town and postcode, another every administrative level up to the
 * country. Jaccard ({@code |A ∩ B| / |A ∪ B|}) scores such a pair around 0.4 although nothing in
 * them disagrees; the overlap coefficient asks whether the shorter label's words are in the longer
 * one, so it measures contradiction ("Downing Street" vs "Downing Road" lowers it) rather than
 * verbosity. Its blind spot is the reverse: a coarse label ("London") scores 1 against a full address
 * in London. That difference is what the distance and the two precisions of a sample already show,
 * so the label figure is read next to them, never alone.
 *
 * <p>Not handled: spelling variants that the normalizer does not fold ("St James's" vs "St James"),
 * transliteration between scripts, and names given in different languages.
 */
public final class LabelSimilarity {

  /** Longer labels are cut here before folding, so a hostile label costs bounded time. */
  static final int MAX_LABEL_CHARS = 1024;

  private static final Pattern MARKS = Pattern.compile("\\p{M}+");

  private LabelSimilarity() {}

  /**
   * The similarity of two labels.
   *
   * @return in [0, 1]; empty when either label is null or has no word
   */
  public static OptionalDouble of(String a, String b) {
    if (a == null || b == null) {
      return OptionalDouble.empty();
    }
    Set<String> wa = words(a);
    Set<String> wb = words(b);
    if (wa.isEmpty() || wb.isEmpty()) {
      return OptionalDouble.empty();
    }
    Set<String> small = wa.size() <= wb.size() ? wa : wb;
    Set<String> large = small == wa ? wb : wa;
    int common = 0;
    for (String w : small) {
      if (large.contains(w)) {
        common++;
      }
    }
    return OptionalDouble.of((double) common / small.size());
  }

  /** The folded words of a label, as compared. */
  public static Set<String> words(String label) {
    String cut = label.length() > MAX_LABEL_CHARS ? label.substring(0, MAX_LABEL_CHARS) : label;
    String normalized = AddressNormalizer.standard().normalize(cut);
    String folded = MARKS.matcher(Normalizer.normalize(normalized, Normalizer.Form.NFD)).replaceAll("");
    Set<String> out = new HashSet<>();
    for (String w : folded.split(" ")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }
}
