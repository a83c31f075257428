package dev.georesolver.cli;

import dev.georesolver.geo.Direction;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Where the command line's requests go: an {@link EmbeddedResolver} or an {@link HttpResolver}.
 * Thread-safe: requests may be sent from any thread; results complete on a Vert.x thread, where the
 * caller must not block.
 */
interface Resolver extends AutoCloseable {

  /**
   * Resolves one request.
   *
   * @param direction forward or reverse
   * @param request the public request JSON ({@code q}/{@code address} or {@code lat}/{@code lon},
   *     with {@code intent}, {@code bbox}, {@code budget_ms} when given)
   * @param batch whether it is a batch row (sent with lower priority where the transport can say so)
   * @return the result JSON, or a failed future with an {@link Unanswered}
   */
  Future<JsonObject> resolve(Direction direction, JsonObject request, boolean batch);

  /** What it is, for messages: "the in-process resolver (conf/manifest.yaml)" or the server's URL. */
  String describe();

  /** Stops it, waiting for what it owns (the in-process resolver, connections) to close. */
  @Override
  void close();
}
