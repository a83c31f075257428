package dev.georesolver.tier;

import dev.georesolver.config.TierConfig;
import dev.georesolver.provider.LocalAdapter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Builds a local adapter for one tier, on that tier verticle's context (so clients it creates
 * belong to the verticle). Blocking set-up, such as loading a data file, must go through
 * {@code executeBlocking}.
 */
@FunctionalInterface
public interface LocalAdapterFactory {

  /** The adapter for {@code tier}. */
  Future<? extends LocalAdapter> create(Vertx vertx, TierConfig tier);
}
