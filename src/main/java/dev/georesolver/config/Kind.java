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
}
