package dev.georesolver.tenant;

import dev.georesolver.config.KeyDigest;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.TenantConfig;
import dev.georesolver.deadline.Ticker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The manifest's tenants as requests are admitted: authentication by key and the per-tenant rate
 * limit. Thread-safe; share one instance between every ingress instance of a process, since the
 * rate limits are its buckets.
 *
 * <p>A presented key costs one sha256 and a lookup: the configured digests are indexed by their
 * first eight bytes (a sorted array, binary search), and the digests under the presented one's
 * prefix are compared whole by {@link java.security.MessageDigest#isEqual}, each of them, without
 * stopping at a match. The key itself is never compared, so the time taken tells nothing of how
 * much of a key was right; what the lookup's time could depend on is the presented key's sha256,
 * which a caller cannot steer towards a configured one. The cost does not grow with the number of
 * tenants. Nothing of the presented key is kept.
 *
 * <p>Without a {@code tenants:} block ({@link #open()}) every request is {@link Tenant#PUBLIC},
 * with or without a key, and nothing is counted or limited.
 */
public final class Tenants {

  private static final Tenants OPEN = new Tenants(List.of(), Map.of(), false, null);

  /** A configured key and whose it is (as the verdict handed out, made once). */
  private record Entry(KeyDigest digest, Verdict.Admitted admitted) {}

  /** The distinct first eight bytes of the configured digests, sorted. */
  private final long[] prefixes;
  /** The entries under each prefix, at its index in {@link #prefixes}. */
  private final Entry[][] byPrefix;
  private final Map<String, Tenant> byId;
  private final Map<String, TokenBucket> buckets;
  private final boolean configured;
  private final Verdict.Admitted publicAdmitted = new Verdict.Admitted(Tenant.PUBLIC);

  private Tenants(List<Entry> entries, Map<String, Tenant> byId, boolean configured, Map<String, TokenBucket> buckets) {
    java.util.TreeMap<Long, List<Entry>> index = new java.util.TreeMap<>();
    entries.forEach(e -> index.computeIfAbsent(e.digest().prefix(), p -> new ArrayList<>()).add(e));
    this.prefixes = index.keySet().stream().mapToLong(Long::longValue).toArray();
    this.byPrefix = index.values().stream().map(l -> l.toArray(Entry[]::new)).toArray(Entry[][]::new);
    this.byId = Collections.unmodifiableMap(new LinkedHashMap<>(byId));
    this.configured = configured;
    this.buckets = buckets == null ? Map.of() : Map.copyOf(buckets);
  }

  /** Open access: every request is {@link Tenant#PUBLIC}. */
  public static Tenants open() {
    return OPEN;
  }

  /** The manifest's tenants with the system clock; {@link #open()} when it configures none. */
  public static Tenants of(Manifest m) {
    return of(m, Ticker.SYSTEM);
  }

  /** The manifest's tenants, their buckets timed by {@code ticker}; {@link #open()} when it configures none. */
  public static Tenants of(Manifest m, Ticker ticker) {
    return of(m, ticker, OPEN);
  }

  /**
   * The manifest's tenants after a reload from {@code before}: a tenant whose rate limit and burst
   * are unchanged keeps its bucket as it is (a reload refills nobody's bucket); a new tenant, or
   * one whose limit changed, starts with a full one.
   */
  public static Tenants of(Manifest m, Ticker ticker, Tenants before) {
    if (!m.tenantsConfigured()) {
      return OPEN;
    }
    List<Entry> entries = new ArrayList<>();
    Map<String, Tenant> byId = new LinkedHashMap<>();
    Map<String, TokenBucket> buckets = new LinkedHashMap<>();
    for (TenantConfig c : m.tenants()) {
      Tenant t = Tenant.of(c);
      byId.put(t.id(), t);
      Verdict.Admitted admitted = new Verdict.Admitted(t);
      m.tenantKeys(t.id()).forEach(d -> entries.add(new Entry(d, admitted)));
      if (c.rateLimitPerS() > 0) {
        TokenBucket kept = before == null ? null : before.buckets.get(t.id());
        buckets.put(t.id(), kept != null && kept.sameLimit(c.rateLimitPerS(), c.burst())
            ? kept : new TokenBucket(c.rateLimitPerS(), c.burst(), ticker));
      }
    }
    return new Tenants(entries, byId, true, buckets);
  }

  /** Whether tenants are configured; when not, access is open. */
  public boolean configured() {
    return configured;
  }

  /**
   * The tenant of that id: a configured one, or null when the id is unknown. With open access every
   * id (and none) is {@link Tenant#PUBLIC}.
   */
  public Tenant byId(String id) {
    return configured ? (id == null ? null : byId.get(id)) : Tenant.PUBLIC;
  }

  /**
   * Authenticates a presented key and takes one request from its tenant's rate limit.
   *
   * @param key the key the request presents, or null when it presents none
   */
  public Verdict admit(String key) {
    if (!configured) {
      return publicAdmitted;
    }
    if (key == null || key.isEmpty()) {
      return new Verdict.Unauthenticated("missing_key", "an API key is required: Authorization: Bearer <key> or X-Api-Key");
    }
    Verdict.Admitted found = authenticate(key);
    if (found == null) {
      return new Verdict.Unauthenticated("unknown_key", "the API key is not valid");
    }
    TokenBucket bucket = buckets.get(found.tenant().id());
    long waitNanos = bucket == null ? 0 : bucket.tryTake();
    if (waitNanos > 0) {
      return new Verdict.RateLimited(found.tenant(), (waitNanos + 999_999_999L) / 1_000_000_000L);
    }
    return found;
  }

  /**
   * The tenant whose key this is, or null (also for no key, and always without tenants); takes
   * nothing from any rate limit. For deciding what an answer shows, never for admitting a request.
   */
  public Tenant identify(String key) {
    if (!configured || key == null || key.isEmpty()) {
      return null;
    }
    return identify(KeyDigest.sha256(key));
  }

  /** As {@link #identify(String)}, from the key's sha256 (what a long-lived stream keeps of its key). */
  public Tenant identify(byte[] sha256) {
    if (!configured) {
      return null;
    }
    Verdict.Admitted found = authenticate(sha256);
    return found == null ? null : found.tenant();
  }

  /** The verdict for the tenant whose key this is, or null; every digest under its prefix is compared, whatever matches first. */
  private Verdict.Admitted authenticate(String key) {
    return authenticate(KeyDigest.sha256(key));
  }

  private Verdict.Admitted authenticate(byte[] presented) {
    int at = Arrays.binarySearch(prefixes, KeyDigest.prefixOf(presented));
    if (at < 0) {
      return null;
    }
    Verdict.Admitted found = null;
    for (Entry e : byPrefix[at]) {
      if (e.digest().matches(presented)) {
        found = e.admitted();
      }
    }
    return found;
  }
}
