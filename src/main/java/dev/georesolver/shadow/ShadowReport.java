package dev.georesolver.shadow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The text of {@code georesolver shadow report}: per pair a small table and one plain sentence,
 * such as "osm_nominatim lands within 250 m of primary_commercial for 96 % of 4,210 sampled
 * addresses, at 0.4× its latency." Pure and thread-safe.
 *
 * <p>How the sentence stays honest:
 * <ul>
 *   <li>The within-250 m share is over the samples both rungs found; when some were not, it says
 *       "of the N sampled addresses both found", and then how many each found alone.
 *   <li>With fewer than {@value #FEW} samples both found, it gives the count ("9 of 10") and the 95 %
 *       Wilson interval of the share, and says the samples are few.
 *   <li>When a rung found something for fewer than half the samples, the sentence starts with that,
 *       since the distances then describe only the few it found.
 *   <li>When fewer than half lie within 250 m, it gives the median distance too.
 *   <li>Without samples, or without any both found, it says so and gives no distance.
 * </ul>
 */
public final class ShadowReport {

  /** Below this many samples both found, shares are given with their interval. */
  public static final int FEW = 100;

  private ShadowReport() {}

  /** The whole report: a heading, then each pair's table and sentence, in {@link PairKey} order. */
  public static String text(Collection<PairSummary> pairs) {
    List<PairSummary> sorted = new ArrayList<>(pairs);
    sorted.sort((a, b) -> a.key().compareTo(b.key()));
    if (sorted.isEmpty()) {
      return "No shadow samples yet (is shadow sampling on? the manifest's shadow.sample_rate).\n";
    }
    StringBuilder out = new StringBuilder();
    long total = sorted.stream().mapToLong(PairSummary::samples).sum();
    out.append("Shadow samples: ").append(Figures.count(total)).append(" over ").append(sorted.size())
        .append(sorted.size() == 1 ? " pair" : " pairs").append(".\n");
    for (PairSummary p : sorted) {
      out.append('\n').append(table(p)).append("  ").append(sentence(p)).append('\n');
    }
    return out.toString();
  }

  /** One pair's table, one figure a line, each line indented by two blanks. */
  public static String table(PairSummary p) {
    StringBuilder t = new StringBuilder();
    PairKey k = p.key();
    t.append(k.served()).append(" → ").append(k.shadow()).append("  (served → shadow, intent ").append(k.intent()).append(")\n");
    line(t, "samples", Figures.count(p.samples())
        + (p.window() == null ? "" : "   " + Instant.ofEpochMilli(p.window().firstMs()) + " to " + Instant.ofEpochMilli(p.window().lastMs())));
    line(t, "found", "both " + Figures.count(p.bothFound()) + " · served only " + Figures.count(p.servedOnly())
        + " · shadow only " + Figures.count(p.shadowOnly()) + " · neither " + Figures.count(p.neitherFound()));
    if (p.distanceM() != null) {
      line(t, "distance p50/p90/p99", Figures.metres(p.distanceM().p50()) + " / " + Figures.metres(p.distanceM().p90())
          + " / " + Figures.metres(p.distanceM().p99()));
      StringBuilder w = new StringBuilder();
      for (int metres : PairStats.WITHIN_M) {
        if (w.length() > 0) {
          w.append(" · ");
        }
        w.append(Figures.metres(metres)).append(' ').append(Figures.percent(p.withinShare(metres)));
      }
      line(t, "within", w.toString());
    }
    if (p.latencyMs() != null) {
      line(t, "latency (median)", "served " + Figures.millis(p.latencyMs().servedP50()) + " · shadow "
          + Figures.millis(p.latencyMs().shadowP50()) + " · ratio " + Figures.ratio(p.latencyRatio()));
    }
    if (p.labelSimilarity() != null) {
      line(t, "label similarity", String.format(Locale.ROOT, "%.2f", p.labelSimilarity())
          + " (mean of " + Figures.count(p.labelSamples()) + ")");
    }
    return t.toString();
  }

  private static void line(StringBuilder t, String name, String value) {
    t.append("  ").append(name).append(" ".repeat(Math.max(1, 22 - name.length()))).append(value).append('\n');
  }

  /** One pair's sentence. */
  public static String sentence(PairSummary p) {
    String served = p.key().served();
    String shadow = p.key().shadow();
    long n = p.samples();
    if (n == 0) {
      return "No samples yet of " + shadow + " in the shadow of " + served + ".";
    }
    long servedFound = p.bothFound() + p.servedOnly();
    long shadowFound = p.bothFound() + p.shadowOnly();
    if (p.bothFound() == 0) {
      return shadow + " and " + served + " never both found an address in " + samples(n) + " (" + served + " found "
          + Figures.count(servedFound) + ", " + shadow + " " + Figures.count(shadowFound) + "), so there is no distance to give.";
    }
    StringBuilder s = new StringBuilder();
    String rare = rarely(shadow, shadowFound, n);
    if (rare == null) {
      rare = rarely(served, servedFound, n);
    }
    long within = p.within().m250();
    long both = p.bothFound();
    if (rare != null) {
      s.append(rare).append("; where both found, it lands within 250 m of ").append(served).append(" for ");
    } else {
      s.append(shadow).append(" lands within 250 m of ").append(served).append(" for ");
    }
    String of = both == n && rare == null ? samples(n) : "the " + samples(both) + " both found";
    if (both < FEW) {
      Wilson ci = Wilson.of(within, both);
      s.append(Figures.count(within)).append(" of ").append(of).append(" (").append(Figures.percent(ci.low()))
          .append("–").append(Figures.percent(ci.high())).append(" at 95 % confidence; few samples)");
    } else {
      s.append(Figures.percent((double) within / both)).append(" of ").append(of);
    }
    if (2 * within < both) {
      s.append(", a median ").append(Figures.metres(p.distanceM().p50())).append(" away");
    }
    s.append(", at ").append(Figures.ratio(p.latencyRatio())).append(" its latency");
    if (rare == null && (p.servedOnly() > 0 || p.shadowOnly() > 0)) {
      List<String> alone = new ArrayList<>(2);
      if (p.servedOnly() > 0) {
        alone.add("found nothing for " + Figures.count(p.servedOnly()) + " (" + Figures.percent((double) p.servedOnly() / n)
            + ") that " + served + " found");
      }
      if (p.shadowOnly() > 0) {
        alone.add("found " + Figures.count(p.shadowOnly()) + " (" + Figures.percent((double) p.shadowOnly() / n) + ") that "
            + served + " did not");
      }
      s.append("; it ").append(String.join(", and ", alone));
    }
    return s.append('.').toString();
  }

  /** "x found something for only 12 % of 4,210 sampled addresses", when it found for fewer than half. */
  private static String rarely(String rung, long found, long n) {
    if (2 * found >= n) {
      return null;
    }
    String share = n < FEW ? Figures.count(found) + " of " + samples(n)
        : Figures.percent((double) found / n) + " of " + samples(n);
    return rung + " found something for only " + share;
  }

  private static String samples(long n) {
    return Figures.count(n) + (n == 1 ? " sampled address" : " sampled addresses");
  }
}
