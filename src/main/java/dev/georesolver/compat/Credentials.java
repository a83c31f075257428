package dev.georesolver.compat;

/**
 * The key a compatible request presents, if any. Immutable; {@link #toString()} never shows the key.
 *
 * @param key the key, or null when the request carries none
 * @param where where it came from: {@code authorization}, {@code x-api-key}, {@code key} (the
 *     Google query parameter), or {@code none}
 */
public record Credentials(String key, String where) {

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
