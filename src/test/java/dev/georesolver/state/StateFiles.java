package dev.georesolver.state;

import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.OnContext;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/** Reads a resolver's SQLite state file from a test, read-only, beside the running resolver. */
public final class StateFiles {

  private StateFiles() {}

  /** The open items of the reconcile queue in {@code file}. */
  public static List<QueueItem> openItems(Path file) {
    try (OnContext on = OnContext.start(ThreadingModel.WORKER)) {
      return on.await(() -> {
        SqliteTables t = SqliteTables.openReadOnly(on.vertx(), file);
        TablesStore s = TablesStore.over(t, Clock.systemUTC(), false, null, 0);
        return ((QueueStore) s.debts()).items(QueueRules.OPEN, 100_000).eventually(() -> t.close());
      });
    }
  }

  /** The attempts counted on the pending items of {@code file}'s queue. */
  public static int pendingAttempts(Path file) {
    return openItems(file).stream().filter(i -> QueueRules.PENDING.equals(i.state())).mapToInt(QueueItem::attempts).sum();
  }
}
