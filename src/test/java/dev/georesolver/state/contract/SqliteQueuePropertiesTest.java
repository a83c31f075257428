package dev.georesolver.state.contract;

import dev.georesolver.support.Backends;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;

/** The queue's properties on SQLite. */
class SqliteQueuePropertiesTest extends QueuePropertiesContract {

  @Override
  protected OnContext context() {
    return Backends.worker();
  }

  @Override
  protected TablesStore open(OnContext on, FakeClock clock, String namespace) {
    return on.await(() -> Future.succeededFuture(TablesStore.over(SqliteTables.open(on.vertx(), TestState.freshFile(), 1, 1000), clock,
        false, null, 86_400)));
  }
}
