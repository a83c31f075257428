package dev.georesolver.compat;

/**
 * The key a compatible request presents, if any. Immutable; {@link #toString()} never shows the key.
 *
 * @param key the key, or null when the request carries none
 * @param where where it came from: {@code authorization}, {@code x-api-key}, {@code key} (the
 *     Google query parameter), {@code basic} (HTTP Basic, operator pages only), or {@code none}
 */
public record Credentials(String key, String where) {

  /** {@link #where} of a key given as HTTP Basic credentials (operator pages only). */
  public static final String BASIC = "basic";

  /** A request without a key. */
  public static final Credentials NONE = new Credentials(null, "none");

  /**
   * The key of a request from its headers: {@code Authorization: Bearer <key>} first, else
   * {@code X-Api-Key}. Blank values count as absent.
   */
  public static Credentials fromHeaders(String authorization, String xApiKey) {
    if (authorization != null) {
      String a = authorization.strip();
      if (a.regionMatches(true, 0, "Bearer ", 0, 7) && !a.substring(7).isBlank()) {
        return new Credentials(a.substring(7).strip(), "authorization");
      }
    }
    if (xApiKey != null && !xApiKey.isBlank()) {
      return new Credentials(xApiKey.strip(), "x-api-key");
    }
    return NONE;
  }
  /**
   * The key of a request to the operator's pages ({@code /admin/*}, {@code /dashboard}): as
   * {@link #fromHeaders}, and also as HTTP Basic credentials, which a browser sends by itself once
   * asked — also on the dashboard's {@code EventSource}, which cannot set an {@code Authorization}
   * header. The API itself takes no Basic credentials (a key in a login prompt is for operators).
   */
  public static Credentials fromOperatorHeaders(String authorization, String xApiKey) {
    if (authorization != null) {
      String a = authorization.strip();
      if (a.regionMatches(true, 0, "Basic ", 0, 6)) {
        String key = basicPassword(a.substring(6).strip());
        return key == null ? NONE : new Credentials(key, BASIC);
      }
    }
    return fromHeaders(authorization, xApiKey);
  }

  /**
   * The key in HTTP Basic credentials ({@code base64(user:key)}): the password part, or the user part
   * when the password is empty; the user name means nothing. Null when the value is not Base64 of
   * UTF-8 with a colon.
   */
  static String basicPassword(String encoded) {
    byte[] raw;
    try {
      raw = java.util.Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      return null;
    }
    String pair = new String(raw, java.nio.charset.StandardCharsets.UTF_8);
    int colon = pair.indexOf(':');
    if (colon < 0) {
      return null;
    }
    String password = pair.substring(colon + 1);
    String key = password.isEmpty() ? pair.substring(0, colon) : password;
    return key.isBlank() ? null : key;
  }


  /** As {@link #fromHeaders}, with the Google {@code key=} query parameter taking precedence. */
  public static Credentials google(String keyParam, String authorization, String xApiKey) {
    if (keyParam != null && !keyParam.isBlank()) {
      return new Credentials(keyParam.strip(), "key");
    }
    return fromHeaders(authorization, xApiKey);
  }

  @Override
  public String toString() {
    return "Credentials[" + (key == null ? "no key" : "key from " + where) + "]";
  }
}
