package dev.georesolver.provider;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The adapters the manifest may name. HTTP adapters are stateless singletons; local adapters
 * ({@code cached_index}, {@code gazetteer}) need runtime resources and are built by the tier
 * verticle, so only their names are listed here.
 */
public final class AdapterRegistry {

  /** The cached spatial index rung (DESIGN §7): no endpoint. */
  public static final String CACHED_INDEX = "cached_index";
  /** The offline gazetteer rung: no endpoint. */
  public static final String GAZETTEER = "gazetteer";

  private static final Map<String, ProviderAdapter> HTTP = Map.of(
      "generic", new GenericAdapter(),
      "nominatim", new NominatimAdapter(),
      "pelias", new PeliasAdapter(),
      "photon", new PhotonAdapter(),
      "google", new GoogleAdapter(),
      "here", new HereAdapter(),
      "mapbox", new MapboxAdapter(),
      "mapbox_v5", new MapboxV5Adapter(),
      "opencage", new OpenCageAdapter(),
      "arcgis", new ArcGisAdapter());

  private AdapterRegistry() {}

  /** The HTTP adapter of that name, if any. */
  public static Optional<ProviderAdapter> http(String name) {
    return Optional.ofNullable(HTTP.get(name));
  }

  /** Whether the name is a local (in-process) adapter, which takes no endpoint. */
  public static boolean isLocal(String name) {
    return CACHED_INDEX.equals(name) || GAZETTEER.equals(name);
  }

  /** Whether the named adapter answers reverse lookups (local adapters all do). */
  public static boolean supportsReverse(String name) {
    return isLocal(name) || http(name).map(ProviderAdapter::supportsReverse).orElse(false);
  }

  /** Every name the manifest may use, sorted. */
  public static Set<String> names() {
    Set<String> s = new TreeSet<>(HTTP.keySet());
    s.add(CACHED_INDEX);
    s.add(GAZETTEER);
    return s;
  }
}
