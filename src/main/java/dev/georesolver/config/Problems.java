package dev.georesolver.config;

import java.util.ArrayList;
import java.util.List;

/** The problems found while reading a manifest, in the order found, each naming its path. Not thread-safe. */
final class Problems {

  private final List<String> list = new ArrayList<>();

  /** {@code routing.tiers[1].timeout_ms} + {@code must be > 0}; an empty path gives the message alone. */
  void add(String path, String message) {
    list.add(path.isEmpty() ? message : path + " " + message);
  }

  /** A problem already written with its path. */
  void add(String problem) {
    list.add(problem);
  }

  /** Whether a problem names {@code path} (or a path below it). */
  boolean reportedAt(String path) {
    return list.stream().anyMatch(p -> p.startsWith(path + " ") || p.startsWith(path + ".") || p.startsWith(path + "["));
  }

  int count() {
    return list.size();
  }

  boolean isEmpty() {
    return list.isEmpty();
  }

  ManifestException exception() {
    return new ManifestException(list);
  }
}
