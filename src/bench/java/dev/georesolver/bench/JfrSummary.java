package dev.georesolver.bench;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Summarises a JFR recording as Markdown: where the CPU went and who allocated, aggregated the way
 * {@code jfr print --events jdk.ExecutionSample / jdk.ObjectAllocationSample} would be by hand, but
 * read with the {@code jdk.jfr.consumer} API rather than by parsing text.
 *
 * <ul>
 *   <li>CPU, by top frame (self time): {@code jdk.ExecutionSample} counted by the method on top of
 *       the stack;
 *   <li>CPU, by layer of the top frame (netty, vertx, jackson, georesolver, JDK…);
 *   <li>CPU, inclusive, for project methods ({@code dev.georesolver.*}): share of samples with the
 *       method anywhere on the stack;
 *   <li>allocation, by class and top frame: {@code jdk.ObjectAllocationSample} weighted by its
 *       {@code weight} (bytes it stands for);
 *   <li>allocation, by the nearest project frame: which line of ours caused the bytes, whatever
 *       library did the allocating.
 * </ul>
 *
 * <p>{@code java -jar target/georesolver-bench.jar jfr-summary rec.jfr [--top 15] [--title T]}
 */
public final class JfrSummary {

  private static final String PROJECT = "dev.georesolver.";
  /** Hidden-class suffixes of lambdas ({@code $$Lambda$410+0x00007f70…/0x…}), which differ per run. */
  private static final Pattern LAMBDA = Pattern.compile("\\$\\$Lambda\\$?[0-9]*[+/]0x[0-9a-f]+(?:[./][0-9a-fx]+)?");

  /**
   * Operations whose share is worth knowing, counted inclusively: a sample counts for an operation
   * when any frame of its stack starts with one of the operation's prefixes.
   */
  private static final Map<String, List<String>> OPERATIONS = new LinkedHashMap<>();

  static {
    OPERATIONS.put("JSON encode (JsonObject.toBuffer / encode)", List.of("io.vertx.core.json.jackson.JacksonCodec.toBuffer",
        "io.vertx.core.json.jackson.JacksonCodec.toString", "io.vertx.core.json.jackson.JacksonCodec.encode"));
    OPERATIONS.put("JSON decode", List.of("io.vertx.core.json.jackson.JacksonCodec.fromBuffer",
        "io.vertx.core.json.jackson.JacksonCodec.fromString", "io.vertx.core.json.jackson.JacksonCodec.decode"));
    OPERATIONS.put("event-bus send / request / reply (sender side)", List.of("io.vertx.core.eventbus.impl.EventBusImpl.request",
        "io.vertx.core.eventbus.impl.EventBusImpl.send", "io.vertx.core.eventbus.impl.MessageImpl.reply"));
    OPERATIONS.put("timers (set / cancel)", List.of("io.vertx.core.impl.VertxImpl.setTimer", "io.vertx.core.impl.VertxImpl.scheduleTimeout",
        "io.vertx.core.impl.VertxImpl.cancelTimer", "io.vertx.core.impl.VertxImpl.timer"));
    OPERATIONS.put("HTTP client: provider call (request, send, read)", List.of("io.vertx.core.http.impl.HttpClientImpl",
        "io.vertx.core.http.impl.Http1xClientConnection", "io.vertx.core.http.impl.HttpClientRequestImpl",
        "io.vertx.core.http.impl.HttpClientResponseImpl", "io.vertx.core.http.impl.HttpClientAgentImpl"));
    OPERATIONS.put("HTTP server: response write (end)", List.of("io.vertx.core.http.impl.Http1xServerResponse.end"));
    OPERATIONS.put("query-string parsing", List.of("io.vertx.core.http.impl.Http1xServerRequest.params",
        "io.vertx.core.http.impl.HttpUtils.params", "io.netty.handler.codec.http.QueryStringDecoder"));
    OPERATIONS.put("address normalization", List.of("dev.georesolver.normalize.AddressNormalizer"));
    OPERATIONS.put("SHA-256 (idempotency key)", List.of("java.security.MessageDigest"));
    OPERATIONS.put("regular expressions", List.of("java.util.regex."));
    OPERATIONS.put("Caffeine (L1 store)", List.of("com.github.benmanes.caffeine."));
    OPERATIONS.put("breaker and rate limiter (Resilience4j)", List.of("io.github.resilience4j."));
    OPERATIONS.put("CRS transform", List.of("dev.georesolver.crs.", "org.locationtech.proj4j."));
    OPERATIONS.put("logging", List.of("ch.qos.logback.", "org.slf4j."));
    OPERATIONS.put("socket write (flush)", List.of("io.netty.channel.socket.nio.NioSocketChannel.doWrite"));
  }

  private JfrSummary() {}

  public static void main(String[] args) throws IOException {
    Flags f = Flags.parse(args);
    if (f.positional().isEmpty()) {
      throw new IllegalArgumentException("jfr-summary FILE [--top N]");
    }
    int top = f.integer("top", 15);
    long requests = Long.parseLong(f.get("requests", "0"));
    System.out.print(summarise(Path.of(f.positional().get(0)), top, requests));
  }

  /**
   * @param requests requests served during the recording, or 0: with it, the bytes the Java threads
   *     allocated (exact TLAB accounting from {@code jdk.ThreadAllocationStatistics}) per request
   */
  static String summarise(Path file, int top, long requests) throws IOException {
    Map<Long, long[]> allocatedByThread = new HashMap<>();
    Map<String, Long> self = new HashMap<>();
    Map<String, Long> layer = new HashMap<>();
    Map<String, Long> inclusive = new HashMap<>();
    Map<String, Long> allocTop = new HashMap<>();
    Map<String, Long> allocSite = new HashMap<>();
    Map<String, Long> nativeTop = new HashMap<>();
    Map<String, Long> operations = new LinkedHashMap<>();
    Set<Long> allocThreads = new HashSet<>();
    Map<String, Long> allocTopN = new HashMap<>();
    Map<String, Long> allocSiteN = new HashMap<>();
    long nativeSamples = 0;
    long samples = 0;
    long allocBytes = 0;
    long allocEvents = 0;
    try (RecordingFile rf = new RecordingFile(file)) {
      while (rf.hasMoreEvents()) {
        RecordedEvent e = rf.readEvent();
        String type = e.getEventType().getName();
        if (type.equals("jdk.ThreadAllocationStatistics")) {
          long tid = e.getLong("thread.javaThreadId");
          long a = e.getLong("allocated");
          long[] mm = allocatedByThread.computeIfAbsent(tid, k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
          mm[0] = Math.min(mm[0], a);
          mm[1] = Math.max(mm[1], a);
          continue;
        }
        RecordedStackTrace st = e.getStackTrace();
        if (st == null || st.getFrames().isEmpty()) {
          continue;
        }
        List<RecordedFrame> frames = st.getFrames();
        if (type.equals("jdk.ExecutionSample")) {
          samples++;
          String topFrame = name(frames.get(0));
          self.merge(topFrame, 1L, Long::sum);
          layer.merge(layer(frames.get(0)), 1L, Long::sum);
          Set<String> seen = new HashSet<>();
          Set<String> ops = new HashSet<>();
          for (RecordedFrame fr : frames) {
            String n = name(fr);
            if (n.startsWith(PROJECT) && !n.contains("$$Lambda") && seen.add(n)) {
              inclusive.merge(n, 1L, Long::sum);
            }
            for (Map.Entry<String, List<String>> op : OPERATIONS.entrySet()) {
              for (String prefix : op.getValue()) {
                if (n.startsWith(prefix)) {
                  ops.add(op.getKey());
                }
              }
            }
          }
          ops.forEach(op -> operations.merge(op, 1L, Long::sum));
        } else if (type.equals("jdk.NativeMethodSample")) {
          nativeSamples++;
          nativeTop.merge(name(frames.get(0)) + " ← " + firstNonJdk(frames), 1L, Long::sum);
        } else if (type.equals("jdk.ObjectAllocationSample")) {
          // A thread's first sample weighs everything it allocated since its previous sample,
          // which may be long before the recording started: it is left out.
          RecordedThread thread = e.getThread("eventThread");
          if (thread != null && allocThreads.add(thread.getJavaThreadId())) {
            continue;
          }
          long w = e.getLong("weight");
          RecordedClass cls = e.getClass("objectClass");
          String clsName = cls == null ? "?" : cls.getName();
          allocBytes += w;
          allocEvents++;
          allocTop.merge(clsName + " ← " + name(frames.get(0)), w, Long::sum);
          allocSite.merge(projectSite(frames), w, Long::sum);
          allocTopN.merge(clsName + " ← " + name(frames.get(0)), 1L, Long::sum);
          allocSiteN.merge(projectSite(frames), 1L, Long::sum);
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    long allocated = allocatedByThread.values().stream().mapToLong(mm -> mm[1] - mm[0]).sum();
    if (allocated > 0) {
      sb.append(String.format(Locale.ROOT, "Java threads allocated %.0f MB during the recording", allocated / 1e6));
      if (requests > 0) {
        sb.append(String.format(Locale.ROOT, ": **%.1f KB per request** (%d requests)", allocated / 1e3 / requests, requests));
      }
      sb.append(". ");
    }
    sb.append(String.format(Locale.ROOT, "%d execution samples (threads running Java), %d native-method samples (threads in"
        + " native code: mostly event loops in epoll_wait, i.e. idle), %d allocation samples standing for %.1f MB.%n%n",
        samples, nativeSamples, allocEvents, allocBytes / 1e6));
    table(sb, "CPU by top frame (self)", "method", self, samples, top, false);
    table(sb, "CPU by layer of the top frame", "layer", layer, samples, top, false);
    table(sb, "CPU inclusive, by operation (on the stack anywhere; operations overlap)", "operation", operations, samples, 20, false);
    table(sb, "CPU inclusive, project methods (on the stack anywhere)", "method", inclusive, samples, top, false);
    table(sb, "Native-method samples by top frame ← first non-JDK caller", "native method ← caller", nativeTop, nativeSamples, 6, false);
    allocTable(sb, "Allocation by class ← top frame", "class ← allocating method", allocTop, allocTopN, allocBytes, allocEvents, top);
    allocTable(sb, "Allocation by nearest project frame", "project frame (line)", allocSite, allocSiteN, allocBytes, allocEvents, top);
    return sb.toString();
  }

  private static void table(StringBuilder sb, String title, String what, Map<String, Long> counts, long total, int top,
      boolean bytes) {
    sb.append("**").append(title).append("**\n\n");
    sb.append("| ").append(what).append(" | share | ").append(bytes ? "MB" : "samples").append(" |\n|---|---:|---:|\n");
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(top)
        .forEach(en -> sb.append("| `").append(en.getKey().replace("|", "\\|")).append("` | ")
            .append(String.format(Locale.ROOT, "%.1f%%", total == 0 ? 0 : 100.0 * en.getValue() / total))
            .append(" | ")
            .append(bytes ? String.format(Locale.ROOT, "%.1f", en.getValue() / 1e6) : en.getValue().toString())
            .append(" |\n"));
    sb.append('\n');
  }

  /**
   * Allocation rows ranked by sample count, with the weighted bytes beside: a sample's weight is
   * everything its thread allocated since its previous sample, so one sample after a quiet spell can
   * carry gigabytes; the count is the steadier ranking, the bytes say how much.
   */
  private static void allocTable(StringBuilder sb, String title, String what, Map<String, Long> bytes, Map<String, Long> counts,
      long totalBytes, long totalCount, int top) {
    sb.append("**").append(title).append("** (ranked by samples)\n\n");
    sb.append("| ").append(what).append(" | samples | share of samples | share of sampled bytes |\n|---|---:|---:|---:|\n");
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(top)
        .forEach(en -> sb.append("| `").append(en.getKey().replace("|", "\\|")).append("` | ").append(en.getValue())
            .append(String.format(Locale.ROOT, " | %.1f%% | %.1f%% |%n",
                totalCount == 0 ? 0 : 100.0 * en.getValue() / totalCount,
                totalBytes == 0 ? 0 : 100.0 * bytes.getOrDefault(en.getKey(), 0L) / totalBytes)));
    sb.append('\n');
  }

  private static String name(RecordedFrame f) {
    RecordedMethod m = f.getMethod();
    return m == null ? "?" : LAMBDA.matcher(m.getType().getName()).replaceAll("\\$\\$Lambda") + "." + m.getName();
  }

  /** The nearest project frame with its line, or the top frame's layer when ours is not on the stack. */
  private static String projectSite(List<RecordedFrame> frames) {
    for (RecordedFrame f : frames) {
      String n = name(f);
      if (n.startsWith(PROJECT)) {
        return n + ":" + f.getLineNumber();
      }
    }
    return "(no project frame: " + layer(frames.get(0)) + ")";
  }

  private static String firstNonJdk(List<RecordedFrame> frames) {
    for (RecordedFrame f : frames) {
      String n = name(f);
      if (!n.startsWith("java.") && !n.startsWith("jdk.") && !n.startsWith("sun.")) {
        return n;
      }
    }
    return "?";
  }

  private static String layer(RecordedFrame f) {
    String n = name(f);
    if (n.startsWith(PROJECT)) {
      return "georesolver";
    }
    if (n.startsWith("io.netty.")) {
      return "netty";
    }
    if (n.startsWith("io.vertx.")) {
      return "vertx";
    }
    if (n.startsWith("com.fasterxml.jackson.")) {
      return "jackson";
    }
    if (n.startsWith("com.github.benmanes.caffeine.")) {
      return "caffeine";
    }
    if (n.startsWith("io.github.resilience4j.")) {
      return "resilience4j";
    }
    if (n.startsWith("io.micrometer.")) {
      return "micrometer";
    }
    if (n.startsWith("org.locationtech.proj4j.")) {
      return "proj4j";
    }
    if (n.startsWith("java.") || n.startsWith("javax.") || n.startsWith("jdk.") || n.startsWith("sun.")) {
      return "jdk";
    }
    return "other";
  }
}
