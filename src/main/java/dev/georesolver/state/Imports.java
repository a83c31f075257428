package dev.georesolver.state;

import dev.georesolver.state.tables.Entry;
import dev.georesolver.state.tables.Log;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;

import java.util.HashMap;
import java.util.Map;

/**
 * What the modules' import methods share: an earlier layout's log entries keep their numbers, and an
 * entry at or below a log's last number is not appended again but looked up, so an import run twice
 * (or cut short and run again) checks what the first run wrote instead of writing it twice. Pure
 * helpers over one transaction.
 */
final class Imports {

  /** Entries read per step while looking entries up. */
  static final int READ = 1000;

  private Imports() {}

  /** The entries of {@code log} numbered {@code from} to {@code to}, by number. */
  static Future<Map<Long, Entry>> stored(Txn x, Log log, long from, long to) {
    return collect(x, log, from - 1, to, new HashMap<>());
  }

  private static Future<Map<Long, Entry>> collect(Txn x, Log log, long after, long to, Map<Long, Entry> out) {
    return x.read(log, after, READ).compose(es -> {
      long next = after;
      for (Entry e : es) {
        if (e.seq() > to) {
          return Future.succeededFuture(out);
        }
        out.put(e.seq(), e);
        next = e.seq();
      }
      return es.size() < READ ? Future.succeededFuture(out) : collect(x, log, next, to, out);
    });
  }

  /** The number of {@code log}'s first entry still kept, or {@code Long.MAX_VALUE} when it holds none. */
  static Future<Long> first(Txn x, Log log) {
    return x.read(log, 0, 1).map(es -> es.isEmpty() ? Long.MAX_VALUE : es.get(0).seq());
  }
}
