package dev.georesolver.state.tables;

import io.vertx.core.Future;

import java.util.List;
import java.util.Map;

/**
 * One transaction over {@link Tables}: reads, then writes that commit together or not at all.
 *
 * <ul>
 *   <li><b>Rows</b> read with {@link #get} are guarded: if another writer changed one before this
 *       transaction commits, it does not commit ({@link Conflict}) and {@link Tables#transact} runs it
 *       again. A row read after this transaction wrote it is that write (its version one more).
 *   <li><b>Index ranges, counts and counters</b> are not guarded and show the store as committed,
 *       without this transaction's own writes: read the rows they name with {@link #get} before
 *       deciding anything about them.
 *   <li><b>Logs</b>: {@link #append} names the entry's number, which must be above {@link #lastSeq}
 *       as this transaction read it (and above its own earlier appends): {@code lastSeq + 1} unless
 *       a migration keeps another layout's numbers; another writer's append in between is a
 *       conflict.
 * </ul>
 *
 * Writes are applied in the order given. A transaction may not wait for anything but its own reads
 * (no timers, no bus messages): a backend may run it while holding its write lock. Not thread-safe:
 * used by one function on one context.
 */
public interface Txn {

  /** The row, or {@link Row#absent} (version 0). */
  Future<Row> get(Table table, String key);

  /** The rows, in the order of {@code keys}, absent ones as {@link Row#absent}. */
  Future<List<Row>> get(Table table, List<String> keys);

  /**
   * Up to {@code limit} members of {@code index} with {@code min <= score <= max}, in score order and
   * then key order, skipping the first {@code offset}.
   */
  Future<List<Scored>> range(Table table, String index, double min, double max, int offset, int limit);

  /** How many rows {@code index} holds. */
  Future<Long> count(Table table, String index);

  /** Every counter of {@code table} (counters that never moved are missing). */
  Future<Map<String, Long>> counters(Table table);

  /** The last sequence number ever appended to {@code log} (0 for none), trimmed or not. */
  Future<Long> lastSeq(Log log);

  /** Up to {@code limit} entries of {@code log} after sequence number {@code after}, oldest first. */
  Future<List<Entry>> read(Log log, long after, int limit);

  /**
   * Writes the row: its version becomes one more than it was, its body {@code body}, and it is a
   * member of exactly the indexes named in {@code indexes} (with those scores) and of no other.
   */
  void put(Table table, String key, byte[] body, Map<String, Double> indexes);

  /** Removes the row and its index memberships (nothing when it is not there). */
  void delete(Table table, String key);

  /** Adds {@code delta} to a counter of {@code table} (a counter starts at 0). */
  void add(Table table, String counter, long delta);

  /** Appends an entry as number {@code seq}, above every number the log took so far (see the class comment). */
  void append(Log log, long seq, byte[] body);

  /** Removes every entry numbered {@code upTo} or lower. */
  void trim(Log log, long upTo);

  /** An index member: a row's key and its score. */
  record Scored(String key, double score) {}
}
