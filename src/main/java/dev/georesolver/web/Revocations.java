package dev.georesolver.web;

import dev.georesolver.tenant.Tenants;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The long-lived requests of one ingress instance (event streams) and whether the key each was
 * admitted with still admits it: on every applied reload ({@link #recheck}) each is asked again of
 * the tenants serving now, and one whose key was revoked (or lost what its stream needs, or now
 * needs a key it never sent) is ended. Confined to its ingress instance's event loop.
 */
public final class Revocations {

  private final Supplier<Tenants> current;
  private final Set<Watch> open = new LinkedHashSet<>();

  /** @param current the tenants serving now (the live revision's) */
  public Revocations(Supplier<Tenants> current) {
    this.current = current;
  }

  /** Nothing is ever revoked: the tenants never change (a lone ingress on a fixed manifest). */
  public static Revocations fixed(Tenants tenants) {
    return new Revocations(() -> tenants);
  }

  /** One registered stream; {@link #close} when it ends by itself. */
  public final class Watch {
    private final Predicate<Tenants> stillAdmitted;
    private final Runnable onRevoked;

    private Watch(Predicate<Tenants> stillAdmitted, Runnable onRevoked) {
      this.stillAdmitted = stillAdmitted;
      this.onRevoked = onRevoked;
    }

    /** Forgets the stream (idempotent). */
    public void close() {
      open.remove(this);
    }
  }

  /**
   * Watches a stream.
   *
   * @param stillAdmitted whether the tenants serving now still admit it as they did
   * @param onRevoked what ends it (run once, on this instance's event loop)
   */
  Watch register(Predicate<Tenants> stillAdmitted, Runnable onRevoked) {
    Watch w = new Watch(stillAdmitted, onRevoked);
    open.add(w);
    return w;
  }

  /** Asks every open stream again of the tenants serving now and ends those no longer admitted; how many were ended. */
  public int recheck() {
    Tenants now = current.get();
    int ended = 0;
    for (Watch w : new ArrayList<>(open)) {
      if (!w.stillAdmitted.test(now)) {
        open.remove(w);
        ended++;
        w.onRevoked.run();
      }
    }
    return ended;
  }

  /** Streams watched now. */
  public int open() {
    return open.size();
  }
}
