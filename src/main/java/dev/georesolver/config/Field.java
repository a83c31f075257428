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
  /** The problems of the checks given as text ({@link #check(Predicate, String)}), for the reference. */
  private final List<String> checkProblems = new ArrayList<>();
  private Function<? super V, Object> shownAs;
  private Reload reload;
  private String readAtStartWhy;

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
    check(v -> test.test(v) ? null : problem);
    checkProblems.add(problem);
    return this;
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

  /**
   * A reload applies a change of this field (and of what it encloses, unless declared otherwise
   * there): the part that reads it reads the serving revision at each use.
   */
  public Field<V> live() {
    return reloads(Reload.LIVE, null);
  }

  /**
   * A reload applies a change of this field by redeploying every enabled tier: the tiers' verticles
   * are built from it.
   */
  public Field<V> redeploysTiers() {
    return reloads(Reload.TIERS, null);
  }

  /**
   * Only a restart applies a change of this field (and of what it encloses, unless declared
   * otherwise there): a reload that changes it is refused and names it with {@code why}.
   *
   * @param why what holds the value read at start ({@code "the listening sockets hold the limits"})
   */
  public Field<V> readAtStart(String why) {
    return reloads(Reload.RESTART, Objects.requireNonNull(why));
  }

  private Field<V> reloads(Reload r, String why) {
    section.checkOpen();
    this.reload = r;
    this.readAtStartWhy = why;
    return this;
  }

  /** What a reload does with a change of this field as declared here, or null when it is as its enclosing field's. */
  public Reload reload() {
    return reload;
  }

  /** For a field declared {@link #readAtStart}, why; else null. */
  public String readAtStartWhy() {
    return readAtStartWhy;
  }

  /** The type as the configuration reference names it ({@code integer}, {@code list of mappings}). */
  public String type() {
    return kind.type();
  }

  /**
   * The values allowed beyond the type: the kind's ({@code 1 to 600000}, {@code exact, open_data})
   * and the problems of the checks given as text ({@code must be in (0, 1]}), joined by
   * {@code "; "}; or null.
   */
  public String allowed() {
    List<String> all = new ArrayList<>();
    if (kind.allowed() != null) {
      all.add(kind.allowed());
    }
    all.addAll(checkProblems);
    return all.isEmpty() ? null : String.join("; ", all);
  }

  /** The section that reads the value (a nested mapping, each element of a list or each named entry), or null. */
  public Section<?> nested() {
    return kind.nested();
  }

  /** Whether the value is a list of sections ({@code routing.tiers}) or named sections ({@code intents}). */
  public boolean repeated() {
    return kind.shape() == Kind.Shape.LIST || kind.shape() == Kind.Shape.MAP;
  }

  /** Whether the value is named sections ({@code intents: {describe: {...}}}). */
  public boolean named() {
    return kind.shape() == Kind.Shape.MAP;
  }

  /** Whether the default is computed from the section's other fields. */
  public boolean defaultComputed() {
    return defaultFrom != null;
  }

  /** The default as the effective configuration shows it, or null. */
  public Object defaultShown() {
    return json(byDefault);
  }

  Kind<V> kind() {
    return kind;
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
