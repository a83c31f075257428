package dev.georesolver.audit;

import dev.georesolver.state.rules.AuditChain;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The canonical JSON an audit record's hash is computed over (the chain itself is
 * {@code state.rules.AuditChain}). Pure and thread-safe.
 */
public final class CanonicalJson {

  private CanonicalJson() {}

  /**
   * The canonical JSON of {@code o}: object keys in ascending code-point order at every depth, no
   * white space, null members left out, strings escaped as JSON does, numbers as Java prints them
   * ({@code 12}, {@code 0.97}).
   */
  public static String canonical(JsonObject o) {
    StringBuilder sb = new StringBuilder(256);
    write(sb, o);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v) {
    if (v instanceof JsonObject o) {
      writeObject(sb, o.getMap());
    } else if (v instanceof Map<?, ?> m) {
      writeObject(sb, m);
    } else if (v instanceof JsonArray a) {
      writeArray(sb, a.getList());
    } else if (v instanceof List<?> l) {
      writeArray(sb, l);
    } else if (v instanceof String s) {
      quote(sb, s);
    } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
      sb.append("null");
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else if (v == null) {
      sb.append("null");
    } else {
      quote(sb, v.toString());
    }
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  /**
   * {@code s} as a JSON string, exactly as Vert.x's {@code Json.encode} (Jackson's default escapes)
   * writes it, so the hashes of records written before stay valid: a quote and a backslash
   * escaped with a backslash, the control characters below U+0020 as the short escapes (b, t, n, f,
   * r) or a backslash, {@code u00} and two upper-case hex digits, everything else as it is.
   * Written here because a Jackson generator per string cost an audit record tens of microseconds
   * and kilobytes of garbage.
   */
  static void quote(StringBuilder sb, String s) {
    sb.append('"');
    int from = 0;
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\') {
        continue;
      }
      sb.append(s, from, i);
      from = i + 1;
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\b' -> sb.append("\\b");
        case '\t' -> sb.append("\\t");
        case '\n' -> sb.append("\\n");
        case '\f' -> sb.append("\\f");
        case '\r' -> sb.append("\\r");
        default -> sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
      }
    }
    sb.append(s, from, n).append('"');
  }

  private static void writeObject(StringBuilder sb, Map<?, ?> m) {
    List<String> keys = new ArrayList<>(m.size());
    m.forEach((k, val) -> {
      if (val != null) {
        keys.add(k.toString());
      }
    });
    Collections.sort(keys);
    sb.append('{');
    for (int i = 0; i < keys.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      quote(sb, keys.get(i));
      sb.append(':');
      write(sb, m.get(keys.get(i)));
    }
    sb.append('}');
  }

  private static void writeArray(StringBuilder sb, List<?> l) {
    sb.append('[');
    for (int i = 0; i < l.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      write(sb, l.get(i));
    }
    sb.append(']');
  }
}
