import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reconcile failover drill against a running resolver (run by scripts/drill-reconcile.sh on the
 * resolver's own classpath, for its JSON reader). It starts a stand-in primary (exact) and fallback
 * (open data) speaking the generic contract, a webhook receiver that checks signatures, Redis when
 * asked, and the resolver itself; makes the primary hang under steady traffic of distinct addresses,
 * lets it recover, optionally kills the resolver (SIGKILL) in the middle of the drain and starts it
 * again, and prints a report. Exit status 0 when every check passed, 1 otherwise.
 */
public final class ReconcileDrill {

  static final String SECRET = "drill-webhook-secret";
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  // ---- stand-ins --------------------------------------------------------------------------------

  static volatile boolean hang;
  static final Map<String, Set<String>> keysSeen = new ConcurrentHashMap<>();
  static final AtomicInteger primaryCalls = new AtomicInteger();
  static final List<JsonObject> webhook = new CopyOnWriteArrayList<>();
  static final AtomicInteger badSignatures = new AtomicInteger();

  static HttpServer provider(boolean primary) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    s.setExecutor(Executors.newCachedThreadPool());
    s.createContext("/", x -> {
      String q = query(x.getRequestURI().getRawQuery()).getOrDefault("q", "");
      if (primary) {
        primaryCalls.incrementAndGet();
        keysSeen.computeIfAbsent(q, k -> ConcurrentHashMap.newKeySet()).add(String.valueOf(x.getRequestHeaders().getFirst("Idempotency-Key")));
        if (hang) {
          return; // never answers: the resolver's timeout ends the call
        }
      }
      double shift = primary ? 0 : 0.01;
      int n = Math.abs(q.hashCode() % 1000);
      send(x, 200, String.format(Locale.ROOT, "{\"x\":%.6f,\"y\":%.6f,\"crs\":\"EPSG:4326\",\"confidence\":%s}",
          10 + n / 1000.0 + shift, 50 + shift, primary ? "0.95" : "0.6"));
    });
    s.start();
    return s;
  }

  static HttpServer webhookReceiver() throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    s.createContext("/", x -> {
      byte[] body = x.getRequestBody().readAllBytes();
      String sig = x.getRequestHeaders().getFirst("X-Georesolver-Signature");
      String ts = x.getRequestHeaders().getFirst("X-Georesolver-Timestamp");
      // The receiver's check: the timestamp within five minutes of its clock, the HMAC over "<timestamp>.<body>".
      boolean fresh = ts != null && ts.matches("[0-9]{1,12}") && Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(ts)) <= 300;
      if (!fresh || !sign(ts, body).equals(sig)) {
        badSignatures.incrementAndGet();
      }
      webhook.add(new JsonObject(new String(body, StandardCharsets.UTF_8)));
      send(x, 200, "");
    });
    s.start();
    return s;
  }

  static String sign(String ts, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((ts + ".").getBytes(StandardCharsets.US_ASCII));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static void send(HttpExchange x, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "application/json");
    x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
    if (b.length > 0) {
      x.getResponseBody().write(b);
    }
    x.close();
  }

  static Map<String, String> query(String raw) {
    Map<String, String> m = new LinkedHashMap<>();
    if (raw != null) {
      for (String kv : raw.split("&")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          m.put(kv.substring(0, eq), java.net.URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return m;
  }

  // ---- the resolver ------------------------------------------------------------------------------

  static Process startResolver(List<String> cmd, Path log) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().put("DRILL_WEBHOOK_SECRET", SECRET);
    Process p = pb.start();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < until) {
      if (!p.isAlive()) {
        throw new IOException("the resolver exited: see " + log);
      }
      if (get("/health/live") != null) {
        return p;
      }
      Thread.sleep(100);
    }
    throw new IOException("the resolver did not start within 60 s: see " + log);
  }

  static volatile int port;

  static JsonObject get(String path) {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
      String b = r.body().strip();
      return b.startsWith("{") ? new JsonObject(b) : new JsonObject().put("text", b);
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  static String metrics() {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).GET().build(),
          HttpResponse.BodyHandlers.ofString()).body();
    } catch (Exception e) {
      return "";
    }
  }

  static double metric(String text, String series) {
    for (String line : text.split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    return 0;
  }

  // ---- the stream --------------------------------------------------------------------------------

  static final Map<String, JsonObject> streamed = Collections.synchronizedMap(new LinkedHashMap<>());
  static volatile String lastEventId;
  static final AtomicInteger streamDuplicates = new AtomicInteger();

  static Thread stream() {
    Thread t = new Thread(() -> {
      try {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/corrections/stream")).GET();
        if (lastEventId != null) {
          b.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
          String line;
          String id = null;
          while ((line = in.readLine()) != null) {
            if (line.startsWith("id: ")) {
              id = line.substring(4);
            } else if (line.startsWith("data: ")) {
              JsonObject c = new JsonObject(line.substring(6));
              if (streamed.putIfAbsent(c.getString("correction_id"), c) != null) {
                streamDuplicates.incrementAndGet();
              }
              lastEventId = id;
            }
          }
        }
      } catch (Exception ended) {
        // the resolver went away (killed) or the drill is over
      }
    }, "drill-sse");
    t.setDaemon(true);
    t.start();
    return t;
  }

  // ---- traffic -----------------------------------------------------------------------------------

  record Answer(String q, JsonObject body, long ms) {}

  static Answer geocode(String q) {
    long t0 = System.nanoTime();
    JsonObject r = get("/v1/geocode?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8));
    return new Answer(q, r, (System.nanoTime() - t0) / 1_000_000);
  }

  static List<JsonObject> feed() {
    List<JsonObject> out = new ArrayList<>();
    String after = "0";
    for (int i = 0; i < 10_000; i++) {
      JsonObject p = get("/v1/corrections?limit=1000&after=" + after);
      if (p == null) {
        return out;
      }
      JsonArray cs = p.getJsonArray("corrections", new JsonArray());
      if (cs.isEmpty()) {
        return out;
      }
      cs.forEach(c -> out.add((JsonObject) c));
      after = p.getString("next");
    }
    return out;
  }

  static String primaryState() {
    JsonObject h = get("/health/ready");
    if (h == null) {
      return "unreachable";
    }
    for (Object t : h.getJsonArray("tiers", new JsonArray())) {
      JsonObject j = (JsonObject) t;
      if ("primary".equals(j.getString("tier"))) {
        return j.getString("state");
      }
    }
    return "unknown";
  }

  // ---- the drill ---------------------------------------------------------------------------------

  public static void main(String[] args) throws Exception {
    String backend = "sqlite";
    int outageS = 60;
    boolean kill = false;
    double rps = 10;
    double rate = 20;
    String classpath = null;
    Path dir = Path.of("target/drill");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--backend" -> backend = args[++i];
        case "--outage-s" -> outageS = Integer.parseInt(args[++i]);
        case "--kill" -> kill = true;
        case "--rps" -> rps = Double.parseDouble(args[++i]);
        case "--rate" -> rate = Double.parseDouble(args[++i]);
        case "--classpath" -> classpath = args[++i];
        case "--dir" -> dir = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Files.createDirectories(dir);
    Path log = dir.resolve("resolver.log");
    Files.deleteIfExists(log);
    Files.createFile(log);
    HttpServer primary = provider(true);
    HttpServer fallback = provider(false);
    HttpServer hook = webhookReceiver();
    Process redis = null;
    String redisUrl = null;
    if (backend.equals("redis")) {
      int rp;
      try (ServerSocket s = new ServerSocket(0)) {
        rp = s.getLocalPort();
      }
      Path rd = dir.resolve("redis");
      if (Files.exists(rd)) {
        try (var files = Files.walk(rd)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
      }
      Files.createDirectories(rd);
      redis = new ProcessBuilder("redis-server", "--port", Integer.toString(rp), "--bind", "127.0.0.1", "--appendonly", "yes",
          "--dir", rd.toAbsolutePath().toString(), "--save", "").redirectErrorStream(true)
          .redirectOutput(dir.resolve("redis.log").toFile()).start();
      Thread.sleep(500);
      redisUrl = "redis://127.0.0.1:" + rp;
    }
    Path state = dir.resolve("state.db").toAbsolutePath();
    for (String suffix : List.of("", "-wal", "-shm", ".lock")) {
      Files.deleteIfExists(Path.of(state + suffix));
    }
    Path manifest = dir.resolve("manifest.yaml");
    Files.writeString(manifest, String.format(Locale.ROOT, """
        routing:
          budget_ms: 1500
          idempotency: { deduplication_store: "%s" }
          tiers:
            - { name: primary, adapter: generic, endpoint: "http://127.0.0.1:%d/geocode", claim: exact, timeout_ms: 400,
                typical_ms: 30, circuit_breaker: { failure_threshold: 3, half_open_timeout_ms: 5000, success_threshold: 2 } }
            - { name: fallback, adapter: generic, endpoint: "http://127.0.0.1:%d/geocode", claim: open_data, timeout_ms: 1000,
                typical_ms: 20 }
        state: { path: "%s" }
        reconcile: { rate_per_s: %s, batch: 100, concurrency: 1, interval_ms: 2000, lease_ms: 4000, backoff_base_ms: 500, backoff_max_ms: 5000 }
        corrections:
          retry_base_ms: 200
          retry_max_ms: 2000
          webhooks: [ { url: "http://127.0.0.1:%d/hooks/geo", secret_env: DRILL_WEBHOOK_SECRET } ]
        """, redisUrl == null ? "memory" : "redis", primary.getAddress().getPort(), fallback.getAddress().getPort(), state,
        rate, hook.getAddress().getPort()));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
    if (classpath != null) {
      cmd.addAll(List.of("-cp", classpath, "dev.georesolver.cli.Main"));
    } else {
      cmd.addAll(List.of("-jar", "target/georesolver.jar"));
    }
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    cmd.addAll(List.of("--manifest", manifest.toString(), "--port", Integer.toString(port), "--event-loops", "2"));
    if (redisUrl != null) {
      cmd.addAll(List.of("--redis", redisUrl));
    }

    List<String> failures = new ArrayList<>();
    Process resolver = startResolver(cmd, log);
    System.out.printf("drill: backend %s, resolver on port %d (log %s), primary hangs for %d s under %.0f requests/s%n",
        backend, port, log, outageS, rps);
    stream();

    // Outage: the primary hangs; steady traffic of distinct addresses.
    hang = true;
    Map<String, String> queued = new LinkedHashMap<>();
    List<Long> outageMs = new ArrayList<>();
    long maxElapsed = 0;
    int notAnswered = 0;
    long pause = (long) (1000 / rps);
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(outageS);
    int n = 0;
    while (System.nanoTime() < end) {
      Answer a = geocode("drill " + n++ + " Station Road");
      if (a.body() == null || a.body().getString("status") == null) {
        notAnswered++;
        continue;
      }
      outageMs.add(a.ms());
      maxElapsed = Math.max(maxElapsed, a.body().getLong("elapsed_ms", 0L));
      String reason = a.body().getString("reason");
      if (a.body().getBoolean("degraded", false) || "budget_exhausted".equals(reason) || "no_rung_available".equals(reason)) {
        queued.put(a.q(), a.body().getString("idempotency_key"));
      }
      Thread.sleep(pause);
    }
    int outageRequests = n;
    String m = metrics();
    double opened = metric(m, "georesolver_breaker_transitions_total{tier=\"primary\",to=\"open\"}");
    long maxMs = outageMs.stream().mapToLong(Long::longValue).max().orElse(0);

    // Recovery: traffic goes on until the breaker has closed on its own.
    hang = false;
    long recoveredAt = System.nanoTime();
    while (!"closed".equals(primaryState())) {
      Answer a = geocode("drill " + n++ + " Station Road");
      if (a.body() != null && a.body().getBoolean("degraded", false)) {
        queued.put(a.q(), a.body().getString("idempotency_key"));
      }
      Thread.sleep(pause);
      if (System.nanoTime() - recoveredAt > TimeUnit.SECONDS.toNanos(120)) {
        failures.add("the breaker did not close within 120 s of the recovery");
        break;
      }
    }
    long closedAt = System.nanoTime();
    double closedCount = metric(metrics(), "georesolver_breaker_transitions_total{tier=\"primary\",to=\"closed\"}");
    int killedWith = -1;
    if (kill) {
      Thread.sleep(300);
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (feed().size() < Math.max(1, queued.size() / 5) && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      killedWith = feed().size();
      resolver.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      System.out.printf("drill: killed the resolver (SIGKILL) with %d of %d corrections made; starting it again%n", killedWith,
          queued.size());
      resolver = startResolver(cmd, log);
      stream();
    }
    JsonObject q;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (true) {
      q = get("/v1/reconcile");
      if (q != null && q.getLong("pending", 1L) == 0 && q.getLong("in_progress", 1L) == 0) {
        break;
      }
      if (System.nanoTime() > until) {
        failures.add("the queue did not drain within 300 s: " + q);
        break;
      }
      Thread.sleep(100);
    }
    long drainedAt = System.nanoTime();
    Thread.sleep(1500);

    List<JsonObject> feed = feed();
    List<String> keys = feed.stream().map(c -> c.getString("idempotency_key")).toList();
    Set<String> unique = new LinkedHashSet<>(keys);
    Set<String> lost = new LinkedHashSet<>(queued.values());
    lost.removeAll(unique);
    List<String> order = new ArrayList<>(queued.values());
    order.retainAll(unique);
    List<String> drainOrder = keys.stream().distinct().filter(order::contains).toList();
    boolean oldestFirst = drainOrder.equals(order);
    if (!oldestFirst && System.getenv("DRILL_DEBUG") != null) {
      List<String> byKey = new ArrayList<>(queued.keySet());
      for (int i = 0; i < drainOrder.size(); i++) {
        String k = drainOrder.get(i);
        System.out.println("  drained #" + i + " = queued #" + order.indexOf(k) + " (" + byKey.get(new ArrayList<>(queued.values()).indexOf(k)) + ")");
      }
    }
    Set<String> webhookIds = new LinkedHashSet<>();
    webhook.forEach(c -> webhookIds.add(c.getString("correction_id")));
    Set<String> feedIds = new LinkedHashSet<>();
    feed.forEach(c -> feedIds.add(c.getString("correction_id")));
    int replaysExact = 0;
    for (String addr : queued.keySet()) {
      Answer a = geocode(addr);
      if (a.body() != null && "primary".equals(a.body().getString("resolution_source")) && !a.body().getBoolean("degraded", true)) {
        replaysExact++;
      }
    }
    int mixedKeys = 0;
    for (String addr : queued.keySet()) {
      Set<String> seen = keysSeen.getOrDefault(addr, Set.of());
      if (seen.size() != 1 || !seen.contains(queued.get(addr))) {
        mixedKeys++;
      }
    }
    long repeated = queued.keySet().stream().filter(a -> keysSeen.containsKey(a)).count();

    System.out.println();
    System.out.println("reconcile drill report (" + backend + (kill ? ", kill -9 mid-drain" : "") + ")");
    row("requests during the outage", outageRequests + " distinct addresses (" + outageMs.size() + " answered, " + notAnswered
        + " not)");
    row("slowest answer during the outage", maxElapsed + " ms in the resolver (budget 1500 ms), " + maxMs
        + " ms at the client");
    row("breaker of primary", "opened " + (int) opened + "x during the outage; closed "
        + String.format(Locale.ROOT, "%.1f s", (closedAt - recoveredAt) / 1e9) + " after the recovery" + (closedCount > 0 ? "" : " (?)"));
    row("debts queued", Integer.toString(queued.size()));
    row("drained", String.format(Locale.ROOT, "%.1f s after the breaker closed; done %d, dead %d", (drainedAt - closedAt) / 1e9,
        q == null ? -1 : q.getLong("done", -1L), q == null ? -1 : q.getLong("dead", -1L)));
    row("drain order", oldestFirst ? "oldest first" : kill ? "items leased by the killed process came back after their lease"
        : "NOT oldest first");
    row("corrections", feed.size() + " in the feed, " + unique.size() + " keys, " + (keys.size() - unique.size()) + " keys twice, "
        + lost.size() + " lost" + (kill ? "; killed after " + killedWith : ""));
    row("SSE stream", streamed.size() + " corrections (" + streamDuplicates.get() + " repeated after the resume)");
    row("webhook", webhookIds.size() + " corrections, " + webhook.size() + " deliveries, " + badSignatures.get() + " bad signatures");
    row("replays afterwards", replaysExact + " of " + queued.size() + " from primary, not degraded");
    row("Idempotency-Key", (queued.size() - mixedKeys) + " of " + queued.size() + " keys: every call carried the key ("
        + repeated + " keys called by the primary)");

    if (outageMs.isEmpty() || notAnswered > 0) {
      failures.add(notAnswered + " requests not answered during the outage");
    }
    // The resolver's own time must stay within the budget; the client's includes this machine's
    // scheduling and a cold JVM, so it is checked with a generous margin only.
    if (maxElapsed > 1500 + 50 || maxMs > 1500 + 1500) {
      failures.add("an answer took " + maxElapsed + " ms in the resolver (" + maxMs + " ms at the client), over its budget");
    }
    if (opened < 1) {
      failures.add("the breaker never opened");
    }
    if (queued.isEmpty()) {
      failures.add("no debt was queued");
    }
    if (!lost.isEmpty()) {
      failures.add(lost.size() + " queued keys were never corrected");
    }
    if (keys.size() != unique.size()) {
      failures.add((keys.size() - unique.size()) + " keys corrected twice");
    }
    if (!kill && !oldestFirst) {
      failures.add("the queue did not drain oldest first");
    }
    if (!streamed.keySet().containsAll(feedIds)) {
      failures.add("the SSE stream missed corrections");
    }
    if (!webhookIds.containsAll(feedIds) || badSignatures.get() > 0) {
      failures.add("the webhook missed corrections or saw bad signatures");
    }
    if (replaysExact != queued.size()) {
      failures.add((queued.size() - replaysExact) + " replays do not carry the primary's answer");
    }
    if (mixedKeys > 0) {
      failures.add(mixedKeys + " keys saw calls without their Idempotency-Key");
    }
    System.out.println();
    if (failures.isEmpty()) {
      System.out.println("drill: PASS");
    } else {
      failures.forEach(f -> System.out.println("drill: FAIL " + f));
    }
    resolver.destroy();
    resolver.waitFor(10, TimeUnit.SECONDS);
    if (redis != null) {
      redis.destroy();
      redis.waitFor(10, TimeUnit.SECONDS);
    }
    primary.stop(0);
    fallback.stop(0);
    hook.stop(0);
    System.exit(failures.isEmpty() ? 0 : 1);
  }

  static void row(String what, String value) {
    System.out.printf("  %-34s %s%n", what, value);
  }
}
