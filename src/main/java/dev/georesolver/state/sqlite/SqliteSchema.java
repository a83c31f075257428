package dev.georesolver.state.sqlite;

import java.util.List;

/**
 * The SQLite file's schema, one migration per step, tracked by {@code PRAGMA user_version}: a
 * file at version {@code n} gets migrations {@code n+1…} in one transaction at start. Two exceptions,
 * both for the earlier layout (the tables the modules used before they were written over the
 * primitives): a new file starts at {@link #firstCurrent()}, so it never creates them; and the
 * migration that drops them ({@link #legacyDropped()}) is run by the import after it moved their
 * rows, so a file that has them stops before it when opened. A new module appends its migration;
 * it never edits an old one.
 */
final class SqliteSchema {

  private SqliteSchema() {}

  /**
   * One schema step.
   *
   * @param module the store module whose tables it creates
   * @param statements the DDL, run in order
   */
  record Migration(String module, List<String> statements) {}

  static final List<Migration> MIGRATIONS = List.of(
      new Migration("debts", List.of("""
          CREATE TABLE reconcile_queue (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            debt_key TEXT NOT NULL UNIQUE,
            idempotency_key TEXT NOT NULL,
            debt TEXT NOT NULL,
            answer_resolved_at_ms INTEGER NOT NULL,
            accepted_at_ms INTEGER NOT NULL,
            state TEXT NOT NULL,
            outcome TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            not_before_ms INTEGER NOT NULL DEFAULT 0,
            lease_owner TEXT,
            lease_until_ms INTEGER,
            last_error TEXT,
            updated_at_ms INTEGER NOT NULL)""",
          "CREATE INDEX reconcile_open ON reconcile_queue(accepted_at_ms, id) WHERE state IN ('pending', 'in_progress')",
          "CREATE INDEX reconcile_state ON reconcile_queue(state)")),
      new Migration("corrections", List.of("""
          CREATE TABLE corrections (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            correction_id TEXT NOT NULL UNIQUE,
            idempotency_key TEXT NOT NULL,
            corrected_at_ms INTEGER NOT NULL,
            body TEXT NOT NULL)""", """
          CREATE TABLE delivery_cursors (
            name TEXT PRIMARY KEY,
            cursor TEXT NOT NULL,
            updated_at_ms INTEGER NOT NULL)""")),
      new Migration("cache", List.of("""
          CREATE TABLE idem (
            key TEXT PRIMARY KEY,
            stored_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL,
            resolved_at_ms INTEGER NOT NULL,
            entry BLOB NOT NULL)""",
          "CREATE INDEX idem_recent ON idem(stored_at_ms)", """
          CREATE TABLE addr_index (
            addr_key TEXT PRIMARY KEY,
            lon REAL NOT NULL,
            lat REAL NOT NULL,
            source TEXT,
            claim TEXT,
            confidence REAL,
            label TEXT,
            precision TEXT,
            resolved_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL)""",
          "CREATE INDEX addr_recent ON addr_index(resolved_at_ms)")),
      // The audit trail: append-only. Inserts must extend the tenant's chain (next seq, prev_hash =
      // the hash before it); UPDATE is refused; DELETE only of records at or below the tenant's
      // retention anchor, which itself only moves forward and only to a stored record's hash — so
      // retention writes the anchor first and then deletes the prefix it covers, in one transaction.
      new Migration("audit", List.of("""
          CREATE TABLE audit (
            tenant TEXT NOT NULL,
            seq INTEGER NOT NULL,
            record_id TEXT NOT NULL,
            ts_ms INTEGER NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY (tenant, seq)) WITHOUT ROWID""",
          "CREATE UNIQUE INDEX audit_id ON audit(tenant, record_id)",
          "CREATE INDEX audit_ts ON audit(tenant, ts_ms)", """
          CREATE TABLE audit_anchor (
            tenant TEXT PRIMARY KEY,
            seq INTEGER NOT NULL,
            hash TEXT NOT NULL,
            anchored_at_ms INTEGER NOT NULL)""", """
          CREATE TABLE audit_head (
            tenant TEXT PRIMARY KEY,
            seq INTEGER NOT NULL,
            hash TEXT NOT NULL)""", """
          CREATE TRIGGER audit_append_only BEFORE INSERT ON audit
          WHEN NEW.seq IS NOT COALESCE((SELECT MAX(seq) FROM audit WHERE tenant = NEW.tenant),
                                       (SELECT seq FROM audit_anchor WHERE tenant = NEW.tenant), 0) + 1
            OR NEW.prev_hash IS NOT COALESCE((SELECT hash FROM audit WHERE tenant = NEW.tenant ORDER BY seq DESC LIMIT 1),
                                             (SELECT hash FROM audit_anchor WHERE tenant = NEW.tenant),
                                             '0000000000000000000000000000000000000000000000000000000000000000')
          BEGIN SELECT RAISE(ABORT, 'audit records only extend their tenant''s chain'); END""", """
          CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
          BEGIN SELECT RAISE(ABORT, 'audit records cannot be changed'); END""", """
          CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
          WHEN OLD.seq > COALESCE((SELECT seq FROM audit_anchor WHERE tenant = OLD.tenant), 0)
          BEGIN SELECT RAISE(ABORT, 'audit records cannot be deleted, only a prefix covered by the retention anchor'); END""", """
          CREATE TRIGGER audit_anchor_set BEFORE INSERT ON audit_anchor
          WHEN NEW.hash IS NOT (SELECT hash FROM audit WHERE tenant = NEW.tenant AND seq = NEW.seq)
          BEGIN SELECT RAISE(ABORT, 'an audit anchor must name a stored record'); END""", """
          CREATE TRIGGER audit_anchor_forward BEFORE UPDATE ON audit_anchor
          WHEN NEW.tenant IS NOT OLD.tenant OR NEW.seq < OLD.seq
            OR NEW.hash IS NOT (SELECT hash FROM audit WHERE tenant = NEW.tenant AND seq = NEW.seq)
          BEGIN SELECT RAISE(ABORT, 'an audit anchor only moves forward, to a stored record'); END""", """
          CREATE TRIGGER audit_anchor_kept BEFORE DELETE ON audit_anchor
          BEGIN SELECT RAISE(ABORT, 'an audit anchor cannot be deleted'); END""", """
          CREATE TRIGGER audit_head_forward BEFORE UPDATE ON audit_head
          WHEN NEW.tenant IS NOT OLD.tenant OR NEW.seq < OLD.seq
            OR NEW.hash IS NOT (SELECT hash FROM audit WHERE tenant = NEW.tenant AND seq = NEW.seq)
          BEGIN SELECT RAISE(ABORT, 'an audit head only moves forward, to a stored record'); END""", """
          CREATE TRIGGER audit_head_kept BEFORE DELETE ON audit_head
          BEGIN SELECT RAISE(ABORT, 'an audit head cannot be deleted'); END""")),
      new Migration("batches", List.of("""
          CREATE TABLE batch_jobs (
            id TEXT PRIMARY KEY,
            tenant TEXT NOT NULL,
            idem_key TEXT NOT NULL,
            state TEXT NOT NULL,
            spec TEXT NOT NULL,
            total INTEGER NOT NULL DEFAULT 0,
            done INTEGER NOT NULL DEFAULT 0,
            resolved INTEGER NOT NULL DEFAULT 0,
            refused INTEGER NOT NULL DEFAULT 0,
            invalid INTEGER NOT NULL DEFAULT 0,
            failed INTEGER NOT NULL DEFAULT 0,
            created_at_ms INTEGER NOT NULL,
            started_at_ms INTEGER,
            finished_at_ms INTEGER,
            UNIQUE (tenant, idem_key))""",
          "CREATE INDEX batch_jobs_open ON batch_jobs(created_at_ms) WHERE state IN ('queued', 'running')", """
          CREATE TABLE batch_items (
            job_id TEXT NOT NULL,
            idx INTEGER NOT NULL,
            row TEXT NOT NULL,
            result TEXT,
            PRIMARY KEY (job_id, idx)) WITHOUT ROWID""", """
          CREATE TABLE batch_slices (
            job_id TEXT NOT NULL,
            slice INTEGER NOT NULL,
            done INTEGER NOT NULL DEFAULT 0,
            lease_owner TEXT,
            lease_until_ms INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (job_id, slice)) WITHOUT ROWID""")),
      // The memory store's write-behind as two append-only logs. An answer upserted in place under
      // its random key dirtied a page of the key's index per answer (and the WAL wrote each page
      // again at every commit); appended, a batch fills a few consecutive pages. Reading back
      // replays a log in order (CacheReplay); basis_ms marks a correction. The old tables' rows
      // move over in the order they were stored.
      new Migration("cache log", List.of("""
          CREATE TABLE idem_log (
            seq INTEGER PRIMARY KEY,
            key TEXT NOT NULL,
            stored_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL,
            resolved_at_ms INTEGER NOT NULL,
            basis_ms INTEGER,
            entry BLOB NOT NULL)""", """
          INSERT INTO idem_log (key, stored_at_ms, expires_at_ms, resolved_at_ms, entry)
            SELECT key, stored_at_ms, expires_at_ms, resolved_at_ms, entry FROM idem ORDER BY stored_at_ms, rowid""",
          "DROP TABLE idem", """
          CREATE TABLE index_log (
            seq INTEGER PRIMARY KEY,
            addr_key TEXT NOT NULL,
            lon REAL NOT NULL,
            lat REAL NOT NULL,
            source TEXT,
            claim TEXT,
            confidence REAL,
            label TEXT,
            precision TEXT,
            resolved_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL,
            basis_ms INTEGER)""", """
          INSERT INTO index_log (addr_key, lon, lat, source, claim, confidence, label, precision, resolved_at_ms, expires_at_ms)
            SELECT addr_key, lon, lat, source, claim, confidence, label, precision, resolved_at_ms, expires_at_ms
            FROM addr_index ORDER BY resolved_at_ms, rowid""",
          "DROP TABLE addr_index")),
      // The primitives every module is written over (state.tables): rows with versions, their index
      // memberships, counters, and append-only logs with the last number each ever took.
      new Migration("tables", List.of("""
          CREATE TABLE t_rows (
            tbl TEXT NOT NULL,
            key TEXT NOT NULL,
            version INTEGER NOT NULL,
            body BLOB NOT NULL,
            PRIMARY KEY (tbl, key)) WITHOUT ROWID""", """
          CREATE TABLE t_index (
            tbl TEXT NOT NULL,
            idx TEXT NOT NULL,
            score REAL NOT NULL,
            key TEXT NOT NULL,
            PRIMARY KEY (tbl, idx, score, key)) WITHOUT ROWID""",
          "CREATE INDEX t_index_key ON t_index (tbl, key)", """
          CREATE TABLE t_counters (
            tbl TEXT NOT NULL,
            name TEXT NOT NULL,
            value INTEGER NOT NULL,
            PRIMARY KEY (tbl, name)) WITHOUT ROWID""", """
          CREATE TABLE t_logs (
            id INTEGER PRIMARY KEY,
            log TEXT NOT NULL,
            seq INTEGER NOT NULL,
            body BLOB NOT NULL)""",
          "CREATE UNIQUE INDEX t_logs_seq ON t_logs (log, seq)", """
          CREATE TABLE t_log_seq (
            log TEXT PRIMARY KEY,
            last INTEGER NOT NULL) WITHOUT ROWID""", """
          CREATE TRIGGER t_logs_append_only BEFORE UPDATE ON t_logs
          BEGIN SELECT RAISE(ABORT, 'log entries cannot be changed'); END""")),
      // The earlier layout's tables, dropped once the import moved their rows into the primitives'
      // (state.LegacyImport): run by SqliteLegacy.remove, never by open on a file that has them. The
      // audit table goes first, taking its triggers (which name the anchor and head tables) with it.
      new Migration("legacy dropped", List.of(
          "DROP TABLE IF EXISTS audit",
          "DROP TABLE IF EXISTS audit_anchor",
          "DROP TABLE IF EXISTS audit_head",
          "DROP TABLE IF EXISTS reconcile_queue",
          "DROP TABLE IF EXISTS corrections",
          "DROP TABLE IF EXISTS delivery_cursors",
          "DROP TABLE IF EXISTS batch_items",
          "DROP TABLE IF EXISTS batch_slices",
          "DROP TABLE IF EXISTS batch_jobs",
          "DROP TABLE IF EXISTS idem_log",
          "DROP TABLE IF EXISTS index_log",
          "DROP TABLE IF EXISTS idem",
          "DROP TABLE IF EXISTS addr_index")));

  /** The earlier layout's tables (what {@link #legacyDropped()} drops). */
  static final List<String> LEGACY_TABLES = List.of("reconcile_queue", "corrections", "delivery_cursors", "idem_log", "index_log",
      "audit", "audit_anchor", "audit_head", "batch_jobs", "batch_items", "batch_slices", "idem", "addr_index");

  /** The version a file has once every migration ran. */
  static int latest() {
    return MIGRATIONS.size();
  }

  /**
   * Where a new file (version 0) starts: the first migration of the current layout. The earlier
   * ones only made tables that an earlier release read; a new file has nothing to keep in them.
   */
  static int firstCurrent() {
    return indexOf("tables");
  }

  /**
   * The migration that drops the earlier layout's tables. A file opened below it stops there (its
   * version is then this index); the import runs it, and any after it, once it moved their rows
   * ({@code SqliteLegacy.remove}).
   */
  static int legacyDropped() {
    return indexOf("legacy dropped");
  }

  private static int indexOf(String module) {
    for (int i = 0; i < MIGRATIONS.size(); i++) {
      if (module.equals(MIGRATIONS.get(i).module())) {
        return i;
      }
    }
    throw new IllegalStateException("no migration " + module);
  }
}
