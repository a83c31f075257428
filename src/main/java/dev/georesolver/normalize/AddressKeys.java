package dev.georesolver.normalize;

import dev.georesolver.geo.ForwardQuery;

/**
 * Cached-index keys: the address alone, normalized, independent of any bbox (unlike idempotency
 * keys), so an address resolved once is found again whatever box a later request gives.
 */
public final class AddressKeys {

  private AddressKeys() {}

  /** The index key of a forward query. */
  public static String addrKey(ForwardQuery q) {
    AddressNormalizer n = AddressNormalizer.standard();
    return ofNormalized(q.components().isEmpty() ? n.normalize(q.text()) : n.normalize(q.components()));
  }

  /** The index key of free text (a reverse answer's label). */
  public static String addrKey(String text) {
    return ofNormalized(AddressNormalizer.standard().normalize(text));
  }

  /**
   * The index key an answer is written through under: a forward question's own address, or a
   * reverse answer's label (null when it has none).
   */
  public static String ofAnswer(ForwardQuery forward, String reverseLabel) {
    if (forward != null) {
      return addrKey(new ForwardQuery(forward.text(), forward.components(), null, null));
    }
    return reverseLabel == null ? null : addrKey(reverseLabel);
  }

  private static String ofNormalized(String normalized) {
    return IdempotencyKey.sha256Hex("addr|" + normalized);
  }
}
