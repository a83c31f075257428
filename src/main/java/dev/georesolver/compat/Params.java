package dev.georesolver.compat;

import java.util.Map;

/**
 * A request's query parameters as the translators read them: one value per name (the first when a
 * client repeats one), already percent-decoded with {@code +} as a space. Implementations are
 * read-only.
 */
@FunctionalInterface
public interface Params {

  /** The value of {@code name}, or null when absent. */
  String get(String name);

  /** Parameters from a map (tests, and callers that already hold one). */
  static Params of(Map<String, String> values) {
    return values::get;
  }
}
