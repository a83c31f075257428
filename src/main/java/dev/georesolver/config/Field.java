package dev.georesolver.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One key of a manifest section, declared once with everything about it: its YAML key and kind
 * (given by the {@link Section} method that declares it), whether it is required or its default,
 * the checks a given value must pass, and how it shows in the effective configuration.
 *
 * <pre>{@code
 * public static final Field<Long> TIMEOUT_MS = SECTION.longs("timeout_ms", 1, Long.MAX_VALUE).required();
 * public static final Field<Integer> POOL_SIZE = SECTION.ints("pool_size", 1, Integer.MAX_VALUE).byDefault(64);
 * }</pre>
 *
 * <p>A field is configured while its declaring class initializes and is frozen once its section
 * has read anything; from then on it is immutable and thread-safe. Defaults must be immutable
 * values. Checks and defaults apply as follows: an absent field takes its default (or the one
 * {@link #defaultFrom computed} from the fields read before), a required absent field is a
 * problem, a given value must pass the kind's own rules and then every {@link #check}; a value
 * that fails any of them reads as null and is reported once.
 *
 * @param <V> the value's Java type
 */
public final class Field<V> {

  private final Section<?> section;
  private final int index;
  private final String key;
  private final Kind<V> kind;
  private boolean required;
  private V byDefault;
  private Function<Settings, V> defaultFrom;
  private final List<Function<? super V, String>> checks = new ArrayList<>();
  private Function<? super V, Object> shownAs;

  Field(Section<?> section, int index, String key, Kind<V> kind) {
    this.section = section;
    this.index = index;
    this.key = Objects.requireNonNull(key);
    this.kind = kind;
  }

  /** The YAML key. */
  public String key() {
    return key;
  }

  /** The default taken when the field is absent, or null (required, optional or computed). */
  public V defaultValue() {
    return byDefault;
  }

  /** Whether an absent field is a problem. */
  public boolean isRequired() {
    return required;
  }

  /** Absent is a problem ({@code <path> is required}). */
  public Field<V> required() {
    section.checkOpen();
    this.required = true;
    this.byDefault = null;
    return this;
  }

  /** Absent means {@code value} (immutable). */
  public Field<V> byDefault(V value) {
    section.checkOpen();
    this.byDefault = Objects.requireNonNull(value);
    this.required = false;
    return this;
  }

  /**
   * Absent means what {@code compute} makes of the section's other fields (it sees null for a
   * field that is absent without default or was refused, and may return null).
   */
  public Field<V> defaultFrom(Function<Settings, V> compute) {
    section.checkOpen();
    this.defaultFrom = Objects.requireNonNull(compute);
    return this;
  }

  /** A given value must pass {@code test}, else {@code <path> <problem>}. */
  public Field<V> check(Predicate<? super V> test, String problem) {
    return check(v -> test.test(v) ? null : problem);
  }

  /** A given value must pass {@code check}, which returns the problem's text or null when it passes. */
  public Field<V> check(Function<? super V, String> check) {
    section.checkOpen();
    checks.add(Objects.requireNonNull(check));
    return this;
  }

  /** How the value shows in the effective configuration, instead of the kind's own form (redaction). */
  public Field<V> shownAs(Function<? super V, Object> show) {
    section.checkOpen();
    this.shownAs = Objects.requireNonNull(show);
    return this;
  }

  Section<?> section() {
    return section;
  }

  int index() {
    return index;
  }

  boolean computed() {
    return defaultFrom != null;
  }

  V compute(Settings soFar) {
    return defaultFrom.apply(soFar);
  }

  /** The field's value in {@code node}, reporting at {@code path.key}. */
  V read(Map<String, Object> node, String path, Problems problems) {
    Object raw = node.get(key);
    String at = Section.child(path, key);
    if (raw == null) {
      if (required) {
        problems.add(at, kind.absentProblem());
      }
      return byDefault;
    }
    V v = kind.read(raw, at, problems);
    if (v == null) {
      return null;
    }
    for (Function<? super V, String> check : checks) {
      String problem = check.apply(v);
      if (problem != null) {
        problems.add(at, problem);
        return null;
      }
    }
    return v;
  }

  @SuppressWarnings("unchecked")
  Object json(Object value) {
    if (value == null) {
      return null;
    }
    return shownAs != null ? shownAs.apply((V) value) : kind.json((V) value);
  }

  @Override
  public String toString() {
    return "Field[" + key + "]";
  }
}
