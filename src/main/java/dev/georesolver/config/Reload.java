package dev.georesolver.config;

/**
 * What a reload does with a manifest field whose value it changes: declared once on the field
 * ({@link Field#live()}, {@link Field#redeploysTiers()}, {@link Field#readAtStart(String)}), or
 * taken from the field that encloses it; a top-level field that declares nothing is
 * {@link #RESTART}. The reloader ({@code reload.ManifestDiff}), {@code /manifest}, the
 * configuration reference and {@code validate --explain} all read it from there.
 */
public enum Reload {
  /** A reload applies it: requests begun after the swap see the new value. */
  LIVE("applied by a reload"),
  /**
   * A reload applies it by redeploying every enabled tier (their breakers and latency windows
   * start afresh; a forced state is carried over).
   */
  TIERS("applied by a reload, which redeploys every tier"),
  /** Only read at start: a reload that changes it is refused, naming it, and the old revision keeps serving. */
  RESTART("needs a restart");

  private final String words;

  Reload(String words) {
    this.words = words;
  }

  /** How the reference says it: {@code applied by a reload}, or {@code needs a restart}. */
  public String words() {
    return words;
  }
}
