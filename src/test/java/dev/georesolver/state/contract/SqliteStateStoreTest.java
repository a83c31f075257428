package dev.georesolver.state.contract;

import dev.georesolver.support.Backends;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

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

  /** The file of the store opened last. */
  private Path file;

  @Override
  protected TablesStore open(OnContext on, FakeClock clock, boolean keepsCache) {
    file = TestState.freshFile();
    return on.await(() -> Future.succeededFuture(TablesStore.over(SqliteTables.open(on.vertx(), file, 2, 1000), clock,
        keepsCache, null, 86_400)));
  }

  @Test
  @DisplayName("audit record ids are kept as rows with no index entries (nothing reads them by sequence number), and still make appends idempotent")
  void auditIdsCarryNoIndex() throws Exception {
    String t = ns + "ids";
    call(() -> store.audit().append(List.of(event(t, "1", 10), event(t, "2", 11))));
    assertThat(call(() -> store.audit().append(List.of(event(t, "2", 11)))).getInteger("written")).isZero();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      assertThat(count(c, "SELECT COUNT(*) FROM t_rows WHERE tbl LIKE 'audit:%/ids'")).isEqualTo(2);
      assertThat(count(c, "SELECT COUNT(*) FROM t_index WHERE tbl LIKE 'audit:%/ids'")).isZero();
    }
  }

  private static long count(Connection c, String sql) throws Exception {
    try (ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
