package dev.georesolver.shadow;

import java.util.Comparator;
import java.util.regex.Pattern;

/**
 * What shadow figures are aggregated by: the ordered pair of rungs (the one that served the answer,
 * the one asked again in its shadow) and the request's intent. Immutable; ordered by served, shadow,
 * intent, which is the order every view lists pairs in.
 *
 * <p>Each name is 1 to 64 characters of {@code [A-Za-z0-9_.:-]}, starting with a letter or digit
 * (every tier name is one); anything else is refused, so a name read back from a store or a server
 * can be printed to a terminal or a log as it is.
 *
 * @param served the rung whose answer left
 * @param shadow the rung asked the same question after the reply
 * @param intent the request's intent
 */
public record PairKey(String served, String shadow, String intent) implements Comparable<PairKey> {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}");
  private static final Comparator<PairKey> ORDER = Comparator.comparing(PairKey::served)
      .thenComparing(PairKey::shadow).thenComparing(PairKey::intent);

  /** @throws IllegalArgumentException when a name is missing or not a name */
  public PairKey {
    check("served", served);
    check("shadow", shadow);
    check("intent", intent);
  }

  /** Whether {@code s} is acceptable as a rung or intent name here. */
  public static boolean isName(String s) {
    return s != null && NAME.matcher(s).matches();
  }

  private static void check(String what, String name) {
    if (!isName(name)) {
      throw new IllegalArgumentException(what + " must be 1-64 characters of [A-Za-z0-9_.:-]");
    }
  }

  @Override
  public int compareTo(PairKey o) {
    return ORDER.compare(this, o);
  }
}
