package dev.georesolver.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Hides what may be a credential written into the manifest itself (a static {@code Authorization}
 * header, a key in an endpoint's query or user-info) when the effective configuration is shown.
 * Credentials proper ({@code credential:}) are never in the manifest: only where they come from.
 */
final class Redaction {

  /** What is shown instead of a hidden value. */
  static final String REDACTED = "[redacted]";

  private static final Pattern SENSITIVE =
      Pattern.compile("auth|key|token|secret|passw|cookie|signature|credential|session");
  private static final Pattern USER_INFO = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/?#@]*@");

  private Redaction() {}

  /** Whether a header or parameter of this name may carry a credential. */
  static boolean sensitive(String name) {
    return SENSITIVE.matcher(name.toLowerCase(Locale.ROOT)).find();
  }

  /** The headers with the values of credential-like ones hidden. */
  static Object headers(Map<String, String> headers) {
    Map<String, Object> out = new LinkedHashMap<>();
    headers.forEach((k, v) -> out.put(k, sensitive(k) ? REDACTED : v));
    return new io.vertx.core.json.JsonObject(out);
  }

  /** The URL with its user-info and the values of credential-like query parameters hidden. */
  static Object url(String url) {
    String out = USER_INFO.matcher(url).replaceFirst("$1" + REDACTED + "@");
    int q = out.indexOf('?');
    if (q < 0) {
      return out;
    }
    int hash = out.indexOf('#', q);
    String query = hash < 0 ? out.substring(q + 1) : out.substring(q + 1, hash);
    StringBuilder sb = new StringBuilder(out.substring(0, q + 1));
    String sep = "";
    for (String pair : query.split("&", -1)) {
      int eq = pair.indexOf('=');
      sb.append(sep).append(eq >= 0 && sensitive(pair.substring(0, eq)) ? pair.substring(0, eq + 1) + REDACTED : pair);
      sep = "&";
    }
    return sb.append(hash < 0 ? "" : out.substring(hash)).toString();
  }
}
