package dev.georesolver.state.tables;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.function.Function;

/**
 * A durable-state backend: tables of versioned rows with indexes and counters, and append-only logs,
 * changed only by {@link Txn transactions}. Implementations: SQLite (one file, one writer), Redis
 * (one server) and Redis Cluster (a transaction there touches one {@link Table#group() group}).
 *
 * <p>Every method is asynchronous; a failed future means the backend could not do it now (a
 * {@link Conflict} after {@link #MAX_ATTEMPTS}, the file or server unreachable): the caller keeps what
 * it has and tries later. Use from one context (the state verticle's).
 */
public interface Tables {

  /** How many times a transaction is run before a conflict is given up on. */
  int MAX_ATTEMPTS = 20;

  /** {@code sqlite} or {@code redis}. */
  String kind();

  /**
   * Whether other processes may write the same state at the same time (Redis, shared by several
   * resolvers); false when this process alone holds it (a locked SQLite file).
   */
  boolean shared();

  /**
   * Runs {@code body} as one transaction and commits its writes if nothing it read changed; on a
   * {@link Conflict} runs it again from the start, up to {@link #MAX_ATTEMPTS} times. The result is
   * the body's, once committed.
   */
  <T> Future<T> transact(Function<Txn, Future<T>> body);

  /** Runs {@code body} over a read-only view (a write fails the body). */
  <T> Future<T> read(Function<Txn, Future<T>> body);

  /** The backend's own status for health: {@code reachable}, {@code persistent} and what it knows. */
  Future<JsonObject> status();

  /** Releases the file or connections. */
  Future<Void> close();
}
