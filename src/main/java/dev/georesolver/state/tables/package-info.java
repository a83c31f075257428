/**
 * The primitives every durable-state backend provides, and nothing more: {@link
 * dev.georesolver.state.tables.Tables tables} of versioned rows with sorted indexes and counters,
 * and append-only {@link dev.georesolver.state.tables.Log logs} with sequence numbers, changed only
 * inside an optimistic {@link dev.georesolver.state.tables.Txn transaction} that commits all of its
 * writes at once or none. The store's modules (the reconcile queue, the corrections outbox, the audit
 * trail, batch jobs, the cache logs) are written once over these primitives, and every decision they
 * make is a pure rule ({@code state.rules}); a backend (SQLite, Redis, Redis Cluster) implements the
 * primitives alone, so a module, a field or a rule is never written twice, and one contract test
 * ({@code TablesContract}) holds every backend to the same behaviour.
 */
package dev.georesolver.state.tables;
