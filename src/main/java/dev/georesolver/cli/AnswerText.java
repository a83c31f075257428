package dev.georesolver.cli;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A result JSON as a person reads it: the point (lat, lon, the order map searches take), what was
 * matched and its address components, what the answer may claim and from which rung, its notice,
 * and what each rung did.
 * Every text from the result is made safe for a terminal first ({@link Terminal#safe}).
 */
final class AnswerText {

  private static final int MAX_TEXT = 500;

  private AnswerText() {}

  /** The lines to print for {@code result}. */
  static List<String> lines(JsonObject result) {
    List<String> out = new ArrayList<>();
    String status = text(result, "status");
    if ("resolved".equals(status)) {
      out.add("resolved    " + number(result.getValue("lat")) + ", " + number(result.getValue("lon")) + "  (lat, lon, "
          + text(result, "crs", "EPSG:4326") + ")");
      String label = text(result, "label");
      if (!label.isEmpty()) {
        String precision = text(result, "precision");
        out.add(row("label", label + (precision.isEmpty() ? "" : "  (" + precision + ")")));
      }
      String address = address(result.getValue("address"));
      if (!address.isEmpty()) {
        out.add(row("address", address));
      }
      if (result.getValue("distance_m") instanceof Number d) {
        out.add(row("distance", String.format(java.util.Locale.ROOT, "%,.0f m from the point asked", d.doubleValue())));
      }
      StringBuilder claim = new StringBuilder(text(result, "claim", "?")).append(", from ").append(text(result, "resolution_source", "?"));
      if (result.getValue("confidence") instanceof Number c) {
        claim.append(", confidence ").append(number(c));
      }
      if (Boolean.TRUE.equals(result.getValue("degraded"))) {
        claim.append(", degraded");
      }
      out.add(row("claim", claim.toString()));
    } else {
      out.add(("refused".equals(status) ? "refused     " : status + "  ") + text(result, "reason"));
    }
    String notice = text(result, "notice");
    if (!notice.isBlank()) {
      out.add(row("notice", notice.strip()));
    }
    String attempts = attempts(result.getValue("attempts"));
    if (!attempts.isEmpty()) {
      out.add(row("attempts", attempts));
    }
    StringBuilder trace = new StringBuilder(text(result, "trace_id"));
    if (result.getValue("elapsed_ms") instanceof Number ms) {
      trace.append(trace.length() > 0 ? ", " : "").append(ms.longValue()).append(" ms");
    }
    if (Boolean.TRUE.equals(result.getValue("replayed"))) {
      trace.append(", replayed (stored ").append(number(result.getValue("replay_age_s"))).append(" s before)");
    } else if (Boolean.TRUE.equals(result.getValue("coalesced"))) {
      trace.append(", shared with an identical request in flight");
    }
    if (trace.length() > 0) {
      out.add(row("trace", trace.toString()));
    }
    return out;
  }

  /**
   * The components as one line, finest first: {@code 10 Downing Street, London, England, SW1A 2AA,
   * United Kingdom (GB)}; the house number goes before the road, the country code in brackets,
   * the provider's place type is left out. Empty when the result has none.
   */
  static String address(Object v) {
    if (!(v instanceof JsonObject a)) {
      return "";
    }
    Address ad = Address.fromMap(a.getMap());
    List<String> parts = new ArrayList<>();
    String house = ad.get(Component.HOUSE_NUMBER);
    String road = ad.get(Component.ROAD);
    if (road != null || house != null) {
      parts.add(house == null ? road : road == null ? house : house + " " + road);
    }
    for (Component c : List.of(Component.NEIGHBOURHOOD, Component.LOCALITY, Component.COUNTY, Component.REGION,
        Component.POSTCODE, Component.COUNTRY)) {
      if (ad.has(c)) {
        parts.add(ad.get(c));
      }
    }
    String line = String.join(", ", parts);
    String cc = ad.get(Component.COUNTRY_CODE);
    if (cc != null) {
      line = line.isEmpty() ? cc : line + " (" + cc + ")";
    }
    return Terminal.safe(line, MAX_TEXT);
  }

  private static String attempts(Object v) {
    if (!(v instanceof JsonArray a)) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    for (Object o : a) {
      if (o instanceof JsonObject t) {
        String ms = t.getValue("ms") instanceof Number n ? " " + n.longValue() + " ms" : "";
        parts.add(text(t, "tier", "?") + " " + text(t, "outcome", "?") + ms);
      }
    }
    return String.join(" · ", parts);
  }

  private static String row(String key, String value) {
    return String.format("%-12s%s", key, value);
  }

  private static String text(JsonObject j, String key) {
    return text(j, key, "");
  }

  private static String text(JsonObject j, String key, String absent) {
    Object v = j.getValue(key);
    return v == null ? absent : Terminal.safe(String.valueOf(v), MAX_TEXT);
  }

  private static String number(Object v) {
    return v instanceof Number n ? dev.georesolver.batch.ResultWriters.plain(n) : "?";
  }
}
