package dev.georesolver.config;

/**
 * How a field's YAML value is read and shown: the part of a {@link Field} that depends on its type.
 * Implementations are stateless and thread-safe.
 *
 * @param <V> the value's Java type; every value returned is immutable
 */
interface Kind<V> {

  /**
   * The value of a given (non-null) YAML node, or null after adding to {@code problems} why it
   * cannot be used.
   *
   * @param path the field's path, which every problem names
   */
  V read(Object raw, String path, Problems problems);

  /** The value as it appears in the effective configuration ({@code GET /manifest}). */
  Object json(V value);

  /** What is said of a required field that is absent. */
  default String absentProblem() {
    return "is required";
  }

  /** How a value nests: one value, one section, a list of sections or named sections. */
  enum Shape { VALUE, SECTION, LIST, MAP }

  /** See {@link Shape}. */
  default Shape shape() {
    return Shape.VALUE;
  }

  /** The section that reads the value (or each element or entry), or null for a plain value. */
  default Section<?> nested() {
    return null;
  }

  /** For a list of sections, the field no two elements share, or null. */
  default Field<?> uniqueBy() {
    return null;
  }

  /** The type as the configuration reference names it ({@code integer}, {@code list of strings}). */
  String type();

  /** The values the kind itself allows beyond its type ({@code 1 to 600000}, {@code exact, open_data}), or null. */
  default String allowed() {
    return null;
  }
}
