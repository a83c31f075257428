package dev.georesolver.shadow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code GET /v1/shadow}, as plain maps and lists:
 *
 * <pre>{@code
 * {"pairs": [{"served", "shadow", "intent", "samples", "both_found", "served_only", "shadow_only",
 *             "neither_found", "found_disagreement", "distance_m": {"p50", "p90", "p99"},
 *             "within_m": {"50", "250", "1000", "5000"}, "within_count": {...}, "latency_ratio",
 *             "latency_ms": {"served_p50", "shadow_p50"}, "label_similarity", "label_samples",
 *             "window": {"first_ms", "last_ms"}}],
 *  "samples": total,
 *  "window": {"first_ms", "last_ms"}}
 * }</pre>
 *
 * One element per pair ({@link PairSummary#toMap()} says what each figure is), in {@link PairKey}
 * order; the top-level window spans every pair's (its members are null when there is no sample).
 * Pure and thread-safe.
 */
public final class ShadowView {

  private ShadowView() {}

  /** The view of these pairs. */
  public static Map<String, Object> toMap(Collection<PairSummary> pairs) {
    List<PairSummary> sorted = new ArrayList<>(pairs);
    sorted.sort((a, b) -> a.key().compareTo(b.key()));
    List<Object> list = new ArrayList<>(sorted.size());
    long total = 0;
    Long first = null;
    Long last = null;
    for (PairSummary p : sorted) {
      list.add(p.toMap());
      total += p.samples();
      if (p.window() != null) {
        first = first == null ? p.window().firstMs() : Math.min(first, p.window().firstMs());
        last = last == null ? p.window().lastMs() : Math.max(last, p.window().lastMs());
      }
    }
    Map<String, Object> window = new LinkedHashMap<>();
    window.put("first_ms", first);
    window.put("last_ms", last);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pairs", list);
    m.put("samples", total);
    m.put("window", window);
    return m;
  }

  /**
   * Reads a view back (a server's {@code GET /v1/shadow} parsed by any JSON parser); at most
   * {@link ShadowTable#MAX_PAIRS} pairs.
   *
   * @throws ShadowFormatException naming the field, for anything that is not such a view
   */
  public static List<PairSummary> parse(Object view) {
    Wire.Obj o = Wire.obj(view, "shadow");
    List<Object> elements = Wire.list(o.get("pairs"), "pairs", ShadowTable.MAX_PAIRS);
    List<PairSummary> out = new ArrayList<>(elements.size());
    for (int i = 0; i < elements.size(); i++) {
      out.add(PairSummary.fromMap(elements.get(i), "pairs[" + i + "]"));
    }
    return out;
  }
}
