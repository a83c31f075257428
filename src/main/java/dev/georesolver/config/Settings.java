package dev.georesolver.config;

import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.Objects;

/**
 * The values one {@link Section} read, by {@link Field}: the base of every section type, whose
 * accessors are {@code get(FIELD)}. Immutable and thread-safe (every value is immutable); equal
 * when the same section read equal values.
 *
 * <p>Within the loader a section read with problems may hold null for the fields that had them;
 * such a section never leaves the loader, since the manifest is then refused.
 */
public class Settings {

  private final Section<?> section;
  private final String entryKey;
  private final Object[] values;

  Settings(Section<?> section, String entryKey, Object[] values) {
    this.section = section;
    this.entryKey = entryKey;
    this.values = values;
  }

  /** A section type's view of what its section read. */
  protected Settings(Settings read) {
    this(read.section, read.entryKey, read.values);
  }

  /** The value of one of this section's fields (null when optional and absent). */
  @SuppressWarnings("unchecked")
  public final <V> V get(Field<V> field) {
    if (field.section() != section) {
      throw new IllegalArgumentException(field + " is not a field of this section");
    }
    return (V) values[field.index()];
  }

  /** The section that read it. */
  final Section<?> section() {
    return section;
  }

  /** The name of this entry in a named mapping ({@code intents.<name>}), else null. */
  protected final String entryKey() {
    return entryKey;
  }

  /**
   * The effective configuration of this section: every field, defaults filled in, in declaration
   * order (null where optional and absent), redacted where the field says so. A new object each call.
   */
  public final JsonObject toJson() {
    JsonObject j = new JsonObject();
    for (Field<?> f : section.fields()) {
      j.put(f.key(), f.json(values[f.index()]));
    }
    return j;
  }

  @Override
  public final boolean equals(Object o) {
    return o instanceof Settings s && s.getClass() == getClass() && s.section == section
        && Objects.equals(s.entryKey, entryKey) && Arrays.equals(s.values, values);
  }

  @Override
  public final int hashCode() {
    return Objects.hash(entryKey, Arrays.hashCode(values));
  }

  /** The effective configuration, redacted as in {@code GET /manifest}: safe for a log line. */
  @Override
  public String toString() {
    return getClass().getSimpleName() + (entryKey == null ? "" : "[" + entryKey + "]") + toJson().encode();
  }
}
