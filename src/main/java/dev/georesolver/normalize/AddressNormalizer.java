package dev.georesolver.normalize;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns an address into the canonical string that idempotency keys are made of, so
 * that equivalent spellings share a key and different addresses do not. The canonical forms and
 * the rules are listed in the package documentation.
 *
 * <p>Immutable and thread-safe: share {@link #standard()}. Every table is built once when the
 * class loads; a call allocates only its own word list and result, so it is fit for an event loop.
 */
public final class AddressNormalizer {

  /** Structured component names, in the order they are joined. */
  public static final List<String> COMPONENT_ORDER =
      List.of("house_number", "street", "unit", "locality", "region", "postcode", "country");

  private static final String UNIT = "unit";

  private static final AddressNormalizer STANDARD = new AddressNormalizer();

  private AddressNormalizer() {}

  /** The shared standard normalizer. */
  public static AddressNormalizer standard() {
    return STANDARD;
  }

  /**
   * Normalizes free text. Commas, semicolons and line breaks separate parts of the address: they
   * do not appear in the result, but they tell the rules where a street ends ("main st, st louis").
   *
   * @param freeText the address as the caller wrote it
   * @return the canonical words joined by single blanks; empty when there are none
   * @throws NullPointerException if {@code freeText} is null
   */
  public String normalize(String freeText) {
    Objects.requireNonNull(freeText, "freeText");
    Tokens tokens = new Tokens();
    Tokenizer.scan(freeText, tokens);
    return Resolver.resolve(tokens);
  }

  /**
   * Normalizes structured components, joined in {@link #COMPONENT_ORDER}; blank or missing
   * components are dropped and unknown keys are ignored. Each component is its own part of the
   * address, exactly as if it were followed by a comma in free text, so the result equals
   * {@link #normalize(String)} of the non-blank components joined with {@code ", "}. The one
   * exception: a unit without a designator ("4b") is read as "unit 4b", the same as "#4b".
   *
   * @param components values by component name
   * @return the canonical words joined by single blanks; empty when there are none
   * @throws NullPointerException if {@code components} is null
   */
  public String normalize(Map<String, String> components) {
    Objects.requireNonNull(components, "components");
    Tokens tokens = new Tokens();
    for (String name : COMPONENT_ORDER) {
      String value = components.get(name);
      if (value == null || value.isBlank()) {
        continue;
      }
      int start = tokens.size;
      Tokenizer.scan(value, tokens);
      if (UNIT.equals(name) && tokens.size > start && !hasUnitDesignator(tokens, start)) {
        tokens.insert(start, "#");
      }
    }
    return Resolver.resolve(tokens);
  }

  /**
   * Whether the text has something to look up: a letter or a digit once normalized. Text made only
   * of symbols ("☃", "€", "~"), marks, punctuation or invisible characters (a zero-width space, a
   * byte-order mark) normalizes to no letter or digit, and would share one idempotency key with
   * every other such text.
   *
   * <p>Cheap for a real address: a letter or digit as written stays one through normalization, so
   * the full normalization runs only for text that has none as written ("①" and "㎏" gain theirs).
   *
   * @throws NullPointerException if {@code text} is null
   */
  public boolean hasLetterOrDigit(String text) {
    return anyLetterOrDigit(text) || anyLetterOrDigit(normalize(text));
  }

  private static boolean anyLetterOrDigit(String s) {
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (Character.isLetterOrDigit(cp)) {
        return true;
      }
      i += Character.charCount(cp);
    }
    return false;
  }

  private static boolean hasUnitDesignator(Tokens tokens, int from) {
    for (int i = from; i < tokens.size; i++) {
      String w = tokens.words[i];
      if ("#".equals(w) || "ste".equals(w) || Lexicon.UNIT_DESIGNATORS.containsKey(w)) {
        return true;
      }
    }
    return false;
  }
}
