package dev.georesolver;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The parts of the resolver one process runs. Without a clustered event bus a process runs them
 * all (nothing else could reach a missing part), except where the process itself is the only
 * caller: the command line's embedded resolver runs {@link #CHAIN} and {@link #TIERS} alone, with no
 * HTTP port and no durable store of its own.
 */
public enum Role {
  /** The HTTP face: ingress instances, and the operator's live view they serve. */
  INGRESS,
  /** The ladder walkers, with their own dedupe and cached index. */
  CHAIN,
  /** One verticle per tier. */
  TIERS,
  /** The durable store, the reconciler and the delivery of corrections. */
  STATE;

  /** Every role: a process that serves alone. */
  public static final Set<Role> ALL = Set.copyOf(EnumSet.allOf(Role.class));

  /** The role of this name ({@code ingress}, {@code chain}, {@code tiers}, {@code state}). */
  public static Optional<Role> of(String name) {
    for (Role r : values()) {
      if (r.wire().equals(name.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /** Its name on the command line. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}
