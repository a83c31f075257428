package dev.georesolver.tier;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.IndexQuery;
import dev.georesolver.config.TierConfig;
import dev.georesolver.normalize.AddressKeys;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.provider.LocalAdapter;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.RawHit;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;

import java.time.Clock;

/**
 * The {@code cached_index} rung: answers from the index the {@link IndexVerticle}
 * owns — forward by address key (whatever the bbox; the tier checks the point lies inside it),
 * reverse by the nearest entry within the tier's {@code reverse_radius_m}. Entries older than the
 * intent's {@code max_cache_age_s} are no match; an intent accepting no stored answer (age 0) never
 * gets one. The answer keeps its original confidence and carries its resolution time, from which
 * the notice states its age.
 */
public final class CachedIndexAdapter implements LocalAdapter {

  /** How far a reverse lookup looks when the tier does not say, metres. */
  public static final double DEFAULT_REVERSE_RADIUS_M = 250;

  private final Vertx vertx;
  private final double radiusM;
  private final Clock clock;
  /** The lookup's bus timeout: the tier's own attempt timeout, which bounds the lookup anyway. */
  private final DeliveryOptions lookup;

  public CachedIndexAdapter(Vertx vertx, TierConfig tier, Clock clock) {
    this.vertx = vertx;
    this.lookup = new DeliveryOptions().setSendTimeout(tier.timeoutMs());
    this.radiusM = tier.reverseRadiusM() > 0 ? tier.reverseRadiusM() : DEFAULT_REVERSE_RADIUS_M;
    this.clock = clock;
  }

  @Override
  public Future<ProviderAnswer> forward(ForwardQuery query) {
    return forward(query, Long.MAX_VALUE);
  }

  @Override
  public Future<ProviderAnswer> forward(ForwardQuery query, long maxCacheAgeMs) {
    return maxCacheAgeMs <= 0 ? noCachedAnswer() : lookup(IndexQuery.forward(AddressKeys.addrKey(query)), maxCacheAgeMs);
  }

  @Override
  public Future<ProviderAnswer> reverse(ReverseQuery query) {
    return reverse(query, Long.MAX_VALUE);
  }

  @Override
  public Future<ProviderAnswer> reverse(ReverseQuery query, long maxCacheAgeMs) {
    return maxCacheAgeMs <= 0 ? noCachedAnswer() : lookup(IndexQuery.reverse(query.lat(), query.lon(), radiusM), maxCacheAgeMs);
  }

  /** The answer for an intent that accepts no stored answer (age 0). */
  private static Future<ProviderAnswer> noCachedAnswer() {
    return Future.succeededFuture(ProviderAnswer.noMatch("this intent accepts no cached answer"));
  }

  private Future<ProviderAnswer> lookup(IndexQuery q, long maxCacheAgeMs) {
    return vertx.eventBus().<IndexEntry>request(Addresses.INDEX_LOOKUP, q, lookup)
        .map(Message::body)
        .map(e -> answer(e, maxCacheAgeMs));
  }

  private ProviderAnswer answer(IndexEntry e, long maxCacheAgeMs) {
    if (e == null) {
      return ProviderAnswer.noMatch("not in the cached index");
    }
    long age = clock.millis() - e.resolvedAtMs();
    if (age > maxCacheAgeMs) {
      return ProviderAnswer.noMatch("cached entry is " + age / 1000 + " s old, older than the intent accepts");
    }
    RawHit hit = new RawHit(e.lon(), e.lat(), "EPSG:4326", e.confidence(), e.label(), e.precision(), e.distanceM(),
        e.resolvedAtMs());
    return ProviderAnswer.found(hit);
  }
}
