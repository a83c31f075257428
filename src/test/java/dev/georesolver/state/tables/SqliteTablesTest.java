package dev.georesolver.state.tables;

import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;
import io.vertx.core.ThreadingModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The primitives' contract on a SQLite file (one per test). */
class SqliteTablesTest extends TablesContract {

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
  protected Tables open(OnContext on, String namespace) {
    return on.await(() -> io.vertx.core.Future.succeededFuture(
        SqliteTables.open(on.vertx(), TestState.freshFile(), 5, 1000)));
  }
}
