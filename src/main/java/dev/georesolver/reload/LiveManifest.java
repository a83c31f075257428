package dev.georesolver.reload;

import dev.georesolver.bus.Addresses;
import dev.georesolver.config.Manifest;
import dev.georesolver.tenant.Tenants;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The manifest revision the process serves, and what the last reload attempt did.
 *
 * <p>A request reads {@link #current()} (the chain: {@link #enter()}) once, at its start, and uses
 * that revision for its whole walk, so no answer mixes two revisions; a reload replaces the
 * revision with one volatile write ({@link #swap}) between one request's read and the next. The
 * chain counts the walks in flight on each revision ({@link #enter()} / {@link #leave}), so the
 * reloader can wait for the old revision's walks to end before it undeploys the tiers they may
 * still visit.
 *
 * <p>One per process, shared by the chain, ingress and ops verticles: the event bus cannot switch
 * several verticle instances at one instant, one reference can. Thread-safe; {@link #swap} and
 * {@link #report} are called by the reloader only.
 */
public final class LiveManifest {

  /**
   * One revision and what is built from it once for every verticle instance.
   *
   * @param manifest the manifest as loaded
   * @param tenants its tenants with their rate limits, shared by every ingress instance
   * @param tierAddresses where each tier's visits go when not {@link Addresses#tier} (a tier a
   *     reload deployed: {@link Addresses#tierVisit})
   * @param walks walks begun on this revision and not yet ended
   */
  public record Revision(Manifest manifest, Tenants tenants, Map<String, String> tierAddresses, AtomicInteger walks) {

    public Revision {
      Objects.requireNonNull(manifest, "manifest");
      Objects.requireNonNull(tenants, "tenants");
      tierAddresses = Map.copyOf(tierAddresses);
    }

    /** A revision whose tiers all listen on {@link Addresses#tier}. */
    public Revision(Manifest manifest, Tenants tenants) {
      this(manifest, tenants, Map.of(), new AtomicInteger());
    }

    /** This revision with its tiers' visit addresses. */
    public Revision at(Map<String, String> addresses) {
      return new Revision(manifest, tenants, addresses, new AtomicInteger());
    }

    /** Where this revision's walks send their visits to {@code tier}. */
    public String visitAddress(String tier) {
      String a = tierAddresses.get(tier);
      return a != null ? a : Addresses.tier(tier);
    }

    /** The revision's name as results carry it. */
    public String name() {
      return manifest.revision();
    }

    /** Walks begun on this revision and not yet ended. */
    public int walksInFlight() {
      return walks.get();
    }
  }

  private volatile Revision current;
  private volatile ReloadStatus status;

  public LiveManifest(Revision first) {
    this.current = first;
    this.status = ReloadStatus.initial(first.name());
  }

  /** A holder of one manifest that is never reloaded (a verticle deployed alone, in a test). */
  public static LiveManifest fixed(Manifest manifest, Tenants tenants) {
    return new LiveManifest(new Revision(manifest, tenants));
  }

  /** The revision serving now. */
  public Revision current() {
    return current;
  }

  /** The revision serving now, counted as one more walk in flight on it: {@link #leave} it when the walk ends. */
  public Revision enter() {
    Revision r = current;
    r.walks().incrementAndGet();
    return r;
  }

  /** Ends a walk begun with {@link #enter()}. */
  public void leave(Revision r) {
    r.walks().decrementAndGet();
  }

  /** Makes {@code next} the serving revision; requests begun before keep theirs. */
  public void swap(Revision next) {
    current = Objects.requireNonNull(next);
  }

  /** What the last reload attempt did (the start's revision until one is made). */
  public ReloadStatus status() {
    return status;
  }

  /** Records the last reload attempt. */
  public void report(ReloadStatus s) {
    status = Objects.requireNonNull(s);
  }
}
