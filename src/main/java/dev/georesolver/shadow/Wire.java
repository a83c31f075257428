package dev.georesolver.shadow;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reading the JSON-ready shape back from plain Java values (as a JSON parser gives them), checked
 * field by field: every failure is a {@link ShadowFormatException} naming the field's path.
 */
final class Wire {

  private Wire() {}

  /** An object at a path. */
  static Obj obj(Object v, String at) {
    Map<String, Object> m = asMap(v);
    if (m == null) {
      throw new ShadowFormatException(at + ": must be an object");
    }
    return new Obj(m, at);
  }

  /** A list at a path, of at most {@code max} elements. */
  static List<Object> list(Object v, String at, int max) {
    List<Object> out = new ArrayList<>();
    if (v instanceof Iterable<?> it && !(v instanceof Map<?, ?>) && asMap(v) == null) {
      for (Object e : it) {
        if (out.size() == max) {
          throw new ShadowFormatException(at + ": more than " + max + " elements");
        }
        out.add(e);
      }
      return out;
    }
    throw new ShadowFormatException(at + ": must be an array");
  }

  /** A map, or an iterable of map entries with string keys (Vert.x's JsonObject), as a map; else null. */
  private static Map<String, Object> asMap(Object v) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (v instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String k)) {
          return null;
        }
        m.put(k, e.getValue());
      }
      return m;
    }
    if (v instanceof Iterable<?> it) {
      boolean any = false;
      for (Object e : it) {
        if (!(e instanceof Map.Entry<?, ?> entry) || !(entry.getKey() instanceof String k)) {
          return null;
        }
        m.put(k, entry.getValue());
        any = true;
      }
      // An empty iterable reads as an empty array, not an object.
      return any ? m : null;
    }
    return null;
  }

  /** One object's fields. */
  static final class Obj {
    private final Map<String, Object> m;
    private final String at;

    private Obj(Map<String, Object> m, String at) {
      this.m = m;
      this.at = at;
    }

    private String path(String key) {
      return at + "." + key;
    }

    Object get(String key) {
      return m.get(key);
    }

    String name(String key) {
      Object v = m.get(key);
      if (!(v instanceof String s) || !PairKey.isName(s)) {
        throw new ShadowFormatException(path(key) + ": must be a rung or intent name");
      }
      return s;
    }

    /** A whole number &ge; 0. */
    long count(String key) {
      Object v = m.get(key);
      if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
        long n = ((Number) v).longValue();
        if (n >= 0) {
          return n;
        }
      } else if (v instanceof BigInteger b && b.signum() >= 0 && b.bitLength() < 64) {
        return b.longValue();
      } else if (v instanceof Number n && !(v instanceof BigInteger)) {
        try {
          BigDecimal d = new BigDecimal(n.toString());
          if (d.signum() >= 0) {
            return d.longValueExact();
          }
        } catch (ArithmeticException | NumberFormatException e) {
          // falls through to the error below
        }
      }
      throw new ShadowFormatException(path(key) + ": must be a whole number >= 0");
    }

    /** A finite number. */
    double number(String key) {
      Double d = numberOrNull(key);
      if (d == null) {
        throw new ShadowFormatException(path(key) + ": must be a number");
      }
      return d;
    }

    /** A finite number, or null when absent or null. */
    Double numberOrNull(String key) {
      Object v = m.get(key);
      if (v == null) {
        return null;
      }
      if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
        return n.doubleValue();
      }
      throw new ShadowFormatException(path(key) + ": must be a finite number");
    }

    Obj obj(String key) {
      return Wire.obj(m.get(key), path(key));
    }

    Obj objOrNull(String key) {
      Object v = m.get(key);
      return v == null ? null : Wire.obj(v, path(key));
    }
  }
}
