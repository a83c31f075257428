package dev.georesolver.state;

import java.util.List;

/**
 * The SQLite file's schema, one migration per step, tracked by {@code PRAGMA user_version}: a
 * file at version {@code n} gets migrations {@code n+1…} in one transaction at start. This list is
 * where a module's tables are registered: a new module (audit, batches) appends its migration, it
 * never edits an old one.
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
            PRIMARY KEY (job_id, slice)) WITHOUT ROWID""")));

  /** The version a file has once every migration ran. */
  static int latest() {
    return MIGRATIONS.size();
  }
}
