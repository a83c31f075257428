package dev.georesolver.web;

import java.util.Locale;

/**
 * Whether a request comes from this machine, for the one decision that depends on it: without an
 * admin key configured, the admin surface answers only such requests. Pure and thread-safe; no
 * name is ever resolved (only IP literals are read).
 *
 * <p>A request is local when all three hold:
 *
 * <ul>
 *   <li>its peer is a loopback address ({@code 127.0.0.0/8}, {@code ::1}, or an IPv4-mapped
 *       {@code ::ffff:127.x.y.z});
 *   <li>it carries no {@code Forwarded}, {@code X-Forwarded-For} or {@code X-Real-IP} header: a
 *       reverse proxy on the same machine makes every caller look local, and says so with those;
 *   <li>its {@code Host} names this machine ({@code localhost}, a {@code *.localhost} name, a
 *       loopback literal) or is absent: a page whose own name was re-pointed at 127.0.0.1 (DNS
 *       rebinding) sends its own name as {@code Host}.
 * </ul>
 */
public final class LocalCaller {

  private LocalCaller() {}

  /**
   * Whether a request with this peer address and these headers is local (see the class comment).
   *
   * @param peerIp the peer's IP literal ({@code HttpServerRequest.remoteAddress().hostAddress()}); null counts as not local
   * @param host the {@code Host} header, or null
   * @param forwarded whether any of {@code Forwarded}, {@code X-Forwarded-For}, {@code X-Real-IP} is present
   */
  public static boolean isLocal(String peerIp, String host, boolean forwarded) {
    return !forwarded && isLoopbackIp(peerIp) && (host == null || isLoopbackHost(host));
  }

  /** Whether {@code ip} is an IP literal of the loopback network. */
  public static boolean isLoopbackIp(String ip) {
    if (ip == null || ip.isEmpty()) {
      return false;
    }
    String a = ip.toLowerCase(Locale.ROOT);
    if (a.startsWith("[") && a.endsWith("]")) {
      a = a.substring(1, a.length() - 1);
    }
    int zone = a.indexOf('%');
    if (zone >= 0) {
      a = a.substring(0, zone);
    }
    if (a.equals("::1") || a.equals("0:0:0:0:0:0:0:1")) {
      return true;
    }
    for (String mapped : new String[] {"::ffff:", "0:0:0:0:0:ffff:"}) {
      if (a.startsWith(mapped)) {
        a = a.substring(mapped.length());
        break;
      }
    }
    return isIpv4In127(a);
  }

  /** Whether a {@code Host} header value (name or literal, with or without port) names this machine. */
  public static boolean isLoopbackHost(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int close = h.indexOf(']');
      return close > 0 && isLoopbackIp(h.substring(1, close)) && portOrNothing(h.substring(close + 1));
    }
    int colon = h.indexOf(':');
    String name = colon < 0 ? h : h.substring(0, colon);
    if (colon >= 0 && !portOrNothing(h.substring(colon))) {
      return false;
    }
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    return name.equals("localhost") || name.endsWith(".localhost") || isIpv4In127(name);
  }

  private static boolean portOrNothing(String rest) {
    if (rest.isEmpty()) {
      return true;
    }
    if (rest.charAt(0) != ':' || rest.length() < 2 || rest.length() > 6) {
      return false;
    }
    return rest.substring(1).chars().allMatch(c -> c >= '0' && c <= '9');
  }

  /** Whether {@code a} is a dotted-quad IPv4 literal in {@code 127.0.0.0/8}. */
  private static boolean isIpv4In127(String a) {
    String[] parts = a.split("\\.", -1);
    if (parts.length != 4 || !parts[0].equals("127")) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9') || Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }
}
