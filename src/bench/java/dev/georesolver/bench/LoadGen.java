package dev.georesolver.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import org.HdrHistogram.Histogram;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-loop HTTP load generator: requests leave at a fixed rate whatever the server does, and
 * each one's latency is measured from the moment it <em>should</em> have left, so a server that
 * stalls is charged for every request it delayed (the coordinated-omission correction that wrk2
 * makes; plain wrk is closed-loop and cannot hold a rate).
 *
 * <p>How: a sender thread wakes at each request's slot ({@code start + i / rate}) and hands the
 * requests due to one event loop, which sends them on a keep-alive pool of {@code --connections} connections with
 * an unbounded wait queue (a request waiting for a connection is still being timed). Latencies go
 * into an HdrHistogram (microseconds, 3 significant digits). A response counts as good when its
 * status is 2xx and its body holds the target's marker string.
 *
 * <pre>
 * loadgen rate  --rate R --duration-s 10 --warmup-s 3 [--prewarm-s 3] --rounds 3 --connections 128 --tag T
 *               --target NAME URL_PREFIX MARKER [--target ...]
 *     First every target once for the pre-warm time (not recorded); then each round runs every
 *     target in turn: warm-up at R (not recorded), then R for the duration.
 *     URL_PREFIX gets a unique address appended (e.g. ...?q= + "1234 Bench St T3pass"), so no
 *     request is ever a replay. Prints one RESULT line per round and target.
 * loadgen burst --url URL --n 1000 [--marker M]
 *     Opens N connections and sends N identical requests at once; prints one RESULT line with the
 *     statuses, how many answers say "coalesced" or "replayed", and the slowest.
 * </pre>
 */
public final class LoadGen {

  private final Vertx vertx;

  private LoadGen(Vertx vertx) {
    this.vertx = vertx;
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("loadgen rate|burst ...");
    }
    Flags f = Flags.parse(java.util.Arrays.copyOfRange(args, 1, args.length), Map.of("target", 3));
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    LoadGen g = new LoadGen(vertx);
    int status;
    try {
      status = switch (args[0]) {
        case "rate" -> g.rate(f);
        case "burst" -> g.burst(f);
        default -> throw new IllegalArgumentException("unknown mode " + args[0]);
      };
    } finally {
      vertx.close().await();
    }
    System.exit(status);
  }

  /** One target of a rate run. */
  private record Target(String name, URI prefix, String marker) {}

  /** What one timed phase saw. */
  private static final class Tally {
    final Histogram latencyUs = new Histogram(120_000_000L, 3);
    long sent;
    long good;
    long non2xx;
    long badBody;
    long errors;
    long firstError;
    String errorSample;
  }

  private int rate(Flags f) throws Exception {
    double rate = f.number("rate", 1000);
    int durationS = f.integer("duration-s", 10);
    int warmupS = f.integer("warmup-s", 3);
    int rounds = f.integer("rounds", 3);
    int connections = f.integer("connections", 128);
    String tag = f.get("tag", Long.toString(System.currentTimeMillis() % 100_000, 36));
    List<Target> targets = new ArrayList<>();
    List<String> t = f.all("target");
    for (int i = 0; i + 2 < t.size(); i += 3) {
      targets.add(new Target(t.get(i), URI.create(t.get(i + 1)), t.get(i + 2)));
    }
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("at least one --target NAME URL_PREFIX MARKER");
    }
    int prewarmS = f.integer("prewarm-s", warmupS);
    if (prewarmS > 0) {
      // Once per target before the first round, so round 1 does not meet a cold generator.
      for (Target target : targets) {
        HttpClientAgent client = client(target.prefix(), connections);
        try {
          run(client, target, rate, prewarmS, tag + "pre" + target.name()).await();
        } finally {
          client.close().await();
        }
      }
    }
    int bad = 0;
    for (int round = 1; round <= rounds; round++) {
      for (Target target : targets) {
        HttpClientAgent client = client(target.prefix(), connections);
        try {
          String unique = tag + "r" + round + target.name();
          if (warmupS > 0) {
            run(client, target, rate, warmupS, unique + "w").await();
          }
          long t0 = System.nanoTime();
          Tally tally = run(client, target, rate, durationS, unique).await();
          double seconds = (System.nanoTime() - t0) / 1e9;
          Histogram h = tally.latencyUs;
          System.out.printf(Locale.ROOT,
              "RESULT mode=rate round=%d target=%s rate=%.0f sent=%d good=%d non2xx=%d bad_body=%d errors=%d achieved_rps=%.0f"
                  + " p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f%n",
              round, target.name(), rate, tally.sent, tally.good, tally.non2xx, tally.badBody, tally.errors,
              tally.good / seconds, ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9), h.getMaxValue() / 1000.0);
          if (tally.errorSample != null) {
            System.out.println("ERROR-SAMPLE target=" + target.name() + " " + tally.errorSample);
          }
          if (tally.good != tally.sent) {
            bad++;
          }
        } finally {
          client.close().await();
        }
      }
    }
    return bad == 0 ? 0 : 3;
  }

  private static double ms(Histogram h, double percentile) {
    return h.getValueAtPercentile(percentile) / 1000.0;
  }

  private HttpClientAgent client(URI base, int connections) {
    return vertx.httpClientBuilder()
        .with(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true)
            .setDefaultHost(base.getHost()).setDefaultPort(base.getPort()))
        .with(new PoolOptions().setHttp1MaxSize(connections).setMaxWaitQueueSize(-1))
        .build();
  }

  /**
   * Sends {@code rate × seconds} requests on schedule; completes when the last one is answered.
   *
   * <p>A sender thread sleeps ({@code parkNanos}) until the next request's slot and hands every
   * request that is due to the event loop in one batch; when it falls behind it sends at once, so
   * the offered rate holds. Latency is counted from the slot, not from the actual send.
   */
  private Future<Tally> run(HttpClientAgent client, Target target, double rate, int seconds, String unique) {
    Promise<Tally> done = Promise.promise();
    Tally tally = new Tally();
    long total = Math.max(1, Math.round(rate * seconds));
    double intervalNs = 1e9 / rate;
    String prefix = target.prefix().getRawPath() + (target.prefix().getRawQuery() == null ? "" : "?" + target.prefix().getRawQuery());
    Context ctx = vertx.getOrCreateContext();
    long[] outstanding = {0};
    Thread sender = new Thread(() -> {
      long start = System.nanoTime();
      long next = 0;
      while (next < total) {
        long now = System.nanoTime();
        long due = Math.min(total, (long) ((now - start) / intervalNs) + 1);
        if (due <= next) {
          LockSupport.parkNanos(start + (long) (next * intervalNs) - now);
          continue;
        }
        long from = next;
        long to = due;
        next = due;
        ctx.runOnContext(v -> {
          for (long i = from; i < to; i++) {
            tally.sent++;
            outstanding[0]++;
            long intended = start + (long) (i * intervalNs);
            String uri = prefix + i + "%20Bench%20St%20" + unique;
            send(client, uri, target.marker(), intended, tally).onComplete(ar -> {
              outstanding[0]--;
              if (tally.sent == total && outstanding[0] == 0) {
                done.tryComplete(tally);
              }
            });
          }
        });
      }
    }, "loadgen-sender");
    sender.setDaemon(true);
    sender.start();
    return done.future();
  }

  private static Future<Void> send(HttpClientAgent client, String uri, String marker, long intendedNanos, Tally tally) {
    RequestOptions o = new RequestOptions().setMethod(HttpMethod.GET).setURI(uri).setIdleTimeout(30_000);
    return client.request(o)
        .compose(req -> req.send())
        .compose(resp -> resp.body().map(b -> {
          tally.latencyUs.recordValue(Math.max(0, (System.nanoTime() - intendedNanos) / 1000));
          judge(resp, b, marker, tally);
          return (Void) null;
        }))
        .recover(t -> {
          tally.latencyUs.recordValue(Math.max(0, (System.nanoTime() - intendedNanos) / 1000));
          tally.errors++;
          if (tally.errorSample == null) {
            tally.errorSample = String.valueOf(t);
          }
          return Future.succeededFuture();
        });
  }

  private static void judge(HttpClientResponse resp, Buffer body, String marker, Tally tally) {
    int s = resp.statusCode();
    if (s < 200 || s > 299) {
      tally.non2xx++;
      if (tally.errorSample == null) {
        tally.errorSample = "HTTP " + s + ": " + truncate(body.toString());
      }
    } else if (marker != null && !marker.isEmpty() && !body.toString().contains(marker)) {
      tally.badBody++;
      if (tally.errorSample == null) {
        tally.errorSample = "body without " + marker + ": " + truncate(body.toString());
      }
    } else {
      tally.good++;
    }
  }

  private static String truncate(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "…";
  }

  private int burst(Flags f) throws Exception {
    URI url = URI.create(f.required("url"));
    int n = f.integer("n", 1000);
    String marker = f.get("marker", "\"status\":\"resolved\"");
    HttpClientAgent client = client(url, n);
    String uri = url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
    Tally tally = new Tally();
    long[] coalesced = {0};
    long[] replayed = {0};
    List<Future<Void>> all = new ArrayList<>(n);
    Promise<Void> fired = Promise.promise();
    long t0 = System.nanoTime();
    vertx.runOnContext(v -> {
      for (int i = 0; i < n; i++) {
        tally.sent++;
        RequestOptions o = new RequestOptions().setMethod(HttpMethod.GET).setURI(uri).setIdleTimeout(30_000);
        all.add(client.request(o)
            .compose(req -> req.send())
            .compose(resp -> resp.body().map(b -> {
              tally.latencyUs.recordValue((System.nanoTime() - t0) / 1000);
              judge(resp, b, marker, tally);
              String s = b.toString();
              if (s.contains("\"coalesced\":true")) {
                coalesced[0]++;
              }
              if (s.contains("\"replayed\":true")) {
                replayed[0]++;
              }
              return (Void) null;
            }))
            .recover(t -> {
              tally.errors++;
              if (tally.errorSample == null) {
                tally.errorSample = String.valueOf(t);
              }
              return Future.succeededFuture();
            }));
      }
      fired.complete();
    });
    fired.future().await();
    Future.join(new ArrayList<>(all)).await();
    client.close().await();
    System.out.printf(Locale.ROOT,
        "RESULT mode=burst n=%d good=%d non2xx=%d bad_body=%d errors=%d coalesced=%d replayed=%d p50_ms=%.1f max_ms=%.1f%n",
        n, tally.good, tally.non2xx, tally.badBody, tally.errors, coalesced[0], replayed[0],
        tally.latencyUs.getValueAtPercentile(50) / 1000.0, tally.latencyUs.getMaxValue() / 1000.0);
    if (tally.errorSample != null) {
      System.out.println("ERROR-SAMPLE " + tally.errorSample);
    }
    return tally.good == n ? 0 : 3;
  }
}
