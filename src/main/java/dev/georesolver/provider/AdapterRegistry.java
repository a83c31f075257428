package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every adapter the manifest may name, with what it can do: the one place where an adapter's
 * capabilities are stated. The manifest loader asks it which names exist and which need an
 * endpoint, the chain which rungs can serve a direction, the tier how to build its call and where
 * its credential goes.
 *
 * <p>HTTP adapters are stateless singletons held here. Local adapters ({@code cached_index},
 * {@code gazetteer}) need runtime resources (the event bus, a loaded data file), so the tier builds
 * them; their capabilities are still stated here and nowhere else. Immutable and thread-safe.
 */
public final class AdapterRegistry {

  /** The cached spatial index rung: no endpoint. */
  public static final String CACHED_INDEX = "cached_index";
  /** The offline gazetteer rung: no endpoint. */
  public static final String GAZETTEER = "gazetteer";

  /** How a rung's provider is reached. */
  public enum Transport {
    /** Over HTTP at the tier's {@code endpoint}, by a {@link ProviderAdapter}. */
    HTTP,
    /** In-process, by a {@link LocalAdapter}: no endpoint, no connection pool. */
    LOCAL
  }

  /**
   * What one adapter can do.
   *
   * @param transport HTTP or in-process
   * @param directions the lookups it answers (forward, reverse)
   * @param readsIndex whether it answers from the cached index; a ladder with such a rung deploys
   *     the index and writes resolved answers through to it
   * @param defaultCredential where the tier's credential goes when the manifest does not say; null
   *     when the provider takes none (the tier then uses an {@code X-Api-Key} header)
   */
  public record Capabilities(Transport transport, Set<Direction> directions, boolean readsIndex,
                             CredentialPlacement defaultCredential) {

    public Capabilities {
      directions = Set.copyOf(directions);
    }

    /** Whether it answers lookups in {@code d}. */
    public boolean supports(Direction d) {
      return directions.contains(d);
    }

    /** Whether the tier's manifest entry must give an {@code endpoint}. */
    public boolean needsEndpoint() {
      return transport == Transport.HTTP;
    }
  }

  /**
   * One adapter a manifest may name.
   *
   * @param name the manifest {@code adapter:} name
   * @param capabilities what it can do
   * @param http the HTTP dialect, shared by every tier naming it; null for a local adapter
   */
  public record Adapter(String name, Capabilities capabilities, ProviderAdapter http) {

    /** Whether it is answered in-process. */
    public boolean local() {
      return capabilities.transport() == Transport.LOCAL;
    }
  }

  private static final Set<Direction> BOTH = EnumSet.allOf(Direction.class);

  private static final Map<String, Adapter> ALL = index(
      http("generic", new GenericAdapter(), null),
      http("nominatim", new NominatimAdapter(), null),
      http("pelias", new PeliasAdapter(), CredentialPlacement.queryParam("api_key")),
      http("photon", new PhotonAdapter(), null),
      http("google", new GoogleAdapter(), CredentialPlacement.queryParam("key")),
      http("here", new HereAdapter(), CredentialPlacement.queryParam("apiKey")),
      http("mapbox", new MapboxAdapter(), CredentialPlacement.queryParam("access_token")),
      http("mapbox_v5", new MapboxV5Adapter(), CredentialPlacement.queryParam("access_token")),
      http("opencage", new OpenCageAdapter(), CredentialPlacement.queryParam("key")),
      http("arcgis", new ArcGisAdapter(), CredentialPlacement.queryParam("token")),
      local(CACHED_INDEX, true),
      local(GAZETTEER, false));

  private AdapterRegistry() {}

  /** An HTTP adapter answering both directions. */
  private static Adapter http(String name, ProviderAdapter dialect, CredentialPlacement defaultCredential) {
    return new Adapter(name, new Capabilities(Transport.HTTP, BOTH, false, defaultCredential), dialect);
  }

  /** A local adapter answering both directions. */
  private static Adapter local(String name, boolean readsIndex) {
    return new Adapter(name, new Capabilities(Transport.LOCAL, BOTH, readsIndex, null), null);
  }

  private static Map<String, Adapter> index(Adapter... adapters) {
    Map<String, Adapter> m = new LinkedHashMap<>();
    for (Adapter a : adapters) {
      m.put(a.name(), a);
    }
    return Map.copyOf(m);
  }

  /** The adapter of that name, if any. */
  public static Optional<Adapter> find(String name) {
    return Optional.ofNullable(name == null ? null : ALL.get(name));
  }

  /**
   * The adapter of that name, for a manifest already validated.
   *
   * @throws IllegalArgumentException for a name that is not registered
   */
  public static Adapter get(String name) {
    return find(name).orElseThrow(() -> new IllegalArgumentException("unknown adapter " + name));
  }

  /** The HTTP dialect of that name, if it is an HTTP adapter. */
  public static Optional<ProviderAdapter> http(String name) {
    return find(name).map(Adapter::http);
  }

  /** Whether the name is a local (in-process) adapter, which takes no endpoint. */
  public static boolean isLocal(String name) {
    return find(name).map(Adapter::local).orElse(false);
  }

  /** Every name the manifest may use, sorted. */
  public static Set<String> names() {
    return new TreeSet<>(ALL.keySet());
  }
}
