package dev.georesolver.state.tables;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An append-only log: entries with sequence numbers from 1, strictly increasing, never reused (a log
 * trimmed at its head keeps counting from where it was). An appender names the number itself,
 * normally {@link Txn#lastSeq} + 1, and the commit fails if another writer appended first, so a
 * number can be part of what the appender computes (the audit chain hashes it). Immutable and
 * thread-safe.
 *
 * @param group the unit of atomicity (see {@link Table})
 * @param name the log's name inside its group
 */
public record Log(String group, String name) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:@=-]{1,200}");

  public Log {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(group).matches() || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("log names are [A-Za-z0-9_.:@=-]{1,200}: " + group + "/" + name);
    }
  }

  /** {@code group/name}. */
  public String id() {
    return group + "/" + name;
  }
}
