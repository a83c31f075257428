package dev.georesolver.state.contract;

import dev.georesolver.state.TablesStore;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The queue's properties on SQLite. */
class SqliteQueuePropertiesTest extends QueuePropertiesContract {

  private static OnContext worker;

  @BeforeAll
  static void start() {
    worker = OnContext.start(ThreadingModel.WORKER);
  }

  @AfterAll
  static void stop() {
    worker.close();
  }

  @Override
  protected OnContext context() {
    return worker;
  }

  @Override
  protected TablesStore open(OnContext on, FakeClock clock, String namespace) {
    return on.await(() -> Future.succeededFuture(TablesStore.over(SqliteTables.open(on.vertx(), TestState.freshFile(), 1, 1000), clock,
        false, null, 86_400)));
  }
}
