package dev.georesolver.state.contract;

import dev.georesolver.support.Backends;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;

/** The store's contract on a SQLite file (one per test), keeping the memory cache's write-behind as the embedded default does. */
class SqliteStateStoreTest extends StateStoreContract {

  @Override
  protected OnContext context() {
    return Backends.worker();
  }

  @Override
  protected boolean keepsCache() {
    return true;
  }

  @Override
  protected TablesStore open(OnContext on, FakeClock clock, boolean keepsCache) {
    return on.await(() -> Future.succeededFuture(TablesStore.over(SqliteTables.open(on.vertx(), TestState.freshFile(), 2, 1000), clock,
        keepsCache, null, 86_400)));
  }
}
