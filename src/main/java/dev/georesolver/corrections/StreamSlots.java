package dev.georesolver.corrections;

import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Shareable;

import java.util.HashMap;
import java.util.Map;

/**
 * The corrections streams open in this process, per tenant and in all, against their caps
 * ({@code corrections.max_streams_per_tenant}, {@code corrections.max_streams}). One instance per
 * Vert.x instance, shared by every ingress instance ({@link #of}); thread-safe (one lock, held for a
 * map update).
 */
final class StreamSlots implements Shareable {

  /** Why a stream was not given a slot, or that it was. */
  enum Taken { YES, TENANT_FULL, ALL_FULL }

  private static final String MAP = "georesolver.corrections.streams";

  private final Map<String, Integer> byTenant = new HashMap<>();
  private int total;

  /** The process's slots. */
  static StreamSlots of(Vertx vertx) {
    return vertx.sharedData().<String, StreamSlots>getLocalMap(MAP).computeIfAbsent("slots", k -> new StreamSlots());
  }

  /** Takes a slot for a stream of {@code tenant} unless a cap is reached. */
  synchronized Taken take(String tenant, int maxPerTenant, int maxTotal) {
    int mine = byTenant.getOrDefault(tenant, 0);
    if (mine >= maxPerTenant) {
      return Taken.TENANT_FULL;
    }
    if (total >= maxTotal) {
      return Taken.ALL_FULL;
    }
    byTenant.put(tenant, mine + 1);
    total++;
    return Taken.YES;
  }

  /** Gives back a slot taken for {@code tenant}. */
  synchronized void give(String tenant) {
    Integer mine = byTenant.get(tenant);
    if (mine == null) {
      return;
    }
    if (mine <= 1) {
      byTenant.remove(tenant);
    } else {
      byTenant.put(tenant, mine - 1);
    }
    total--;
  }

  /** Streams open now, in all. */
  synchronized int total() {
    return total;
  }
}
