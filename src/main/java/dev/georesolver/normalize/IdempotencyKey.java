package dev.georesolver.normalize;

import dev.georesolver.geo.Bbox;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * {@code sha256(normalized_address + "|" + canonical_bbox)} in lower-case hex; the bbox
 * part is empty when there is none. Thread-safe.
 */
public final class IdempotencyKey {

  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 missing from the JDK", e);
    }
  });

  /** This key as the manifest names it ({@code routing.idempotency.key_strategy}): the only strategy there is. */
  public static final String STRATEGY = "sha256(normalized_address + bounding_box)";

  private IdempotencyKey() {}

  /**
   * The key of a normalized address and an optional bbox.
   *
   * @param normalizedAddress the output of {@link AddressNormalizer#normalize}
   * @param bbox the search box, or null for none; its {@link Bbox#canonical()} form (6 decimals)
   *     is hashed, so boxes equal to 6 decimals share a key
   * @return 64 lower-case hex digits
   */
  public static String of(String normalizedAddress, Bbox bbox) {
    return sha256Hex(normalizedAddress + "|" + (bbox == null ? "" : bbox.canonical()));
  }

  /** Lower-case hex sha256 of the UTF-8 bytes of {@code s}. */
  public static String sha256Hex(String s) {
    MessageDigest md = SHA256.get();
    md.reset();
    return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
  }
}
