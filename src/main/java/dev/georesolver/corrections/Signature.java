package dev.georesolver.corrections;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Webhook signatures: {@code X-Georesolver-Timestamp: <unix seconds>} and
 * {@code X-Georesolver-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">} with the
 * webhook's secret, so a receiver can tell a correction came from this resolver, was not altered,
 * and was signed recently: it refuses a timestamp outside its window ({@link #DEFAULT_WINDOW_S}
 * either side of its clock), so a captured delivery cannot be replayed later. Pure and thread-safe.
 */
public final class Signature {

  /** The header that carries it. */
  public static final String HEADER = "X-Georesolver-Signature";
  /** The header that carries the signed timestamp, whole seconds since the epoch. */
  public static final String TIMESTAMP_HEADER = "X-Georesolver-Timestamp";
  /** The window a receiver should allow either side of its clock, seconds: 5 minutes. */
  public static final long DEFAULT_WINDOW_S = 300;

  private Signature() {}

  /** {@code sha256=<hex>} of {@code "<timestampS>.<body>"} under {@code secret}. */
  public static String of(String secret, long timestampS, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((timestampS + ".").getBytes(StandardCharsets.US_ASCII));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /**
   * Whether a delivery is authentic and fresh, as a receiver checks it: {@code timestampHeader} a
   * whole number within {@code windowS} of {@code nowS}, and {@code header} the signature of it and
   * {@code body} under {@code secret} (constant-time compare).
   */
  public static boolean verify(String secret, String timestampHeader, byte[] body, String header, long nowS, long windowS) {
    if (header == null || timestampHeader == null) {
      return false;
    }
    long ts;
    try {
      ts = Long.parseLong(timestampHeader.strip());
    } catch (NumberFormatException e) {
      return false;
    }
    if (Math.abs(nowS - ts) > windowS) {
      return false;
    }
    return MessageDigest.isEqual(of(secret, ts, body).getBytes(StandardCharsets.US_ASCII), header.getBytes(StandardCharsets.US_ASCII));
  }
}
