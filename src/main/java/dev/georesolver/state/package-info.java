/**
 * The durable store: one contract ({@link dev.georesolver.state.StateStore}), two backends — an
 * embedded SQLite file ({@link dev.georesolver.state.sqlite.SqliteStateStore} over
 * {@link dev.georesolver.state.sqlite.SqliteDb}: WAL, one writer, group commit, {@code user_version}
 * migrations, an exclusive lock file) and Redis ({@link dev.georesolver.state.redis.RedisStateStore}:
 * streams with a consumer group, hashes, one Lua script per atomic step) — owned by the
 * {@link dev.georesolver.state.StateVerticle} (a worker verticle for SQLite) and reached only over
 * the {@code geocode.state.*} addresses of {@code bus.Addresses}. Also the small in-process
 * {@link dev.georesolver.bus.WriteBuffer} that hands records to it in batches, so the hot path
 * never pays a bus hop per answer.
 *
 * <p>The store is made of <b>modules</b>: {@code debts} (the reconcile queue), {@code corrections}
 * (the outbox and delivery cursors), {@code cache} (the memory store's write-behind) and
 * {@code audit} (the tenants' hash-chained audit partitions, read outside a running resolver by
 * {@link dev.georesolver.state.AuditReader}). Adding one (batches) touches these places and no others:
 * <ol>
 *   <li>its interface and accessor in {@link dev.georesolver.state.StateStore}, implemented by both
 *       backends;
 *   <li>its tables: a new migration appended to {@code SqliteSchema.MIGRATIONS} (never an edit of
 *       an old one);
 *   <li>its keys: a group of names in {@code RedisKeys}, each key of an operation under the
 *       group's hash tag (the rule is in {@code RedisKeys}), and the group added to
 *       {@code RedisKeysTest}, which checks it maps to one Redis Cluster slot;
 *   <li>its addresses: a {@code geocode.state.<module>.*} group in {@code bus.Addresses} with each
 *       contract;
 *   <li>its handlers: one consumer per address in {@code StateVerticle.routes()}.
 * </ol>
 * Nothing here walks the ladder or calls a provider; the rules the stores apply (what a lease is,
 * newer wins, one correction per answer) are the pure ones of {@code dev.georesolver.reconcile}.
 */
package dev.georesolver.state;

