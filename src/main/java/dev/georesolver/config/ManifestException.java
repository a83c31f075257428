package dev.georesolver.config;

import java.util.List;

/**
 * The manifest cannot be used: every problem found, each naming its path
 * ({@code routing.tiers[1].timeout_ms must be > 0}).
 */
public final class ManifestException extends Exception {

  private final List<String> problems;

  public ManifestException(List<String> problems) {
    super("invalid manifest:\n  - " + String.join("\n  - ", problems), null, false, false);
    this.problems = List.copyOf(problems);
  }

  /** Every problem, in manifest order. */
  public List<String> problems() {
    return problems;
  }
}
