package dev.georesolver.fuzz;

import dev.georesolver.fuzz.HostileRequests.Case;
import dev.georesolver.fuzz.HostileRequests.Sent;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The admin cases of the fuzz without tenants, where the admin surface answers only local callers:
 * every case of {@link HostileRequests}, and among them requests aimed at the admin surface — commands
 * without the header a page on another site cannot add (as a page the operator has open would send
 * them to this machine), requests that came through a proxy or name another host (DNS rebinding),
 * and commands sent on purpose. Case {@code i} of seed {@code s} is always the same bytes.
 */
final class HostileAdmin {

  private static final String[] READS = {"/manifest", "/dashboard/", "/v1/reconcile", "/v1/reconcile/dead", "/health/ready",
      "/v1/corrections?tenant=*"};
  private static final String[] AFAR = {"X-Forwarded-For: 203.0.113.9\r\n", "Forwarded: for=198.51.100.7\r\n",
      "X-Real-IP: 127.0.0.1\r\n", "X-Forwarded-For: 127.0.0.1\r\n"};
  private static final String[] FOREIGN_HOSTS = {"evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example",
      "[::1].evil.example", "0x7f000001", "2130706433", "127.1", "localhost:80:80"};

  private final long seed;
  private final HostileRequests requests;
  private final long budgetMs;

  HostileAdmin(long seed, HostileRequests requests, long budgetMs) {
    this.seed = seed;
    this.requests = requests;
    this.budgetMs = budgetMs;
  }

  /** Case {@code i}. */
  Case generate(long i) {
    SplittableRandom r = new SplittableRandom((seed ^ 0xA5A5_0D17L) * 0x9E3779B97F4A7C15L + i);
    if (r.nextInt(100) >= 15) {
      return requests.generate(i);
    }
    String command = HostileAuth.COMMANDS[r.nextInt(HostileAuth.COMMANDS.length)];
    return switch (r.nextInt(4)) {
      case 0 -> request(i, "admin, open: command unmarked", "POST", command, "localhost",
          HostileAuth.UNMARKED_TYPES[r.nextInt(HostileAuth.UNMARKED_TYPES.length)], Sent.UNMARKED);
      case 1 -> request(i, "admin, open: command through a proxy", "POST", command, "localhost",
          AFAR[r.nextInt(AFAR.length)] + "X-Requested-By: fuzz\r\n", Sent.AFAR);
      case 2 -> {
        boolean proxied = r.nextBoolean();
        String host = proxied ? "127.0.0.1" : FOREIGN_HOSTS[r.nextInt(FOREIGN_HOSTS.length)];
        yield request(i, "admin, open: read " + (proxied ? "through a proxy" : "under a foreign Host"), "GET",
            READS[r.nextInt(READS.length)], host, proxied ? AFAR[r.nextInt(AFAR.length)] : "", Sent.AFAR);
      }
      default -> request(i, "admin, open: command sent on purpose", "POST", command, r.nextBoolean() ? "localhost" : "127.0.0.1",
          r.nextBoolean() ? "X-Requested-By: fuzz\r\n" : "Content-Type: application/json; charset=utf-8\r\n", Sent.NOTHING);
    };
  }

  private Case request(long i, String kind, String method, String target, String host, String headers, Sent sent) {
    String head = method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n" + headers;
    byte[] bytes = method.equals("POST")
        ? (head + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1)
        : (head + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    return new Case(i, kind, bytes, budgetMs, true, sent);
  }
}
