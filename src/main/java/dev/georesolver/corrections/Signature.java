package dev.georesolver.corrections;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * Webhook signatures: {@code X-Georesolver-Signature: sha256=<hex HMAC-SHA256 of the body>} with
 * the webhook's secret, so a receiver can tell a correction came from this resolver and was not
 * altered. Pure and thread-safe.
 */
public final class Signature {

  /** The header that carries it. */
  public static final String HEADER = "X-Georesolver-Signature";

  private Signature() {}

  /** {@code sha256=<hex>} of {@code body} under {@code secret}. */
  public static String of(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** Whether {@code header} is the signature of {@code body} under {@code secret} (constant-time compare). */
  public static boolean verify(String secret, byte[] body, String header) {
    if (header == null) {
      return false;
    }
    return MessageDigest.isEqual(of(secret, body).getBytes(StandardCharsets.US_ASCII), header.getBytes(StandardCharsets.US_ASCII));
  }
}
