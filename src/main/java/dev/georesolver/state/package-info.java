/**
 * The durable store, written once: its modules — {@code debts} (the reconcile queue,
 * {@link dev.georesolver.state.QueueStore}), {@code corrections} (the outbox and delivery cursors,
 * {@link dev.georesolver.state.OutboxStore}), {@code audit} (the tenants' hash-chained audit
 * partitions, {@link dev.georesolver.state.AuditStore}, read outside a running resolver by
 * {@link dev.georesolver.state.AuditReader}), {@code batches} ({@link dev.georesolver.state.BatchStore})
 * and {@code cache} (the memory store's write-behind, {@link dev.georesolver.state.CacheStore}) —
 * composed by {@link dev.georesolver.state.TablesStore} over the transactional primitives of
 * {@code state.tables}, whatever backend provides them ({@code state.sqlite}, {@code state.redis}).
 * Every decision a module makes is a pure rule of {@code state.rules}; a backend holds none.
 * Owned by the {@link dev.georesolver.state.StateVerticle} (a worker verticle for SQLite) and reached
 * only over the {@code geocode.state.*} addresses of {@code bus.Addresses}. An earlier release's
 * layout is moved into the current one at start ({@link dev.georesolver.state.LegacyImport}).
 *
 * <p>Adding a module, or a state-backed operation to one, touches these places and no others:
 * <ol>
 *   <li>its rules in {@code state.rules} (pure, unit-tested without a store);
 *   <li>the module class over {@code Tables}, its tables and logs declared there with their group
 *       (the unit of atomicity: one hash slot on a Redis Cluster);
 *   <li>its operations in {@link dev.georesolver.state.StateStore};
 *   <li>its addresses: a {@code geocode.state.<module>.*} constant in {@code bus.Addresses} with its
 *       contract, and one consumer per address in {@code StateVerticle.routes()};
 *   <li>its cases in {@code StateStoreContract}, which runs them on SQLite, Redis and Redis Cluster.
 * </ol>
 * No backend changes, and no rule is written in SQL or Lua.
 */
package dev.georesolver.state;
