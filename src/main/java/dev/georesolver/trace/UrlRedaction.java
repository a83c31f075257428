package dev.georesolver.trace;

/**
 * A provider URL as a span may carry it ({@code url.full}): no {@code user:password@}, every query
 * value replaced by {@code REDACTED} (the names kept), no fragment. A credential placed in the query
 * (any parameter name) and the address being looked up both stay out of the trace. Pure; thread-safe.
 */
public final class UrlRedaction {

  /** What a redacted value reads as, the word the semantic conventions use. */
  public static final String REDACTED = "REDACTED";

  private UrlRedaction() {}

  /** {@code url} redacted; at most 1024 characters. */
  public static String redact(String url) {
    int scheme = url.indexOf("://");
    int authStart = scheme < 0 ? 0 : scheme + 3;
    int authEnd = authStart;
    while (authEnd < url.length() && "/?#".indexOf(url.charAt(authEnd)) < 0) {
      authEnd++;
    }
    int at = url.lastIndexOf('@', authEnd - 1);
    StringBuilder b = new StringBuilder(Math.min(url.length(), 1024));
    b.append(url, 0, authStart).append(url, at >= authStart ? at + 1 : authStart, authEnd);
    int q = url.indexOf('?', authEnd);
    int hash = url.indexOf('#', authEnd);
    int pathEnd = q >= 0 ? q : hash >= 0 ? hash : url.length();
    b.append(url, authEnd, pathEnd);
    if (q >= 0) {
      int end = hash > q ? hash : url.length();
      b.append('?');
      String[] pairs = url.substring(q + 1, end).split("&", -1);
      for (int i = 0; i < pairs.length; i++) {
        if (i > 0) {
          b.append('&');
        }
        int eq = pairs[i].indexOf('=');
        b.append(eq < 0 ? pairs[i] : pairs[i].substring(0, eq)).append('=').append(REDACTED);
      }
    }
    return b.length() <= 1024 ? b.toString() : b.substring(0, 1024);
  }
}
