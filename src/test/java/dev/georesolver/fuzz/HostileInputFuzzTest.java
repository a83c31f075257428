package dev.georesolver.fuzz;

import dev.georesolver.GeoResolver;
import dev.georesolver.fuzz.HostileRequests.Case;
import dev.georesolver.fuzz.HostileRequests.Sent;
import dev.georesolver.ingress.IngressVerticle;
import dev.georesolver.web.ServerLimits;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.support.LogScanner;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile requests against a real resolver whose provider misbehaves on purpose: a seeded run of
 * generated requests ({@link HostileRequests}) from many connections at once, with silent and
 * trickling connections opened all through it ({@link HostileConnections}), and after each answer
 * and at the end the invariants checked:
 *
 * <ul>
 *   <li>no 5xx (the ladder ends in the offline gazetteer, so nothing a client or the provider does
 *       is the router's failure);
 *   <li>every 400 is problem+json naming a field, every other refusal problem+json too, and every
 *       whole request is answered (only an incomplete one may be closed without an answer);
 *   <li>every answer within its budget plus {@link #MARGIN_MS};
 *   <li>the tier's credential in no answer, no log line at any level, nor in {@code /metrics},
 *       {@code /manifest} or {@code /health/ready} — though the provider echoes it back;
 *   <li>nothing logged at ERROR, and no message of the resolver's holding a line break (provider
 *       text is escaped before it reaches a log);
 *   <li>the heap after a full collection, and the size of {@code /metrics}, grown by less than a
 *       bound that does not depend on how many requests were sent;
 *   <li>the heap after every collection during the run grown by less than {@link #PEAK_BOUND_BYTES},
 *       however the provider sends its bodies (without end, as gzip bombs, with megabyte labels);
 *   <li>every hostile connection shed within its deadline plus slack, every connection given back;
 *   <li>the resolver alive and serving at the end.
 * </ul>
 *
 * <p>A second run ({@link #fuzzWithTenants}) does the same against a resolver with tenants: each
 * case carries a key of some kind ({@link HostileAuth}: a tenant's, an admin's, a rate-limited
 * one's, a wrong or malformed one, none), and requests aim at what only some keys may reach. On top
 * of the invariants above: a request that authenticates as no tenant gets no answer from
 * {@code /v1} (only 4xx) and no {@code OK} from the Google endpoint; a tenant's key that is not an
 * admin's gets no 2xx from {@code /admin}, {@code /v1/reconcile} or {@code /manifest}; 401, 403
 * and 429 are problem+json (the compatible endpoints answer in their own dialects); no tenant key
 * in any answer or log line.
 *
 * In CI it runs {@value #DEFAULT_COUNT} requests, and {@value #DEFAULT_TENANT_COUNT} with tenants. A longer run: {@code -Dfuzz.count=200000}
 * (or {@code FUZZ_COUNT}); another seed: {@code -Dfuzz.seed=N} or {@code -Dfuzz.seed=random}; one case
 * on its own: {@code -Dfuzz.only=I}. A failure prints the seed, the case number and the request.
 */
@ExtendWith(VertxExtension.class)
class HostileInputFuzzTest {

  static final int DEFAULT_COUNT = 4000;
  static final int DEFAULT_TENANT_COUNT = 2500;
  static final long DEFAULT_SEED = 20_260_901L;
  /** Slack on every answer past its budget: the ingress grace and a loaded two-core machine. */
  static final long MARGIN_MS = 1500;
  /** Heap growth allowed, after a full collection, whatever the count. */
  static final long HEAP_BOUND_BYTES = 96L * 1024 * 1024;
  /** Growth of the heap right after any collection during the run: what a provider made us hold at the worst moment. */
  static final long PEAK_BOUND_BYTES = 384L * 1024 * 1024;
  /** Growth of the /metrics exposition allowed, whatever the count. */
  static final int METRICS_BOUND_BYTES = 16 * 1024;

  private static final String SECRET = "fz-SECRET-7f3c9a1e5b";
  private static final String TENANT_KEY = "fz-tenant-a41c09e7";
  private static final String LIMITED_KEY = "fz-limited-b93d2f10";
  private static final String ADMIN_KEY = "fz-admin-c07e5a22";
  private static final long BUDGET_MS = 1000;
  private static final long MAX_BUDGET_MS = 2000;
  private static final long TIER_TIMEOUT_MS = 300;
  private static final int CLIENTS = 16;
  /** The fuzzed ingress's header and body deadlines: short, so hostile connections are shed within the run. */
  private static final long HEADER_TIMEOUT_MS = 1000;
  private static final int MAX_REPORTED = 15;

  private static String manifest(String endpoint) {
    return "routing:\n"
        + "  budget_ms: " + BUDGET_MS + "\n"
        + "  max_budget_ms: " + MAX_BUDGET_MS + "\n"
        + "  admission_factor: 0.5\n"
        + "  idempotency:\n"
        + "    ttl_seconds: 3600\n"
        + "    deduplication_store: \"memory\"\n"
        + "    max_entries: 1000\n"
        + "  tiers:\n"
        + "    - name: \"hostile\"\n"
        + "      adapter: \"generic\"\n"
        + "      endpoint: \"" + endpoint + "\"\n"
        + "      claim: \"exact\"\n"
        + "      timeout_ms: " + TIER_TIMEOUT_MS + "\n"
        + "      typical_ms: 40\n"
        + "      retry_budget: 1\n"
        + "      retry_after_max_ms: 500\n"
        + "      credential: { header: \"X-Api-Key\", env: \"FUZZ_PROVIDER_KEY\" }\n"
        + "      circuit_breaker: { failure_threshold: 20, half_open_timeout_ms: 500, success_threshold: 1 }\n"
        + "    - name: \"cached_index\"\n"
        + "      adapter: \"cached_index\"\n"
        + "      claim: \"cached\"\n"
        + "      timeout_ms: 100\n"
        + "      typical_ms: 5\n"
        + "    - name: \"gazetteer\"\n"
        + "      adapter: \"gazetteer\"\n"
        + "      claim: \"locality\"\n"
        + "      timeout_ms: 200\n"
        + "      typical_ms: 2\n";
  }

  /** The tenants of the second run: one that may not use {@code contain}, one rate-limited, one admin. */
  private static final String TENANTS = """
      tenants:
        - { id: "acme", keys: [ { env: "FUZZ_TENANT_KEY" } ], intents: [describe, measure] }
        - { id: "limited", keys: [ { env: "FUZZ_LIMITED_KEY" } ], rate_limit_per_s: 20, burst: 5 }
        - { id: "root", keys: [ { env: "FUZZ_ADMIN_KEY" } ], admin: true }
      """;

  @Test
  @DisplayName("hostile requests against a misbehaving provider: no 5xx, problems name fields, answers in budget, no key leaked, memory bounded, still serving")
  void fuzz(Vertx vertx) throws Exception {
    long seed = seed();
    HostileAdmin requests = new HostileAdmin(seed, new HostileRequests(seed, BUDGET_MS, MAX_BUDGET_MS), BUDGET_MS);
    fuzz(vertx, seed, count(DEFAULT_COUNT), "", requests::generate, null, null);
  }

  @Test
  @DisplayName("with tenants: wrong, missing and malformed keys, admin routes, other tenants' feeds: no 5xx, no hang, nothing past the guard, no key leaked")
  void fuzzWithTenants(Vertx vertx) throws Exception {
    long seed = seed();
    HostileAuth auth = new HostileAuth(seed, new HostileRequests(seed, BUDGET_MS, MAX_BUDGET_MS), TENANT_KEY, LIMITED_KEY, ADMIN_KEY,
        BUDGET_MS);
    fuzz(vertx, seed, count(DEFAULT_TENANT_COUNT), TENANTS, auth::generate, "Authorization: Bearer " + TENANT_KEY + "\r\n",
        "Authorization: Bearer " + ADMIN_KEY + "\r\n");
  }

  /**
   * One run.
   *
   * @param tenants the manifest's tenants block, or "" for open access
   * @param keyHeader the header line of a valid key for the run's own probes, or null without tenants
   * @param adminHeader the header line of an admin's key for the run's reads of /metrics, or null without tenants
   */
  private void fuzz(Vertx vertx, long seed, int count, String tenants, LongFunction<Case> cases, String keyHeader, String adminHeader)
      throws Exception {
    Long only = Long.getLong("fuzz.only");
    System.out.printf("fuzz: seed=%d count=%d%s%s (replay: -Dfuzz.seed=%d)%n", seed, count, tenants.isEmpty() ? "" : " with tenants",
        only == null ? "" : " only=" + only, seed);

    HostileProvider provider = HostileProvider.start(vertx, seed, TIER_TIMEOUT_MS).await();
    Stack stack = Stack.deploy(vertx, manifest(provider.url()) + tenants, Map.of("FUZZ_PROVIDER_KEY", SECRET,
        "FUZZ_TENANT_KEY", TENANT_KEY, "FUZZ_LIMITED_KEY", LIMITED_KEY, "FUZZ_ADMIN_KEY", ADMIN_KEY), Clock.systemUTC(), Map.of()).await();
    // A second front door on the same resolver with short read deadlines, so that the hostile
    // connections held during the run are shed within it; every size limit is the default.
    Metrics metrics = new Metrics();
    IngressVerticle ingress = new IngressVerticle(stack.manifest, 0, metrics,
        ServerLimits.defaults().withTimeouts(5000, HEADER_TIMEOUT_MS, HEADER_TIMEOUT_MS)).modules(GeoResolver.ROUTE_MODULES);
    vertx.deployVerticle(ingress).await();
    int port = ingress.actualPort();
    String probe = keyed(RawHttp.get("/v1/geocode?q=Paris%2C%20France"), keyHeader);

    try (LogScanner logs = LogScanner.start(SECRET, TENANT_KEY, LIMITED_KEY, ADMIN_KEY); HeapWatch heap = HeapWatch.start()) {
      // Warm up (gazetteer loaded, code paths compiled) before measuring: the ladder's own path, then
      // every misbehaviour of the provider a few times, so that what is measured is a running
      // resolver, not a cold JVM's first megabyte parsed or first bomb refused.
      for (int k = 0; k < 50; k++) {
        assertThat(RawHttp.exchange(port, probe).status()).as("warm-up").isEqualTo(200);
      }
      warmUp(port, provider, keyHeader);
      long heapBefore = heapAfterGc();
      long peakBefore = heap.peakAfterGc();
      heap.reset();
      long rssBefore = rssKb();
      int metricsBefore = RawHttp.exchange(port, keyed(RawHttp.get("/metrics"), adminHeader)).body().length();

      HostileConnections hostile = new HostileConnections(port, HEADER_TIMEOUT_MS + 3000);
      Run run = only != null ? run(cases, port, only, only + 1, keyHeader != null) : run(cases, port, 0, count, keyHeader != null);
      hostile.close();

      long peakDuring = heap.peakAfterGc();
      long heapAfter = heapAfterGc();
      long rssAfter = rssKb();
      int metricsAfter = RawHttp.exchange(port, keyed(RawHttp.get("/metrics"), adminHeader)).body().length();
      System.out.printf("fuzz: %d requests in %d ms; statuses %s; provider %s; %d hostile connections held; heap %+d KB"
              + " after GC (peak after a collection during the run %+d KB, %d collections); RSS %+d KB; /metrics %+d bytes;"
              + " %d log events%n",
          run.sent.get(), run.elapsedMs, new java.util.TreeMap<>(run.statuses), provider.counts(), hostile.opened(),
          (heapAfter - heapBefore) / 1024, (peakDuring - peakBefore) / 1024, heap.collections(), rssAfter - rssBefore,
          metricsAfter - metricsBefore, logs.events());

      assertThat(run.failures()).as("fuzz seed=%d: %d failing case(s); replay one with -Dfuzz.seed=%d -Dfuzz.only=<case>",
          seed, run.failed.get(), seed).isEmpty();
      assertThat(logs.leaks()).as("the credential in the log").isEmpty();
      assertThat(logs.errors()).as("lines logged at ERROR").isEmpty();
      assertThat(logs.lineBreaks()).as("resolver log messages holding a line break").isEmpty();
      assertThat(peakDuring - peakBefore).as("heap growth right after a collection during the run, bytes")
          .isLessThan(PEAK_BOUND_BYTES);
      assertThat(heapAfter - heapBefore).as("heap growth after GC, bytes").isLessThan(HEAP_BOUND_BYTES);
      assertThat(metricsAfter - metricsBefore).as("/metrics growth, bytes").isLessThan(METRICS_BOUND_BYTES);

      assertThat(hostile.notShed()).as("silent or trickling connections the server did not shed in time").isZero();
      RawHttp.Response last = RawHttp.exchange(port, keyed(RawHttp.get("/v1/geocode?q=Paris%2C%20France&budget_ms=2000"), keyHeader));
      assertThat(last.status()).as("still serving").isEqualTo(200);
      assertThat(last.json().getString("status")).isEqualTo("resolved");
      assertThat(RawHttp.exchange(stack.port, RawHttp.get("/health/live")).status()).isEqualTo(200);
      for (String path : List.of("/metrics", "/manifest", "/health/ready")) {
        RawHttp.Response seen = RawHttp.exchange(port, keyed(RawHttp.get(path), adminHeader));
        assertThat(seen.status()).as(path + " read by an operator").isIn(200, 503);
        assertThat(seen.toString()).as(path).doesNotContain(SECRET);
      }
      assertThat(openConnections(metrics)).as("every connection is given back").isZero();
    }
  }

  /**
   * Sends distinct forward and reverse lookups, some of intent {@code contain}, from many clients
   * until every misbehaviour has answered a few, or 400 were sent.
   */
  private static void warmUp(int port, HostileProvider provider, String keyHeader) throws InterruptedException {
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    AtomicInteger next = new AtomicInteger();
    for (int t = 0; t < CLIENTS; t++) {
      clients.execute(() -> {
        for (int k = next.getAndIncrement(); k < 400 && provider.counts().values().stream().anyMatch(n -> n < 3);
            k = next.getAndIncrement()) {
          RawHttp.exchange(port, keyed(RawHttp.get(k % 4 == 3
              ? "/v1/reverse?lat=" + (k % 170 - 85) + ".5&lon=" + (k * 7 % 360 - 180) + ".25&budget_ms=" + BUDGET_MS
              : "/v1/geocode?q=Warm%20up%20" + k + "%2C%20Lyon&budget_ms=" + BUDGET_MS + (k % 4 == 2 ? "&intent=contain" : "")),
              keyHeader));
        }
      });
    }
    clients.shutdown();
    assertThat(clients.awaitTermination(2, TimeUnit.MINUTES)).as("the warm-up finished").isTrue();
    provider.resetCounts();
  }

  /** What a run saw. */
  private static final class Run {
    final AtomicInteger sent = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final Map<Integer, AtomicInteger> statusCounts = new ConcurrentHashMap<>();
    final Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
    /** The first failing case of each kind and violation, with how many there were. */
    final Map<String, String> firstFailures = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> failureCounts = new ConcurrentHashMap<>();
    long elapsedMs;

    void fail(long seed, Case c, String why, String answer) {
      failed.incrementAndGet();
      String key = c.kind() + ": " + why;
      failureCounts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
      if (firstFailures.size() < MAX_REPORTED) {
        firstFailures.putIfAbsent(key, String.format("seed=%d case=%d%n    request: %s%n    answer:  %s", seed, c.index(),
            c.printable(600), answer.length() > 600 ? answer.substring(0, 600) + "…" : answer));
      }
    }

    /** One paragraph per kind of failure: how many, and the first case to replay. */
    List<String> failures() {
      List<String> out = new ArrayList<>();
      new java.util.TreeMap<>(firstFailures).forEach((key, first) ->
          out.add(String.format("%n  %s (%d case(s)); first: %s", key, failureCounts.get(key).get(), first)));
      return out;
    }
  }

  /** {@code request} with {@code header} (a whole line) added after its request line; as is when null. */
  private static String keyed(String request, String header) {
    if (header == null) {
      return request;
    }
    int eol = request.indexOf("\r\n") + 2;
    return request.substring(0, eol) + header + request.substring(eol);
  }

  private Run run(LongFunction<Case> cases, int port, long from, long to, boolean tenants) throws InterruptedException {
    Run run = new Run();
    AtomicLong next = new AtomicLong(from);
    long seed = seed();
    long start = System.nanoTime();
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    for (int t = 0; t < CLIENTS; t++) {
      clients.execute(() -> {
        for (long i = next.getAndIncrement(); i < to; i = next.getAndIncrement()) {
          Case c = cases.apply(i);
          check(seed, c, send(port, c), run, tenants);
        }
      });
    }
    clients.shutdown();
    assertThat(clients.awaitTermination(15, TimeUnit.MINUTES)).as("the run finished").isTrue();
    run.elapsedMs = (System.nanoTime() - start) / 1_000_000;
    run.statusCounts.forEach((k, v) -> run.statuses.put(k, v.get()));
    return run;
  }

  /** An answer and how long it took; status -1 when the connection closed without one. */
  private record Answer(RawHttp.Response response, long ms, String error) {}

  private static Answer send(int port, Case c) {
    long start = System.nanoTime();
    try (Socket s = new Socket("localhost", port)) {
      s.setSoTimeout((int) (c.budgetMs() + MARGIN_MS + 2000));
      try {
        s.getOutputStream().write(c.bytes());
        s.getOutputStream().flush();
        if (!c.complete()) {
          s.shutdownOutput();
        }
      } catch (IOException e) {
        // The server may answer and close before it has read everything; read what it said.
      }
      RawHttp.Response r;
      String error = null;
      try {
        r = RawHttp.read(s.getInputStream());
      } catch (IOException e) {
        r = new RawHttp.Response(-1, Map.of(), "");
        error = e.toString();
      }
      return new Answer(r, (System.nanoTime() - start) / 1_000_000, error);
    } catch (IOException e) {
      return new Answer(new RawHttp.Response(-1, Map.of(), ""), (System.nanoTime() - start) / 1_000_000, e.toString());
    }
  }

  private static void check(long seed, Case c, Answer a, Run run, boolean tenants) {
    run.sent.incrementAndGet();
    RawHttp.Response r = a.response();
    run.statusCounts.computeIfAbsent(r.status(), k -> new AtomicInteger()).incrementAndGet();
    String shown = r.status() < 0 ? "(closed without an answer" + (a.error() == null ? "" : ": " + a.error()) + ")" : r.toString();
    if (r.status() < 0) {
      if (c.complete()) {
        run.fail(seed, c, "a whole request closed without an answer", shown);
      }
      return;
    }
    if (r.toString().contains(SECRET)) {
      run.fail(seed, c, "the credential is in the answer", shown);
    }
    if (tenants) {
      tenantChecks(seed, c, r, shown, run);
    }
    adminChecks(seed, c, r, shown, run, tenants);
    if (r.status() >= 500 && !compatibleOutage(c, r)) {
      run.fail(seed, c, "a 5xx", shown);
    }
    if (a.ms() > c.budgetMs() + MARGIN_MS) {
      run.fail(seed, c, "answered in " + a.ms() + " ms, over the budget " + c.budgetMs() + " ms + " + MARGIN_MS, shown);
    }
    if (r.status() >= 400 && !compatible(c.path())) {
      problem(seed, c, r, shown, run);
    } else if (r.status() == 200 && "application/json".equals(r.header("content-type"))) {
      result(seed, c, r, shown, run);
    }
  }

  /**
   * Nominatim's dialect answers 503 when no rung could answer (its "service unavailable"), so a
   * client retries later: on the compatible endpoints that is the honest answer, not the router's
   * failure.
   */
  private static boolean compatibleOutage(Case c, RawHttp.Response r) {
    String notice = r.header("x-georesolver-notice");
    return r.status() == 503 && compatible(c.path()) && notice != null && notice.startsWith("No rung could answer");
  }

  /** The compatible endpoints answer in their own dialects, not problem+json. */
  private static boolean compatible(String path) {
    return path.startsWith("/search") || path.startsWith("/reverse") || path.startsWith("/status") || path.startsWith("/maps/");
  }

  /** What no key, a wrong key or a tenant's non-admin key must never get. */
  private static void tenantChecks(long seed, Case c, RawHttp.Response r, String shown, Run run) {
    if (Stream.of(TENANT_KEY, LIMITED_KEY, ADMIN_KEY).anyMatch(r.toString()::contains)) {
      run.fail(seed, c, "a tenant's key is in the answer", shown);
    }
    String path = normalized(c.path());
    boolean ok = r.status() >= 200 && r.status() < 300;
    if (!c.sent().authenticates() && ok && (path.startsWith("/v1/") || path.startsWith("/admin") || path.equals("/manifest"))) {
      run.fail(seed, c, "an answer without a tenant's key", shown);
    }
    if (!c.sent().authenticates() && path.startsWith("/maps/") && r.body().contains("\"status\":\"OK\"")) {
      run.fail(seed, c, "a Google answer without a tenant's key", shown);
    }
    if (!c.sent().admin() && ok && (path.startsWith("/admin") || path.startsWith("/v1/reconcile") || path.equals("/manifest"))) {
      run.fail(seed, c, "an admin route answered a key that is not an admin's", shown);
    }
    // The admin tenant's own data (its audit records, corrections, batches) carry its id: no other key may see it.
    if (!c.sent().admin() && ok && r.body().contains("\"tenant\":\"root\"")) {
      run.fail(seed, c, "another tenant's data answered a key that is not an admin's", shown);
    }
    if (!c.sent().admin() && ok && c.path().contains("tenant=root") && (path.startsWith("/v1/corrections") || path.startsWith("/v1/audit"))) {
      run.fail(seed, c, "a request for another tenant's partition was answered", shown);
    }
    if (r.body().contains("walked_by")) {
      run.fail(seed, c, "a stored answer's walking tenant is shown", shown);
    }
    if (r.status() == 401 && !compatible(path) && r.header("www-authenticate") == null) {
      run.fail(seed, c, "a 401 without WWW-Authenticate", shown);
    }
    if (r.status() == 429 && r.header("retry-after") == null) {
      run.fail(seed, c, "a 429 without Retry-After", shown);
    }
  }

  /**
   * What the admin surface must never do, with tenants or without: carry out a command a browser
   * could have sent by itself (Basic credentials, no {@code X-Requested-By} nor JSON), answer a
   * caller that is not local while no admin key is configured, show {@code /metrics} to anyone but
   * an admin once tenants exist, or show {@code /health/ready}'s detail to anyone but an operator.
   */
  private static void adminChecks(long seed, Case c, RawHttp.Response r, String shown, Run run, boolean tenants) {
    String path = normalized(c.path());
    boolean ok = r.status() >= 200 && r.status() < 300;
    boolean adminPath = path.startsWith("/admin") || path.startsWith("/v1/reconcile") || path.equals("/manifest")
        || path.startsWith("/dashboard");
    boolean command = !List.of("GET", "HEAD", "OPTIONS").contains(c.method());
    if (adminPath && ok && command && (c.sent() == Sent.ADMIN_BASIC || c.sent() == Sent.UNMARKED)) {
      run.fail(seed, c, "an admin command a browser could have sent by itself was carried out", shown);
    }
    if (adminPath && ok && c.sent() == Sent.AFAR) {
      run.fail(seed, c, "with no admin key configured, an admin route answered a caller that is not local", shown);
    }
    if (tenants && path.equals("/metrics") && ok && !c.sent().admin()) {
      run.fail(seed, c, "/metrics answered a key that is not an admin's", shown);
    }
    boolean operator = tenants ? c.sent().admin() : c.sent() != Sent.AFAR;
    if (path.equals("/health/ready") && (r.status() == 200 || r.status() == 503) && !operator) {
      JsonObject j;
      try {
        j = r.json();
      } catch (DecodeException e) {
        run.fail(seed, c, "a readiness answer that is not JSON", shown);
        return;
      }
      if (!j.fieldNames().equals(java.util.Set.of("ready"))) {
        run.fail(seed, c, "readiness detail shown to a caller that is not an operator", shown);
      }
    }
  }

  /** The path as the router matches it: dot segments (also escaped) resolved, repeated slashes folded. */
  private static String normalized(String path) {
    String p = path.replace("%2e", ".").replace("%2E", ".").replaceAll("/{2,}", "/");
    try {
      String n = java.net.URI.create(p).normalize().getPath();
      return n == null ? path : n.replaceAll("^(/\\.\\.)+", "");
    } catch (IllegalArgumentException e) {
      return path;
    }
  }

  private static void problem(long seed, Case c, RawHttp.Response r, String shown, Run run) {
    JsonObject p;
    try {
      p = r.json();
    } catch (DecodeException e) {
      run.fail(seed, c, "a refusal whose body is not JSON", shown);
      return;
    }
    if (!"application/problem+json".equals(r.header("content-type")) || p.getInteger("status", -1) != r.status()) {
      run.fail(seed, c, "a refusal that is not problem+json with its status", shown);
    }
    if (r.status() == 400) {
      String field = p.getString("field");
      JsonArray errors = p.getJsonArray("errors");
      if (field == null || field.isBlank() || errors == null || errors.isEmpty()
          || errors.stream().anyMatch(e -> ((JsonObject) e).getString("field", "").isBlank())) {
        run.fail(seed, c, "a 400 that does not name its field", shown);
      }
    }
  }

  private static void result(long seed, Case c, RawHttp.Response r, String shown, Run run) {
    JsonObject j;
    try {
      j = r.json();
    } catch (DecodeException e) {
      run.fail(seed, c, "a JSON answer that does not parse", shown);
      return;
    }
    if (!"resolved".equals(j.getValue("status"))) {
      return;
    }
    Double lon = j.getDouble("lon");
    Double lat = j.getDouble("lat");
    if (lon == null || lat == null || Math.abs(lon) > 180 || Math.abs(lat) > 90 || !"EPSG:4326".equals(j.getString("crs"))) {
      run.fail(seed, c, "a resolved answer outside EPSG:4326", shown);
    }
  }

  /** The open-connections gauge, once it settles (connections close a moment after their answer). */
  private static double openConnections(Metrics metrics) throws InterruptedException {
    double open = -1;
    for (int k = 0; k < 50 && open != 0; k++) {
      String line = metrics.scrape().lines().filter(l -> l.startsWith("georesolver_http_connections ")).findFirst().orElse("x -1");
      open = Double.parseDouble(line.substring(line.indexOf(' ') + 1));
      Thread.sleep(100);
    }
    return open;
  }

  private static long heapAfterGc() throws InterruptedException {
    for (int k = 0; k < 3; k++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Resident set size of this process, KB (Linux), or -1. */
  private static long rssKb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux
    }
    return -1;
  }

  private static long seed() {
    String s = System.getProperty("fuzz.seed", System.getenv().getOrDefault("FUZZ_SEED", Long.toString(DEFAULT_SEED)));
    if ("random".equals(s)) {
      long r = System.nanoTime();
      System.setProperty("fuzz.seed", Long.toString(r));
      return r;
    }
    return Long.parseLong(s);
  }

  private static int count(int byDefault) {
    return Integer.parseInt(System.getProperty("fuzz.count", System.getenv().getOrDefault("FUZZ_COUNT",
        Integer.toString(byDefault))));
  }
}
