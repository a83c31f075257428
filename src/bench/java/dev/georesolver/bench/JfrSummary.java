package dev.georesolver.bench;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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

  private JfrSummary() {}

  public static void main(String[] args) throws IOException {
    Flags f = Flags.parse(args);
    if (f.positional().isEmpty()) {
      throw new IllegalArgumentException("jfr-summary FILE [--top N]");
    }
    int top = f.integer("top", 15);
    System.out.print(summarise(Path.of(f.positional().get(0)), top));
  }

  static String summarise(Path file, int top) throws IOException {
    Map<String, Long> self = new HashMap<>();
    Map<String, Long> layer = new HashMap<>();
    Map<String, Long> inclusive = new HashMap<>();
    Map<String, Long> allocTop = new HashMap<>();
    Map<String, Long> allocSite = new HashMap<>();
    long samples = 0;
    long allocBytes = 0;
    long allocEvents = 0;
    try (RecordingFile rf = new RecordingFile(file)) {
      while (rf.hasMoreEvents()) {
        RecordedEvent e = rf.readEvent();
        String type = e.getEventType().getName();
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
          for (RecordedFrame fr : frames) {
            String n = name(fr);
            if (n.startsWith(PROJECT) && seen.add(n)) {
              inclusive.merge(n, 1L, Long::sum);
            }
          }
        } else if (type.equals("jdk.ObjectAllocationSample")) {
          long w = e.getLong("weight");
          RecordedClass cls = e.getClass("objectClass");
          String clsName = cls == null ? "?" : cls.getName();
          allocBytes += w;
          allocEvents++;
          allocTop.merge(clsName + " ← " + name(frames.get(0)), w, Long::sum);
          allocSite.merge(projectSite(frames), w, Long::sum);
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%d execution samples, %d allocation samples standing for %.1f MB.%n%n",
        samples, allocEvents, allocBytes / 1e6));
    table(sb, "CPU by top frame (self)", "method", self, samples, top, false);
    table(sb, "CPU by layer of the top frame", "layer", layer, samples, top, false);
    table(sb, "CPU inclusive, project methods (on the stack anywhere)", "method", inclusive, samples, top, false);
    table(sb, "Allocation by class ← top frame (sampled bytes)", "class ← allocating method", allocTop, allocBytes, top, true);
    table(sb, "Allocation by nearest project frame (sampled bytes)", "project frame (line)", allocSite, allocBytes, top, true);
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

  private static String name(RecordedFrame f) {
    RecordedMethod m = f.getMethod();
    return m == null ? "?" : m.getType().getName() + "." + m.getName();
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
