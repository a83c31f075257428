package dev.georesolver.normalize;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns an address into the canonical string that idempotency keys are made of (DESIGN §5).
 *
 * <p>Immutable and thread-safe: share one instance.
 */
public final class AddressNormalizer {

  /** Structured component names, in the order they are joined. */
  public static final List<String> COMPONENT_ORDER =
      List.of("house_number", "street", "unit", "locality", "region", "postcode", "country");

  private static final Pattern PUNCT = Pattern.compile("[\\p{P}\\p{S}&&[^#]]+");
  private static final Pattern SPACES = Pattern.compile("\\s+");

  private static final Map<String, String> SUFFIXES = Map.ofEntries(
      Map.entry("st", "street"), Map.entry("str", "street"), Map.entry("ave", "avenue"),
      Map.entry("av", "avenue"), Map.entry("rd", "road"), Map.entry("blvd", "boulevard"),
      Map.entry("dr", "drive"), Map.entry("ln", "lane"), Map.entry("ct", "court"),
      Map.entry("pl", "place"), Map.entry("sq", "square"), Map.entry("hwy", "highway"),
      Map.entry("pkwy", "parkway"), Map.entry("ter", "terrace"), Map.entry("cir", "circle"));

  private static final AddressNormalizer STANDARD = new AddressNormalizer();

  private AddressNormalizer() {}

  /** The shared standard normalizer. */
  public static AddressNormalizer standard() {
    return STANDARD;
  }

  /** Normalizes free text. */
  public String normalize(String text) {
    String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    s = PUNCT.matcher(s).replaceAll(" ");
    String[] words = SPACES.split(s.trim());
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (String w : words) {
      if (w.isEmpty()) {
        continue;
      }
      if (out.length() > 0) {
        out.append(' ');
      }
      out.append(SUFFIXES.getOrDefault(w, w));
    }
    return out.toString();
  }

  /** Normalizes structured components, joined in {@link #COMPONENT_ORDER}; unknown keys are ignored. */
  public String normalize(Map<String, String> components) {
    StringBuilder sb = new StringBuilder();
    for (String k : COMPONENT_ORDER) {
      String v = components.get(k);
      if (v != null && !v.isBlank()) {
        sb.append(v).append(' ');
      }
    }
    return normalize(sb.toString());
  }
}
