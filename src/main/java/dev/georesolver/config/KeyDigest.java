package dev.georesolver.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The sha256 of a tenant's key: all the resolver keeps of it. Immutable and thread-safe (its bytes
 * are never handed out); {@link #toString()} shows no digit of it.
 */
public final class KeyDigest {

  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  });

  private final byte[] digest;

  private KeyDigest(byte[] digest) {
    this.digest = digest;
  }

  /** The digest of a presented key: sha256 of its UTF-8 bytes. */
  public static KeyDigest of(String key) {
    return new KeyDigest(sha256(key));
  }

  /** A digest written as 64 hex digits (either case). */
  public static KeyDigest ofHex(String hex) {
    return new KeyDigest(HexFormat.of().parseHex(hex));
  }

  /** sha256 of {@code key}'s UTF-8 bytes, with this thread's digest. */
  public static byte[] sha256(String key) {
    return SHA256.get().digest(key.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The first eight bytes of this digest as a number, to index digests by (see
   * {@link #prefixOf}); what it reveals is a hash's, never the key's.
   */
  public long prefix() {
    return prefixOf(digest);
  }

  /** The first eight bytes of a sha256 digest as a number. */
  public static long prefixOf(byte[] sha256) {
    long p = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      p = p << 8 | (sha256[i] & 0xFF);
    }
    return p;
  }

  /** Whether {@code other} is this digest, in time that does not depend on where they differ. */
  public boolean matches(byte[] other) {
    return MessageDigest.isEqual(digest, other);
  }

  /** Whether two digests are the same key (for the loader's check that no key serves two tenants). */
  boolean sameAs(KeyDigest other) {
    return MessageDigest.isEqual(digest, other.digest);
  }

  @Override
  public String toString() {
    return "KeyDigest[redacted]";
  }
}
