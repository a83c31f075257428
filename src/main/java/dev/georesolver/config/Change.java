package dev.georesolver.config;

/**
 * One setting a new manifest changes against the one serving, and what a reload does with it
 * ({@link Manifest#changesTo}). Immutable.
 *
 * @param path the setting's path ({@code audit.level}, {@code routing.tiers[1].timeout_ms}); a
 *     whole element or entry when one side has it only ({@code tenants[2]}, {@code intents.contain})
 * @param reload what a reload does with it, as its field declares
 * @param why for {@link Reload#RESTART}: what holds the value read at start; else null
 */
public record Change(String path, Reload reload, String why) {

  /** {@code <path>: <why>} for a restart, {@code <path>} otherwise: how the reload's answer and log name it. */
  @Override
  public String toString() {
    return why == null ? path : path + ": " + why;
  }
}
