package dev.georesolver.state;

import dev.georesolver.support.Backends;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.state.sqlite.LegacySqliteFile;
import dev.georesolver.state.sqlite.SqliteLegacy;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The import of the earlier SQLite tables into the same file, and what a new file no longer gets. */
class SqliteLegacyImportTest extends LegacyImportContract {

  private Path file;

  @Override
  protected OnContext context() {
    return Backends.worker();
  }

  @Override
  protected EarlierLayout earlier(boolean fresh) {
    if (!fresh) {
      return LegacySqliteFile.open(file);
    }
    file = TestState.freshFile();
    return LegacySqliteFile.create(file, 6);
  }

  @Override
  protected TablesStore open(FakeClock clock) {
    return on.await(() -> Future.succeededFuture(TablesStore.over(SqliteTables.open(on.vertx(), file, 2, 1000), clock, true, null,
        86_400)));
  }

  @Override
  protected Legacy legacy(TablesStore store) {
    return new SqliteLegacy((SqliteTables) store.tables());
  }

  @Override
  protected boolean embedded() {
    return true;
  }

  @Override
  protected void assertEarlierGone() {
    assertThat(LegacySqliteFile.tables(file)).doesNotContainAnyElementsOf(LegacySqliteFile.legacyTables());
    assertThat(LegacySqliteFile.version(file)).isEqualTo(LegacySqliteFile.latestVersion());
  }

  @Test
  @DisplayName("a new file is made with the current layout only: none of the earlier tables, at the latest version")
  void aNewFileHasNoEarlierTables() {
    file = TestState.freshFile();
    store = open(clock);
    assertThat(call(() -> legacy(store).present())).isFalse();
    assertEarlierGone();
    assertThat(LegacySqliteFile.tables(file)).contains("t_rows", "t_logs");
  }

  @Test
  @DisplayName("a file of a release before the write-behind logs has its cache tables moved to logs at open, then imported")
  void anOlderFileIsBroughtUpFirst() {
    file = TestState.freshFile();
    long t = clock.millis();
    ResolveResult r = ResolveResult.builder().status("resolved").lon(3.0).lat(1.0).idempotencyKey(ns + "old").resolvedAtMs(t - 10)
        .build();
    try (LegacySqliteFile f = LegacySqliteFile.create(file, 3)) {
      f.exec("INSERT INTO idem (key, stored_at_ms, expires_at_ms, resolved_at_ms, entry) VALUES (?, ?, ?, ?, ?)", ns + "old", t - 10,
          t + 3_600_000, t - 10, new StoredEntry(StoredAnswer.of(r), t - 10, 3_600_010).toBuffer().getBytes());
    }
    store = open(clock);
    assertThat(call(() -> legacy(store).present())).isTrue();
    call(() -> LegacyImport.run(store, legacy(store), clock, QUIET));
    CacheWrites back = call(() -> store.cache().load("idem", 10));
    assertThat(back.idem()).extracting(CacheWrites.Idem::key).containsExactly(ns + "old");
    assertEarlierGone();
  }

  @Test
  @DisplayName("a file not yet imported is refused by a read-only reader (audit verify), which never migrates")
  void aReaderRefusesAFileNotYetImported() {
    writeEarlier();
    store = open(clock);
    assertThatThrownBy(() -> AuditReader.sqlite(file, null)).isInstanceOf(StateStoreException.class)
        .hasMessageContaining("start the resolver on it once");
  }
}
