package dev.georesolver.state.tables;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A table: rows keyed by string, each with a version and an opaque body, and the named sorted indexes
 * a row may be a member of (each membership with a score; rows of equal score in key order).
 *
 * <p>The {@code group} is the unit of atomicity: on Redis Cluster every key of a group lives in one
 * hash slot, so a transaction there may touch one group only (a backend on one machine takes any).
 * Immutable and thread-safe.
 *
 * @param group the group, e.g. {@code reconcile} or {@code batch:<id>}
 * @param name the table's name inside its group
 * @param indexes the indexes its rows may belong to
 */
public record Table(String group, String name, List<String> indexes) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:@=-]{1,200}");

  public Table {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(group).matches() || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("table names are [A-Za-z0-9_.:@=-]{1,200}: " + group + "/" + name);
    }
    indexes = List.copyOf(indexes);
    for (String i : indexes) {
      if (!NAME.matcher(i).matches()) {
        throw new IllegalArgumentException("index names are [A-Za-z0-9_.:@=-]{1,200}: " + i);
      }
    }
  }

  /** A table with these indexes. */
  public static Table of(String group, String name, String... indexes) {
    return new Table(group, name, List.of(indexes));
  }

  /** {@code group/name}, as logs and errors name it. */
  public String id() {
    return group + "/" + name;
  }

  /** Fails unless {@code index} is one of this table's. */
  public void requireIndex(String index) {
    if (!indexes.contains(index)) {
      throw new IllegalArgumentException("table " + id() + " has no index " + index);
    }
  }
}
