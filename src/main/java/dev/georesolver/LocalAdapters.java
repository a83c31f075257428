package dev.georesolver;

import dev.georesolver.tier.LocalAdapterFactory;
import dev.georesolver.provider.LocalAdapter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/** Factories of the local (in-process) adapters this build has, by manifest adapter name. */
final class LocalAdapters {

  private LocalAdapters() {}

  /** Every local adapter factory. */
  static Map<String, LocalAdapterFactory> all() {
    Map<String, LocalAdapterFactory> m = new HashMap<>();
    return m;
  }
}
