package dev.georesolver.tier;

import dev.georesolver.provider.AdapterRegistry;
import io.vertx.core.Future;

import java.time.Clock;

/**
 * How the tier builds each local adapter of {@link AdapterRegistry}: the one place that knows
 * their classes. The registry states what they can do; it cannot build them itself, since they
 * live in the packages that own their data ({@code cache}, {@code gazetteer}) and those depend on
 * {@code provider}.
 */
final class LocalAdapters {

  private LocalAdapters() {}

  /**
   * The built-in factory of a local adapter, or null when the name is not one.
   *
   * @param clock the wall clock cached entries are aged on
   */
  static LocalAdapterFactory builtIn(String adapter, Clock clock) {
    return switch (adapter) {
      case AdapterRegistry.CACHED_INDEX -> (vertx, tier) -> Future.succeededFuture(new CachedIndexAdapter(vertx, tier, clock));
      case AdapterRegistry.GAZETTEER -> (vertx, tier) -> GazetteerAdapter.load(vertx, tier.reverseRadiusM());
      default -> null;
    };
  }
}
