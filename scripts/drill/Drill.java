import java.io.IOException;
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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The outage drill of scripts/drill.sh, JDK only (run from source: {@code java Drill.java URL …}).
 *
 * <p>Sends steady synthetic load — distinct addresses and a small set of repeated ones — to
 * {@code GET /v1/geocode} through three phases: <b>before</b>; <b>during</b>, with tier 1's breaker
 * forced open ({@code POST /admin/tiers/<tier>/force-open}); <b>after</b>, released
 * ({@code POST /admin/tiers/<tier>/release}). A request counts in a phase only when it was wholly
 * inside it (sent after the command that began it was answered, answered before the next was
 * sent). For each phase it prints the latency percentiles seen
 * by the client (the failover latency, during), the routing distribution (share of answers per
 * {@code resolution_source}, and of the answers walked rather than replayed) and the confidence
 * distribution; then it checks that tier 1 served no walked answer while forced open and that
 * traffic returned to it after the release.
 *
 * <p>Exit status: 0 when traffic returned; 1 when it did not, or the force did not take; 2 for a
 * usage error, an unreachable resolver or a refused command. The breaker is released on the way
 * out whatever happens (also on Ctrl-C).
 */
public final class Drill {

  private static final String USAGE = """
      usage: scripts/drill.sh [URL] [options]      (URL default http://localhost:8080)
        --tier NAME        the rung to force open (default: the first enabled tier in /manifest)
        --seconds N        length of each phase, seconds (default 20)
        --rate R           requests per second (default 40)
        --concurrency C    requests in flight at most (default 8)
        --repeat SHARE     share of requests for repeated addresses, 0..1 (default 0.5)
        --pool N           how many repeated addresses (default 20)
        --addresses FILE   addresses to send, one a line (default: synthetic street addresses)
        -H 'NAME: VALUE'   a header sent with the admin commands (for an admin key), repeatable
      """;

  /** One answer as the drill saw it: sent at {@code sentNs}, answered at {@code doneNs} (System.nanoTime). */
  record Seen(long sentNs, long doneNs, String status, String source, Double confidence, boolean walked) {
    double ms() {
      return (doneNs - sentNs) / 1e6;
    }
  }

  public static void main(String[] args) throws Exception {
    Options o;
    try {
      o = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("drill: " + e.getMessage());
      System.err.print(USAGE);
      System.exit(2);
      return;
    }
    System.exit(new Drill(o).run());
  }

  private final Options o;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();
  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong counter = new AtomicLong();
  private final AtomicLong notSent = new AtomicLong();
  private final String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
  private volatile boolean forced;
  /** When the force was sent and answered, the release sent and answered (System.nanoTime). */
  private long forceSent;
  private long forceDone;
  private long releaseSent;
  private long releaseDone;

  private Drill(Options o) {
    this.o = o;
  }

  private int run() throws Exception {
    Map<String, Object> manifest;
    try {
      manifest = Json.object(get("/manifest"));
    } catch (IOException e) {
      System.err.println("drill: " + o.url + " does not answer: " + e.getMessage());
      return 2;
    }
    List<Object> enabled = Json.list(manifest.get("enabled_tiers"));
    String tier = o.tier != null ? o.tier : enabled.isEmpty() ? null : String.valueOf(enabled.get(0));
    if (tier == null) {
      System.err.println("drill: the resolver has no enabled tier");
      return 2;
    }
    System.out.printf(Locale.ROOT, "drill against %s: tier 1 is %s (ladder: %s; manifest %s)%n", o.url, tier,
        String.join(", ", enabled.stream().map(String::valueOf).toList()), manifest.get("revision"));
    System.out.printf(Locale.ROOT, "load: %d requests/s, at most %d in flight, %.0f%% to %d repeated addresses; phases of %d s%n%n",
        o.rate, o.concurrency, o.repeat * 100, o.pool, o.seconds);

    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (forced) {
        try {
          command(tier, "release");
          System.err.println("drill: released " + tier);
        } catch (Exception ignored) {
          System.err.println("drill: could not release " + tier + ": POST " + o.url + "/admin/tiers/" + tier + "/release");
        }
      }
    }));

    ExecutorService workers = Executors.newFixedThreadPool(o.concurrency);
    Semaphore inFlight = new Semaphore(o.concurrency);
    Thread pacer = new Thread(() -> pace(workers, inFlight), "drill-pacer");
    pacer.start();
    try {
      Thread.sleep(o.seconds * 1000L);
      forceSent = System.nanoTime();
      String state = command(tier, "force-open");
      forceDone = System.nanoTime();
      forced = true;
      System.out.printf(Locale.ROOT, "forced %s open (state %s)%n", tier, state);
      Thread.sleep(o.seconds * 1000L);
      releaseSent = System.nanoTime();
      state = command(tier, "release");
      releaseDone = System.nanoTime();
      forced = false;
      System.out.printf(Locale.ROOT, "released %s (state %s)%n%n", tier, state);
      Thread.sleep(o.seconds * 1000L);
    } catch (CommandFailed e) {
      System.err.println("drill: " + e.getMessage());
      return 2;
    } finally {
      pacer.interrupt();
      pacer.join();
      workers.shutdown();
      workers.awaitTermination(30, TimeUnit.SECONDS);
    }
    return report(tier);
  }

  /** Starts a request every 1/rate s while fewer than {@code concurrency} are in flight. */
  private void pace(ExecutorService workers, Semaphore inFlight) {
    long interval = 1_000_000_000L / o.rate;
    long next = System.nanoTime();
    while (!Thread.currentThread().isInterrupted()) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
          return;
        }
      }
      next += interval;
      if (!inFlight.tryAcquire()) {
        notSent.incrementAndGet();
        continue;
      }
      String address = address();
      workers.execute(() -> {
        try {
          seen.add(resolve(address));
        } finally {
          inFlight.release();
        }
      });
    }
  }

  private String address() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    long n = counter.getAndIncrement();
    boolean repeated = r.nextDouble() < o.repeat;
    if (o.addresses != null) {
      return repeated ? o.addresses.get(r.nextInt(Math.min(o.pool, o.addresses.size())))
          : o.addresses.get((int) (n % o.addresses.size()));
    }
    return repeated ? (1 + r.nextInt(o.pool)) + " Repeat Avenue, Drilltown" : n + " Drill Street, Run " + run;
  }

  private Seen resolve(String address) {
    long t0 = System.nanoTime();
    try {
      HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(o.url + "/v1/geocode?q="
              + URLEncoder.encode(address, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(15)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      long t1 = System.nanoTime();
      if (res.statusCode() != 200) {
        return new Seen(t0, t1, "http_" + res.statusCode(), null, null, false);
      }
      Map<String, Object> j = Json.object(res.body());
      boolean walked = !Boolean.TRUE.equals(j.get("replayed")) && !Boolean.TRUE.equals(j.get("coalesced"));
      return new Seen(t0, t1, String.valueOf(j.get("status")), (String) j.get("resolution_source"),
          j.get("confidence") instanceof Number n ? n.doubleValue() : null, walked);
    } catch (Exception e) {
      return new Seen(t0, System.nanoTime(), "error", null, null, false);
    }
  }

  private String get(String path) throws IOException, InterruptedException {
    HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(o.url + path)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    if (res.statusCode() != 200) {
      throw new IOException("GET " + path + " answered " + res.statusCode());
    }
    return res.body();
  }

  /** Sends an admin command; returns the tier's state after it. */
  private String command(String tier, String action) throws CommandFailed, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(o.url + "/admin/tiers/"
        + URLEncoder.encode(tier, StandardCharsets.UTF_8) + "/" + action)).timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.noBody())
        // The admin surface takes a command only with this header (a page on another site cannot add it).
        .header("X-Requested-By", "drill");
    o.headers.forEach(b::header);
    try {
      HttpResponse<String> res = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      if (res.statusCode() != 200) {
        throw new CommandFailed("POST /admin/tiers/" + tier + "/" + action + " answered " + res.statusCode() + ": " + res.body());
      }
      return String.valueOf(Json.object(res.body()).get("state"));
    } catch (IOException e) {
      throw new CommandFailed("POST /admin/tiers/" + tier + "/" + action + " failed: " + e.getMessage());
    }
  }

  private int report(String tier) {
    List<String> phases = List.of("before", "during", "after");
    Map<String, List<Seen>> by = new LinkedHashMap<>();
    phases.forEach(p -> by.put(p, new ArrayList<>()));
    long straddling = 0;
    synchronized (seen) {
      for (Seen s : seen) {
        String p = phaseOf(s);
        if (p == null) {
          straddling++;
        } else {
          by.get(p).add(s);
        }
      }
    }
    System.out.printf(Locale.ROOT, "%-7s %8s %7s %8s %8s %8s %8s %9s%n", "phase", "requests", "errors", "p50 ms", "p90 ms", "p99 ms", "walked", "replayed");
    for (String p : phases) {
      List<Seen> s = by.get(p);
      List<Double> ms = s.stream().map(Seen::ms).sorted().toList();
      long errors = s.stream().filter(x -> x.status().startsWith("http_") || x.status().equals("error")).count();
      long walked = s.stream().filter(Seen::walked).count();
      long answered = s.size() - errors;
      System.out.printf(Locale.ROOT, "%-7s %8d %7d %8s %8s %8s %8d %9d%n", p, s.size(), errors,
          percentile(ms, 0.50), percentile(ms, 0.90), percentile(ms, 0.99), walked, answered - walked);
    }
    System.out.println();
    System.out.println("routing: share of answers by resolution_source (of walked answers, not replayed, in brackets)");
    for (String p : phases) {
      List<Seen> s = by.get(p);
      Map<String, Long> all = count(s, Drill::sourceOf);
      Map<String, Long> walked = count(s.stream().filter(Seen::walked).toList(), Drill::sourceOf);
      long walkedTotal = walked.values().stream().mapToLong(Long::longValue).sum();
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-7s", p));
      all.forEach((k, v) -> line.append(String.format(Locale.ROOT, "  %s %s (%s)", k, share(v, s.size()),
          share(walked.getOrDefault(k, 0L), walkedTotal))));
      System.out.println(line);
    }
    System.out.println();
    System.out.println("confidence: share of answers by confidence");
    for (String p : phases) {
      List<Seen> s = by.get(p);
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-7s", p));
      count(s, x -> x.confidence() == null ? sourceOf(x) : String.format(Locale.ROOT, "%.2f", x.confidence()))
          .forEach((k, v) -> line.append(String.format(Locale.ROOT, "  %s %s", k, share(v, s.size()))));
      System.out.println(line);
    }
    System.out.println();
    if (straddling > 0) {
      System.out.printf(Locale.ROOT, "note: %d request%s in flight while the breaker was switched %s not counted%n", straddling,
          straddling == 1 ? "" : "s", straddling == 1 ? "is" : "are");
    }
    if (notSent.get() > 0) {
      System.out.printf(Locale.ROOT, "note: %d request%s not sent (all %d in flight): the resolver was slower than the rate%n",
          notSent.get(), notSent.get() == 1 ? " was" : "s were", o.concurrency);
    }
    if (straddling > 0 || notSent.get() > 0) {
      System.out.println();
    }

    double before = walkedShare(by.get("before"), tier);
    double during = walkedShare(by.get("during"), tier);
    double after = walkedShare(by.get("after"), tier);
    int exit = 0;
    if (Double.isNaN(during) || during > 0) {
      System.out.printf(Locale.ROOT, "FAILED: while forced open, %s still served %s of walked answers%n", tier, pct(during));
      exit = 1;
    } else {
      System.out.printf(Locale.ROOT, "ok: while forced open, %s served no walked answer%n", tier);
    }
    if (Double.isNaN(before) || before == 0) {
      System.out.printf(Locale.ROOT, "FAILED: %s served no walked answer before the drill, so its return cannot be seen%n", tier);
      exit = 1;
    } else if (Double.isNaN(after) || after < 0.9 * before) {
      System.out.printf(Locale.ROOT, "FAILED: traffic did not return to %s: %s of walked answers after release, %s before%n",
          tier, pct(after), pct(before));
      exit = 1;
    } else {
      System.out.printf(Locale.ROOT, "ok: traffic returned to %s: %s of walked answers after release (%s before)%n",
          tier, pct(after), pct(before));
    }
    return exit;
  }

  /**
   * The phase a request belongs to: wholly before the force was sent, wholly between the force's
   * answer and the release being sent, or sent after the release was answered; null for a request in
   * flight while the breaker was being switched (it may have met either state).
   */
  private String phaseOf(Seen s) {
    if (s.doneNs() < forceSent) {
      return "before";
    }
    if (s.sentNs() > forceDone && s.doneNs() < releaseSent) {
      return "during";
    }
    return s.sentNs() > releaseDone ? "after" : null;
  }

  private static String sourceOf(Seen s) {
    return s.source() != null ? s.source() : s.status().equals("refused") ? "refused" : s.status();
  }

  private static Map<String, Long> count(List<Seen> s, java.util.function.Function<Seen, String> key) {
    Map<String, Long> m = new LinkedHashMap<>();
    s.forEach(x -> m.merge(key.apply(x), 1L, Long::sum));
    Map<String, Long> sorted = new LinkedHashMap<>();
    m.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /** The share of walked answers served by {@code tier}; NaN when nothing was walked. */
  private static double walkedShare(List<Seen> s, String tier) {
    List<Seen> walked = s.stream().filter(Seen::walked).toList();
    return walked.isEmpty() ? Double.NaN : walked.stream().filter(x -> tier.equals(x.source())).count() / (double) walked.size();
  }

  private static String share(long part, long whole) {
    return whole == 0 ? "-" : pct(part / (double) whole);
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", v * 100);
  }

  /** Nearest-rank percentile of sorted values, "-" when there are none. */
  private static String percentile(List<Double> sorted, double q) {
    if (sorted.isEmpty()) {
      return "-";
    }
    int rank = (int) Math.ceil(q * sorted.size());
    return String.format(Locale.ROOT, "%.1f", sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1))));
  }

  /** An admin command the resolver refused. */
  static final class CommandFailed extends Exception {
    CommandFailed(String message) {
      super(message);
    }
  }

  /** What the command line asked for. */
  static final class Options {
    String url = "http://localhost:8080";
    String tier;
    int seconds = 20;
    int rate = 40;
    int concurrency = 8;
    double repeat = 0.5;
    int pool = 20;
    List<String> addresses;
    final Map<String, String> headers = new LinkedHashMap<>();

    static Options parse(String[] args) throws IOException {
      Options o = new Options();
      boolean urlSeen = false;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "-h", "--help" -> {
            System.out.print(USAGE);
            System.exit(0);
          }
          case "--tier" -> o.tier = value(args, ++i, a);
          case "--seconds" -> o.seconds = positive(value(args, ++i, a), a);
          case "--rate" -> o.rate = positive(value(args, ++i, a), a);
          case "--concurrency" -> o.concurrency = positive(value(args, ++i, a), a);
          case "--pool" -> o.pool = positive(value(args, ++i, a), a);
          case "--repeat" -> {
            o.repeat = Double.parseDouble(value(args, ++i, a));
            if (!(o.repeat >= 0 && o.repeat <= 1)) {
              throw new IllegalArgumentException("--repeat must be between 0 and 1");
            }
          }
          case "--addresses" -> {
            Path file = Path.of(value(args, ++i, a));
            o.addresses = Files.readAllLines(file, StandardCharsets.UTF_8).stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
            if (o.addresses.isEmpty()) {
              throw new IllegalArgumentException(file + " has no address");
            }
          }
          case "-H" -> {
            String h = value(args, ++i, a);
            int colon = h.indexOf(':');
            if (colon <= 0) {
              throw new IllegalArgumentException("-H takes 'NAME: VALUE'");
            }
            o.headers.put(h.substring(0, colon).strip(), h.substring(colon + 1).strip());
          }
          default -> {
            if (a.startsWith("-") || urlSeen) {
              throw new IllegalArgumentException("unknown argument " + a);
            }
            o.url = a.replaceAll("/+$", "");
            urlSeen = true;
            if (!o.url.startsWith("http://") && !o.url.startsWith("https://")) {
              throw new IllegalArgumentException("the URL must start with http:// or https://");
            }
          }
        }
      }
      return o;
    }

    private static String value(String[] args, int i, String flag) {
      if (i >= args.length) {
        throw new IllegalArgumentException(flag + " needs a value");
      }
      return args[i];
    }

    private static int positive(String v, String flag) {
      try {
        int n = Integer.parseInt(v);
        if (n > 0) {
          return n;
        }
      } catch (NumberFormatException ignored) {
        // falls through to the message
      }
      throw new IllegalArgumentException(flag + " must be a positive whole number, got " + v);
    }
  }

  /** Just enough JSON to read the resolver's answers: objects, arrays, strings, numbers, literals. */
  static final class Json {
    private final String s;
    private int i;

    private Json(String s) {
      this.s = s;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) throws IOException {
      Object v = parse(text);
      if (!(v instanceof Map)) {
        throw new IOException("not a JSON object");
      }
      return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object v) {
      return v instanceof List ? (List<Object>) v : List.of();
    }

    static Object parse(String text) throws IOException {
      Json j = new Json(text);
      Object v = j.value();
      j.ws();
      if (j.i != text.length()) {
        throw new IOException("trailing characters at " + j.i);
      }
      return v;
    }

    private void ws() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    private Object value() throws IOException {
      ws();
      if (i >= s.length()) {
        throw new IOException("unexpected end of JSON");
      }
      char c = s.charAt(i);
      if (c == '{') {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        ws();
        if (peek('}')) {
          return m;
        }
        do {
          ws();
          String k = string();
          ws();
          expect(':');
          m.put(k, value());
          ws();
        } while (peek(','));
        expect('}');
        return m;
      }
      if (c == '[') {
        List<Object> l = new ArrayList<>();
        i++;
        ws();
        if (peek(']')) {
          return l;
        }
        do {
          l.add(value());
          ws();
        } while (peek(','));
        expect(']');
        return l;
      }
      if (c == '"') {
        return string();
      }
      for (String lit : List.of("true", "false", "null")) {
        if (s.startsWith(lit, i)) {
          i += lit.length();
          return lit.equals("null") ? null : Boolean.valueOf(lit);
        }
      }
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
      if (start == i) {
        throw new IOException("unexpected '" + c + "' at " + i);
      }
      return Double.parseDouble(s.substring(start, i));
    }

    private String string() throws IOException {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (i < s.length()) {
        char c = s.charAt(i++);
        if (c == '"') {
          return b.toString();
        }
        if (c == '\\') {
          char e = s.charAt(i++);
          switch (e) {
            case 'n' -> b.append('\n');
            case 't' -> b.append('\t');
            case 'r' -> b.append('\r');
            case 'b' -> b.append('\b');
            case 'f' -> b.append('\f');
            case 'u' -> {
              b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
              i += 4;
            }
            default -> b.append(e);
          }
        } else {
          b.append(c);
        }
      }
      throw new IOException("unterminated string");
    }

    private boolean peek(char c) {
      if (i < s.length() && s.charAt(i) == c) {
        i++;
        return true;
      }
      return false;
    }

    private void expect(char c) throws IOException {
      if (!peek(c)) {
        throw new IOException("expected '" + c + "' at " + i);
      }
    }
  }
}
