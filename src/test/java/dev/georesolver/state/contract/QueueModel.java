package dev.georesolver.state.contract;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The reconcile queue as a plain model, written from the queue's contract and not from its rules:
 * what a correct store answers. Not thread-safe.
 */
final class QueueModel {

  static final class Item {
    final String key;
    String state = "pending";
    int attempts;
    long notBefore;
    String owner;
    long leaseUntil;
    long acceptedAt;
    long resolvedAt;
    long endedAt;

    Item(String key) {
      this.key = key;
    }
  }

  final Map<String, Item> items = new TreeMap<>();
  final Set<String> corrected = new HashSet<>();
  static final long DONE_KEEP_MS = 7L * 86_400_000L;

  /** True when the debt was accepted. */
  boolean enqueue(String key, long resolvedAt, long now) {
    Item i = items.get(key);
    if (i == null) {
      i = new Item(key);
      i.acceptedAt = now;
      i.resolvedAt = resolvedAt;
      items.put(key, i);
      return true;
    }
    if (i.state.equals("dead") || resolvedAt <= i.resolvedAt) {
      return false;
    }
    i.resolvedAt = resolvedAt;
    if (i.state.equals("done")) {
      i.state = "pending";
      i.attempts = 0;
      i.notBefore = 0;
      i.acceptedAt = now;
      i.owner = null;
    }
    return true;
  }

  boolean claimable(Item i, long now) {
    return (i.state.equals("pending") && i.notBefore <= now) || (i.state.equals("in_progress") && i.leaseUntil < now);
  }

  /** The keys leased, oldest accepted first (then by key). */
  List<Item> lease(String owner, int max, long leaseMs, long now) {
    List<Item> open = new ArrayList<>(items.values().stream().filter(i -> i.state.equals("pending") || i.state.equals("in_progress"))
        .toList());
    open.sort(Comparator.comparingLong((Item i) -> i.acceptedAt).thenComparing(i -> i.key));
    List<Item> out = new ArrayList<>();
    for (Item i : open) {
      if (out.size() >= max) {
        break;
      }
      if (claimable(i, now)) {
        i.state = "in_progress";
        i.owner = owner;
        i.leaseUntil = now + leaseMs;
        out.add(i);
      }
    }
    return out;
  }

  private Item held(String owner, String key) {
    Item i = items.get(key);
    return i != null && i.state.equals("in_progress") && owner.equals(i.owner) ? i : null;
  }

  /** {@code ok}, and for a correction whether it was appended to the outbox (first for that answer). */
  boolean[] settle(String owner, String key, String how, long notBefore, long now) {
    Item i = held(owner, key);
    if (i == null) {
      return new boolean[] {false, false};
    }
    i.owner = null;
    boolean appended = false;
    switch (how) {
      case "correct" -> {
        appended = corrected.add(key + "|" + i.resolvedAt);
        i.state = "done";
        i.endedAt = now;
      }
      case "confirm" -> {
        i.state = "done";
        i.endedAt = now;
      }
      case "retry" -> {
        i.state = "pending";
        i.attempts++;
        i.notBefore = notBefore;
      }
      case "release" -> {
        i.state = "pending";
        i.notBefore = notBefore;
      }
      case "dead" -> {
        i.state = "dead";
        i.attempts++;
      }
      default -> throw new IllegalArgumentException(how);
    }
    return new boolean[] {true, appended};
  }

  /** Done items kept past a week are forgotten. */
  void prune(long now) {
    items.values().removeIf(i -> i.state.equals("done") && i.endedAt + DONE_KEEP_MS <= now);
  }

  long count(String state) {
    return items.values().stream().filter(i -> i.state.equals(state)).count();
  }

  double oldestAgeS(long now) {
    return items.values().stream().filter(i -> i.state.equals("pending") || i.state.equals("in_progress"))
        .mapToLong(i -> i.acceptedAt).min().stream().mapToDouble(a -> Math.max(0, now - a) / 1000.0).findFirst().orElse(0);
  }
}
