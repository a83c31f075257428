package dev.georesolver.bus;

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

  /**
   * The roles a comma-separated list names ({@code ingress,chain}); {@code all} names every role.
   *
   * @throws IllegalArgumentException naming an unknown role, or for an empty list
   */
  public static Set<Role> parse(String list) {
    EnumSet<Role> roles = EnumSet.noneOf(Role.class);
    for (String part : list.split(",", -1)) {
      String name = part.strip().toLowerCase(Locale.ROOT);
      if (name.equals("all")) {
        roles.addAll(ALL);
        continue;
      }
      roles.add(of(name).orElseThrow(() -> new IllegalArgumentException("unknown role '" + oneWord(part)
          + "': roles are ingress, chain, tiers, state (or all)")));
    }
    if (roles.isEmpty()) {
      throw new IllegalArgumentException("no role given: roles are ingress, chain, tiers, state (or all)");
    }
    return Set.copyOf(roles);
  }

  /**
   * Why a node running {@code roles} could not serve, or empty when it can. Without a clustered
   * bus only every role serves: nothing else could reach a missing part (the command line's embedded
   * resolver, its own only caller, is the one exception and does not ask). On a cluster any roles
   * serve together with the other nodes: what a node lacks, the cluster's other nodes provide, and
   * what is missing from the whole cluster is answered at run time (503 with no chain up, a rung
   * skipped as unavailable with no tier node up).
   */
  public static Optional<String> cannotServe(Set<Role> roles, boolean clustered) {
    if (roles.isEmpty()) {
      return Optional.of("no role given");
    }
    if (!clustered && !roles.containsAll(ALL)) {
      return Optional.of("roles " + names(roles) + " without --cluster: nothing could reach the missing "
          + names(EnumSet.complementOf(EnumSet.copyOf(roles))) + "; run every role, or join a cluster (--cluster)");
    }
    return Optional.empty();
  }

  /** The roles' names, in declaration order, comma-separated. */
  public static String names(Set<Role> roles) {
    StringBuilder b = new StringBuilder();
    for (Role r : values()) {
      if (roles.contains(r)) {
        b.append(b.length() == 0 ? "" : ",").append(r.wire());
      }
    }
    return b.toString();
  }

  /** A word from the command line, shortened and stripped of anything but a name's characters, to repeat in a message. */
  private static String oneWord(String s) {
    String t = s.strip();
    t = t.length() > 32 ? t.substring(0, 32) + "..." : t;
    return t.replaceAll("[^A-Za-z0-9_.-]", "?");
  }

  /** Its name on the command line. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}
