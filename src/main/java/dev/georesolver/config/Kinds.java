package dev.georesolver.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * The kinds of field a section may declare, with today's wording of every problem. Each returns
 * immutable values (unmodifiable copies of what SnakeYAML built), so nothing read keeps a mutable
 * YAML structure alive.
 */
final class Kinds {

  private Kinds() {}

  /** A non-empty string. */
  static final Kind<String> STRING = new Kind<>() {
    @Override
    public String read(Object raw, String path, Problems problems) {
      if (raw instanceof String s && !s.isBlank()) {
        return s;
      }
      problems.add(path, "must be a non-empty string");
      return null;
    }

    @Override
    public Object json(String value) {
      return value;
    }

    @Override
    public String type() {
      return "string";
    }
  };

  /** {@code true} or {@code false}. */
  static final Kind<Boolean> BOOLEAN = new Kind<>() {
    @Override
    public Boolean read(Object raw, String path, Problems problems) {
      if (raw instanceof Boolean b) {
        return b;
      }
      problems.add(path, "must be true or false");
      return null;
    }

    @Override
    public Object json(Boolean value) {
      return value;
    }

    @Override
    public String type() {
      return "boolean";
    }
  };

  /**
   * An integer in {@code [min, max]}. A quantity that must be positive ({@code min >= 1}) says
   * {@code must be > 0} of anything that is not a positive integer; other fields say
   * {@code must be an integer} of a non-integer. A range bounded only by the type's own maximum
   * names the bound it breaks, a narrower one names the whole interval.
   */
  static <V extends Number> Kind<V> integer(long min, long max, long typeMax, LongFunction<V> box) {
    String below = min == 1 ? "must be > 0" : "must be >= " + min;
    String outside = max == typeMax ? null : "must be in [" + min + ", " + max + "]";
    return new Kind<>() {
      @Override
      public V read(Object raw, String path, Problems problems) {
        BigInteger n = raw instanceof Integer || raw instanceof Long ? BigInteger.valueOf(((Number) raw).longValue())
            : raw instanceof BigInteger b ? b : null;
        if (n == null) {
          problems.add(path, min >= 1 ? below : "must be an integer");
          return null;
        }
        boolean low = n.compareTo(BigInteger.valueOf(min)) < 0;
        if (low || n.compareTo(BigInteger.valueOf(max)) > 0) {
          problems.add(path, outside != null ? outside : low ? below : "must be <= " + max);
          return null;
        }
        return box.apply(n.longValue());
      }

      @Override
      public Object json(V value) {
        return value;
      }

      @Override
      public String type() {
        return "integer";
      }

      @Override
      public String allowed() {
        return range(Long.toString(min), max == typeMax ? null : Long.toString(max));
      }
    };
  }

  /** {@code min to max}, or {@code >= min} without an upper bound. */
  private static String range(String min, String max) {
    if (min == null) {
      return max == null ? null : "<= " + max;
    }
    return max == null ? ">= " + min : min + " to " + max;
  }

  /** A finite number in {@code [min, max]} (either bound may be infinite). */
  static Kind<Double> number(double min, double max) {
    String outside = Double.isInfinite(min) && Double.isInfinite(max) ? null
        : Double.isInfinite(max) ? "must be >= " + plain(min)
        : Double.isInfinite(min) ? "must be <= " + plain(max)
        : "must be in [" + plain(min) + ", " + plain(max) + "]";
    return new Kind<>() {
      @Override
      public Double read(Object raw, String path, Problems problems) {
        if (!(raw instanceof Number n) || !Double.isFinite(n.doubleValue())) {
          problems.add(path, "must be a number");
          return null;
        }
        double d = n.doubleValue();
        if (d < min || d > max) {
          problems.add(path, outside);
          return null;
        }
        return d;
      }

      @Override
      public Object json(Double value) {
        return value;
      }

      @Override
      public String type() {
        return "number";
      }

      @Override
      public String allowed() {
        return range(Double.isInfinite(min) ? null : plain(min), Double.isInfinite(max) ? null : plain(max));
      }
    };
  }

  private static String plain(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  /** One of {@code options}, written in YAML as its {@code wire} name. */
  static <E> Kind<E> choice(List<E> options, Function<E, String> wire, Function<String, String> unknown) {
    List<E> copy = List.copyOf(options);
    return new Kind<>() {
      @Override
      public E read(Object raw, String path, Problems problems) {
        String s = STRING.read(raw, path, problems);
        if (s == null) {
          return null;
        }
        for (E e : copy) {
          if (wire.apply(e).equals(s)) {
            return e;
          }
        }
        problems.add(path, unknown.apply(s));
        return null;
      }

      @Override
      public Object json(E value) {
        return wire.apply(value);
      }

      @Override
      public String type() {
        return "string";
      }

      @Override
      public String allowed() {
        return String.join(", ", copy.stream().map(wire).toList());
      }
    };
  }

  /** A non-empty YAML list of {@code options} by their wire names, as an unmodifiable set. */
  static <E> Kind<Set<E>> setOf(List<E> options, Function<E, String> wire, Function<Object, String> unknown) {
    List<E> copy = List.copyOf(options);
    return new Kind<>() {
      @Override
      public Set<E> read(Object raw, String path, Problems problems) {
        if (!(raw instanceof List<?> list) || list.isEmpty()) {
          problems.add(path, "must be a non-empty list");
          return null;
        }
        Set<E> out = new LinkedHashSet<>();
        boolean bad = false;
        for (Object x : list) {
          E e = copy.stream().filter(o -> wire.apply(o).equals(x)).findFirst().orElse(null);
          if (e == null) {
            problems.add(path, unknown.apply(x));
            bad = true;
          } else {
            out.add(e);
          }
        }
        return bad ? null : Collections.unmodifiableSet(out);
      }

      @Override
      public Object json(Set<E> value) {
        return new JsonArray(value.stream().map(wire).toList());
      }

      @Override
      public String type() {
        return "list of strings";
      }

      @Override
      public String allowed() {
        return "any of " + String.join(", ", copy.stream().map(wire).toList());
      }

      @Override
      public String absentProblem() {
        return "must be a non-empty list";
      }
    };
  }

  /** A non-empty YAML list of non-empty strings, each once, as an unmodifiable set in the order given. */
  static final Kind<Set<String>> STRINGS = new Kind<>() {
    @Override
    public Set<String> read(Object raw, String path, Problems problems) {
      if (!(raw instanceof List<?> list) || list.isEmpty()) {
        problems.add(path, absentProblem());
        return null;
      }
      Set<String> out = new LinkedHashSet<>();
      boolean bad = false;
      for (int i = 0; i < list.size(); i++) {
        Object x = list.get(i);
        if (!(x instanceof String s) || s.isBlank()) {
          problems.add(path + "[" + i + "]", "must be a non-empty string");
          bad = true;
        } else if (!out.add(s)) {
          problems.add(path + "[" + i + "]", "'" + s + "' is a duplicate");
          bad = true;
        }
      }
      return bad ? null : Collections.unmodifiableSet(out);
    }

    @Override
    public Object json(Set<String> value) {
      return new JsonArray(List.copyOf(value));
    }

    @Override
    public String type() {
      return "list of strings";
    }

    @Override
    public String absentProblem() {
      return "must be a non-empty list";
    }
  };

  /** A nested mapping read by its own section. */
  static <S extends Settings> Kind<S> section(Section<S> section) {
    return new Kind<>() {
      @Override
      public S read(Object raw, String path, Problems problems) {
        Map<String, Object> m = Section.mapping(raw, path, problems);
        return m == null ? null : section.read(m, path, null, problems);
      }

      @Override
      public Object json(S value) {
        return value.toJson();
      }

      @Override
      public String type() {
        return "mapping";
      }

      @Override
      public Shape shape() {
        return Shape.SECTION;
      }

      @Override
      public Section<?> nested() {
        return section;
      }
    };
  }

  /**
   * A non-empty list of mappings, each read by {@code section} at {@code path[i]}; with
   * {@code uniqueBy}, a later element repeating an earlier one's value of that field is a problem.
   */
  static <S extends Settings> Kind<List<S>> list(Section<S> section, Field<?> uniqueBy) {
    return list(section, uniqueBy, false);
  }

  /** As {@link #list(Section, Field)}; with {@code emptyAllowed}, {@code []} is a valid (empty) list. */
  static <S extends Settings> Kind<List<S>> list(Section<S> section, Field<?> uniqueBy, boolean emptyAllowed) {
    return new Kind<>() {
      @Override
      public List<S> read(Object raw, String path, Problems problems) {
        if (!(raw instanceof List<?> list) || (list.isEmpty() && !emptyAllowed)) {
          problems.add(path, absentProblem());
          return null;
        }
        List<S> out = new ArrayList<>();
        Set<Object> seen = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
          String at = path + "[" + i + "]";
          Map<String, Object> m = Section.mapping(list.get(i), at, problems);
          if (m == null) {
            continue;
          }
          S element = section.read(m, at, null, problems);
          Object unique = uniqueBy == null ? null : element.get(uniqueBy);
          if (unique != null && !seen.add(unique)) {
            problems.add(Section.child(at, uniqueBy.key()), "'" + unique + "' is a duplicate");
          }
          out.add(element);
        }
        return List.copyOf(out);
      }

      @Override
      public Object json(List<S> value) {
        return new JsonArray(value.stream().map(s -> (Object) s.toJson()).toList());
      }

      @Override
      public String absentProblem() {
        return emptyAllowed ? "must be a list" : "must be a non-empty list";
      }

      @Override
      public String type() {
        return "list of mappings";
      }

      @Override
      public String allowed() {
        return emptyAllowed ? null : "at least one";
      }

      @Override
      public Shape shape() {
        return Shape.LIST;
      }

      @Override
      public Section<?> nested() {
        return section;
      }

      @Override
      public Field<?> uniqueBy() {
        return uniqueBy;
      }
    };
  }

  /**
   * A mapping of named entries, each read by {@code section} at {@code path.name} with the name as
   * its {@link Settings#entryKey()}; an entry given no value ({@code describe:}) takes every default.
   */
  static <S extends Settings> Kind<Map<String, S>> map(Section<S> section, String emptyProblem) {
    return new Kind<>() {
      @Override
      public Map<String, S> read(Object raw, String path, Problems problems) {
        Map<String, Object> m = Section.mapping(raw, path, problems);
        if (m == null) {
          return null;
        }
        if (m.isEmpty()) {
          problems.add(path, emptyProblem);
        }
        Map<String, S> out = new LinkedHashMap<>();
        m.forEach((name, node) -> {
          String at = Section.child(path, name);
          Map<String, Object> entry = node == null ? Map.of() : Section.mapping(node, at, problems);
          if (entry != null) {
            out.put(name, section.read(entry, at, name, problems));
          }
        });
        return Collections.unmodifiableMap(out);
      }

      @Override
      public Object json(Map<String, S> value) {
        JsonObject j = new JsonObject();
        value.forEach((name, s) -> j.put(name, s.toJson()));
        return j;
      }

      @Override
      public String type() {
        return "mapping of names to mappings";
      }

      @Override
      public Shape shape() {
        return Shape.MAP;
      }

      @Override
      public Section<?> nested() {
        return section;
      }
    };
  }

  /** A mapping of strings to strings (headers, pinned definitions), order kept. */
  static final Kind<Map<String, String>> STRING_MAP = new Kind<>() {
    @Override
    public Map<String, String> read(Object raw, String path, Problems problems) {
      Map<String, Object> m = Section.mapping(raw, path, problems);
      if (m == null) {
        return null;
      }
      Map<String, String> out = new LinkedHashMap<>();
      int before = problems.count();
      m.forEach((k, v) -> {
        if (v instanceof String s) {
          out.put(k, s);
        } else {
          problems.add(Section.child(path, k), "must be a string");
        }
      });
      return problems.count() > before ? null : Collections.unmodifiableMap(out);
    }

    @Override
    public Object json(Map<String, String> value) {
      return new JsonObject(new LinkedHashMap<>(value));
    }

    @Override
    public String type() {
      return "mapping of strings";
    }
  };
}
