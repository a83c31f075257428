package dev.georesolver.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The schema of one manifest section (a YAML mapping such as {@code routing},
 * {@code routing.tiers[]} or {@code circuit_breaker}): its {@link Field}s in declaration order and
 * the rules that tie fields together. It reads a YAML node into an immutable {@code T} and reports
 * every problem with its path, so one type holds each section's keys, defaults and rules.
 *
 * <p>Reading is strict: a key the section does not declare is a problem
 * ({@code routing.tiers[0].timout_ms is not a known field}); every problem is reported, none
 * stops the reading (a field that has one reads as null, and rules skip what they cannot judge).
 *
 * <p>A section type declares itself like this (the order of declaration is the order of reading
 * and of the effective configuration):
 *
 * <pre>{@code
 * public final class BreakerConfig extends Settings {
 *   public static final Section<BreakerConfig> SECTION = new Section<>(BreakerConfig::new);
 *   public static final Field<Integer> FAILURE_THRESHOLD = SECTION.ints("failure_threshold", 1, Integer.MAX_VALUE).byDefault(5);
 *   private BreakerConfig(Settings read) { super(read); }
 *   public int failureThreshold() { return get(FAILURE_THRESHOLD); }
 * }
 * }</pre>
 *
 * <p>A section is built while its class initializes and frozen by its first read; after that it
 * is immutable and thread-safe.
 *
 * @param <T> the section's type
 */
public final class Section<T extends Settings> {

  /** A rule across a section's fields, run after they are read (and defaulted). */
  @FunctionalInterface
  public interface Rule {
    /**
     * Adds to {@code at} what is wrong.
     *
     * @param read the fields as read: null where absent without default or refused
     */
    void check(Settings read, Scope at);
  }

  /** Where a rule reports: the section's path and the problem list. */
  public static final class Scope {
    private final String path;
    private final Problems problems;

    Scope(String path, Problems problems) {
      this.path = path;
      this.problems = problems;
    }

    /** {@code <section path> <message>}. */
    public void problem(String message) {
      problems.add(path, message);
    }

    /** {@code <section path>.<key> <message>}. */
    public void problem(String key, String message) {
      problems.add(child(path, key), message);
    }

    /** A problem that already names its path (from a validator that writes its own). */
    public void problemAsIs(String problem) {
      problems.add(problem);
    }

    /**
     * Whether a problem was already reported at one of this section's keys: a refused value reads
     * as null like an absent one, and a rule should not report the same mistake twice.
     */
    public boolean reported(String key) {
      return problems.reportedAt(child(path, key));
    }

    /** The full path of one of this section's keys, for messages that name another field. */
    public String path(String key) {
      return child(path, key);
    }
  }

  private final Function<Settings, T> make;
  private final List<Field<?>> fields = new ArrayList<>();
  private final List<Rule> rules = new ArrayList<>();
  private volatile Set<String> keys;

  /** A section whose values are wrapped by {@code make} (the section type's constructor). */
  public Section(Function<Settings, T> make) {
    this.make = make;
  }

  /** A non-empty string. */
  public Field<String> string(String key) {
    return add(key, Kinds.STRING);
  }

  /** {@code true} or {@code false}. */
  public Field<Boolean> bool(String key) {
    return add(key, Kinds.BOOLEAN);
  }

  /** An integer in {@code [min, max]} (use {@link Long#MAX_VALUE} for no upper bound). */
  public Field<Long> longs(String key, long min, long max) {
    return add(key, Kinds.integer(min, max, Long.MAX_VALUE, Long::valueOf));
  }

  /** An integer in {@code [min, max]} that fits an {@code int} (use {@link Integer#MAX_VALUE} for no upper bound). */
  public Field<Integer> ints(String key, int min, int max) {
    return add(key, Kinds.integer(min, max, Integer.MAX_VALUE, v -> (int) v));
  }

  /** A finite number in {@code [min, max]}; either bound may be infinite. */
  public Field<Double> number(String key, double min, double max) {
    return add(key, Kinds.number(min, max));
  }

  /**
   * One of {@code options} by its wire name.
   *
   * @param unknown the problem's text for a name that is none of them
   */
  public <E> Field<E> choice(String key, List<E> options, Function<E, String> wire, Function<String, String> unknown) {
    return add(key, Kinds.choice(options, wire, unknown));
  }

  /**
   * A non-empty list of {@code options} by their wire names.
   *
   * @param unknown the problem's text for an element that is none of them
   */
  public <E> Field<Set<E>> setOf(String key, List<E> options, Function<E, String> wire, Function<Object, String> unknown) {
    return add(key, Kinds.setOf(options, wire, unknown));
  }

  /** A non-empty list of distinct non-empty strings, as a set in the order given. */
  public Field<Set<String>> strings(String key) {
    return add(key, Kinds.STRINGS);
  }

  /** A nested section. */
  public <S extends Settings> Field<S> section(String key, Section<S> section) {
    return add(key, Kinds.section(section));
  }

  /** A non-empty list of sections; with {@code uniqueBy}, no two elements may share that field's value. */
  public <S extends Settings> Field<List<S>> list(String key, Section<S> section, Field<?> uniqueBy) {
    return add(key, Kinds.list(section, uniqueBy));
  }

  /** A list of sections that may be empty ({@code []}); with {@code uniqueBy}, as {@link #list}. */
  public <S extends Settings> Field<List<S>> listOrEmpty(String key, Section<S> section, Field<?> uniqueBy) {
    return add(key, Kinds.list(section, uniqueBy, true));
  }

  /**
   * Named sections ({@code intents: {describe: {...}}}); each entry's name is its
   * {@link Settings#entryKey()}.
   *
   * @param emptyProblem what is said of an empty mapping
   */
  public <S extends Settings> Field<Map<String, S>> map(String key, Section<S> section, String emptyProblem) {
    return add(key, Kinds.map(section, emptyProblem));
  }

  /** A mapping of strings to strings. */
  public Field<Map<String, String>> stringMap(String key) {
    return add(key, Kinds.STRING_MAP);
  }

  /** Adds a rule across fields, run in declaration order after every field is read. */
  public void rule(Rule rule) {
    checkOpen();
    rules.add(rule);
  }

  /** The fields, in declaration order. */
  public List<Field<?>> fields() {
    return Collections.unmodifiableList(fields);
  }

  /**
   * Reads one section from YAML text on its own (tests, tools): problems name paths relative
   * to the section.
   *
   * @throws IllegalArgumentException listing every problem: a literal in code that is wrong is a
   *     programming error
   */
  public T parse(String yaml) {
    Problems problems = new Problems();
    Object node;
    try {
      node = ManifestLoader.yaml(yaml);
    } catch (ManifestException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    Map<String, Object> m = node == null ? Map.of() : mapping(node, "the section", problems);
    T t = m == null ? null : read(m, "", null, problems);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(problems.exception().getMessage());
    }
    return t;
  }

  /**
   * The section with every field at its default.
   *
   * @throws IllegalStateException when a field is required
   */
  public T defaults() {
    Problems problems = new Problems();
    T t = read(Map.of(), "", null, problems);
    if (!problems.isEmpty()) {
      throw new IllegalStateException("the section has no defaults: " + problems.exception().getMessage());
    }
    return t;
  }

  /**
   * Reads {@code node} found at {@code path}.
   *
   * @param entryKey the entry's name when the section is an entry of a named mapping, else null
   */
  T read(Map<String, Object> node, String path, String entryKey, Problems problems) {
    Set<String> known = freeze();
    for (String k : node.keySet()) {
      if (!known.contains(k)) {
        problems.add(child(path, k), "is not a known field");
      }
    }
    Object[] values = new Object[fields.size()];
    for (Field<?> f : fields) {
      values[f.index()] = f.read(node, path, problems);
    }
    Settings soFar = new Settings(this, entryKey, values);
    for (Field<?> f : fields) {
      if (f.computed() && node.get(f.key()) == null) {
        values[f.index()] = f.compute(soFar);
      }
    }
    // The copy taken here is what is kept: nothing writes to it afterwards.
    Settings read = new Settings(this, entryKey, values.clone());
    Scope at = new Scope(path, problems);
    for (Rule r : rules) {
      r.check(read, at);
    }
    return make.apply(read);
  }

  private <V> Field<V> add(String key, Kind<V> kind) {
    checkOpen();
    if (fields.stream().anyMatch(f -> f.key().equals(key))) {
      throw new IllegalStateException("field " + key + " is declared twice");
    }
    Field<V> f = new Field<>(this, fields.size(), key, kind);
    fields.add(f);
    return f;
  }

  void checkOpen() {
    if (keys != null) {
      throw new IllegalStateException("the section is frozen: it has already read a manifest");
    }
  }

  private Set<String> freeze() {
    Set<String> k = keys;
    if (k == null) {
      Set<String> s = new LinkedHashSet<>();
      fields.forEach(f -> s.add(f.key()));
      k = Collections.unmodifiableSet(s);
      keys = k;
    }
    return k;
  }

  /** {@code path.key}, or {@code key} at the top. */
  static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** {@code o} as a mapping with string keys, or null after saying why it is not one. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> mapping(Object o, String path, Problems problems) {
    if (o instanceof Map<?, ?> m) {
      for (Object k : m.keySet()) {
        if (!(k instanceof String)) {
          problems.add(path, "has a non-string key: " + k);
          return null;
        }
      }
      return (Map<String, Object>) m;
    }
    problems.add(path, o == null ? "is required" : "must be a mapping");
    return null;
  }
}
