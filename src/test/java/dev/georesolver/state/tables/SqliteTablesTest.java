package dev.georesolver.state.tables;

import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.Backends;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;

/** The primitives' contract on a SQLite file (one per test). */
class SqliteTablesTest extends TablesContract {

  @Override
  protected OnContext context() {
    return Backends.worker();
  }

  @Override
  protected Tables open(OnContext on, String namespace) {
    return on.await(() -> io.vertx.core.Future.succeededFuture(
        SqliteTables.open(on.vertx(), TestState.freshFile(), 5, 1000)));
  }
}
