package dev.georesolver.shadow;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The identity a shadow sample keeps of its request: a keyed hash (HMAC-SHA256, truncated to 128
 * bits, 32 lower-case hex digits) of the request's idempotency key. The idempotency key is itself an
 * unkeyed sha256 of the normalized address, so anyone holding a candidate address could confirm it;
 * under a secret key that is no longer possible, while the same request still gets the same id on
 * every node that shares the secret (to group samples of one address, or to find a kept
 * disagreement again).
 *
 * <p>Immutable and thread-safe; the secret is never handed out and {@link #toString()} shows none
 * of it.
 */
public final class KeyHasher {

  /** The shape of an id: 32 lower-case hex digits. */
  public static final Pattern ID = Pattern.compile("[0-9a-f]{32}");

  private static final String ALGORITHM = "HmacSHA256";
  private static final int MIN_SECRET_BYTES = 16;
  private static final int ID_BYTES = 16;
  /** Kept apart from any other use of the same secret. */
  private static final byte[] DOMAIN = "georesolver.shadow.v1|".getBytes(StandardCharsets.UTF_8);

  private final SecretKeySpec key;
  /** Initialised once and never updated: each call works on a clone (cheaper than a new Mac). */
  private final Mac prototype;

  /**
   * @param secret at least 16 bytes; copied
   * @throws IllegalArgumentException when the secret is shorter
   */
  public KeyHasher(byte[] secret) {
    Objects.requireNonNull(secret, "secret");
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException("a shadow key secret needs at least " + MIN_SECRET_BYTES + " bytes");
    }
    this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
    this.prototype = newMac();
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      mac.update(DOMAIN);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  private Mac mac() {
    try {
      return (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      return newMac();
    }
  }

  /** The id of the request whose idempotency key is {@code idempotencyKey}. */
  public String idOf(String idempotencyKey) {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    byte[] full = mac().doFinal(idempotencyKey.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(full, 0, ID_BYTES);
  }

  /** The first 64 bits of an id, a uniform number for {@link Sampler#decide(long)}. */
  public static long bitsOf(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException("not a shadow sample id");
    }
    return Long.parseUnsignedLong(id.substring(0, 16), 16);
  }

  @Override
  public String toString() {
    return "KeyHasher[HmacSHA256, secret hidden]";
  }
}
