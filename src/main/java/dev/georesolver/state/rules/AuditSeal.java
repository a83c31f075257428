package dev.georesolver.state.rules;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * What makes the audit trail checkable without trusting the database that holds it: the parts of a
 * tenant's trail a database administrator could otherwise rewrite at will — where the chain starts
 * (its retention anchor) and that the tenant's trail was opened at all — carry an HMAC-SHA256 under
 * a deployment secret that is never stored with the data, and the idempotency key a record names is
 * a keyed hash under the same secret (an unsalted digest of an address is reversed with a
 * dictionary). Two keys are derived from the one secret, one per purpose, so a signature can never
 * stand for a keyed hash. Pure and thread-safe.
 *
 * <ul>
 *   <li><b>Anchor</b>: {@code HMAC(anchorKey, "anchor\n" + tenant + "\n" + seq + "\n" + hash + "\n" + ts_ms)},
 *       where {@code ts_ms} is when the last removed record happened: a verifier recomputes it, and
 *       checks that {@code ts_ms} is older than the retention period (retention never removes a
 *       younger record).
 *   <li><b>Opened</b>: {@code HMAC(anchorKey, "opened\n" + tenant + "\n" + at_ms)}: the tenant's trail
 *       exists, so a trail deleted whole is found.
 *   <li><b>Keyed idempotency key</b>: {@code HMAC(idKey, key)} in hex, replacing the plain key in the
 *       record's body before it is chained ({@link #keyIdempotency}).
 * </ul>
 */
public final class AuditSeal {

  private static final HexFormat HEX = HexFormat.of();

  private AuditSeal() {}

  /** The key for {@code purpose} derived from the deployment {@code secret}: HMAC(secret, purpose). */
  public static byte[] derive(byte[] secret, String purpose) {
    return mac(secret, purpose.getBytes(StandardCharsets.UTF_8));
  }

  /** The anchor's signature, in hex. */
  public static String anchor(byte[] key, String tenant, long seq, String hash, long tsMs) {
    return hex(key, "anchor\n" + tenant + "\n" + seq + "\n" + hash + "\n" + tsMs);
  }

  /** The opened marker's signature, in hex. */
  public static String opened(byte[] key, String tenant, long atMs) {
    return hex(key, "opened\n" + tenant + "\n" + atMs);
  }

  /** Whether {@code sig} equals {@code expected}, in constant time (null never does). */
  public static boolean same(String sig, String expected) {
    return sig != null && MessageDigest.isEqual(sig.getBytes(StandardCharsets.US_ASCII), expected.getBytes(StandardCharsets.US_ASCII));
  }

  /** The keyed form of an idempotency key: 64 lower-case hex digits. */
  public static String keyed(byte[] key, String idempotencyKey) {
    return hex(key, idempotencyKey);
  }

  /**
   * {@code body} (a record's canonical JSON) with its top-level {@code "idempotency_key"} value, a
   * plain key of 64 hex digits, replaced by its keyed form; unchanged when it has none or it is not
   * a plain key. The value is a bare hex string, so the text is still canonical JSON (same key
   * order, no escapes).
   */
  public static String keyIdempotency(byte[] key, String body) {
    String field = "\"idempotency_key\":\"";
    int at = topLevel(body, field);
    if (at < 0) {
      return body;
    }
    int from = at + field.length();
    int end = from + 64;
    if (end >= body.length() || body.charAt(end) != '"' || !hex64(body, from)) {
      return body;
    }
    return body.substring(0, from) + keyed(key, body.substring(from, end)) + body.substring(end);
  }

  /** Where {@code field} starts as a member of the top-level object of {@code json}, or -1. */
  private static int topLevel(String json, String field) {
    int depth = 0;
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      if (c == '"') {
        if (depth == 1 && json.startsWith(field, i)) {
          return i;
        }
        inString = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        depth--;
      }
    }
    return -1;
  }

  private static boolean hex64(String s, int from) {
    for (int i = from; i < from + 64; i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  private static String hex(byte[] key, String text) {
    return HEX.formatHex(mac(key, text.getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] mac(byte[] key, byte[] text) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(new SecretKeySpec(key, "HmacSHA256"));
      return m.doFinal(text);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no HmacSHA256", e);
    }
  }
}
