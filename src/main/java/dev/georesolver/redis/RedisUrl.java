package dev.georesolver.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The shared store's URL as the operator wrote it ({@code --redis}, {@code GEO_REDIS_URL}), read into
 * what the Redis client needs: one server ({@code redis://}, {@code rediss://}, {@code unix://}) or a
 * Redis Cluster ({@code redis-cluster://host:port,host:port,...}, or {@code rediss-cluster://} with
 * TLS). A cluster URL lists seed nodes: any reachable one tells the client the whole topology, so
 * listing every master is not required, only advisable. User and password written once before the
 * first host apply to every node; a path ({@code /0}) is refused in cluster mode, which has no
 * databases but 0.
 *
 * <p>Immutable and thread-safe. {@link #toString()} never shows the password.
 *
 * @param cluster whether this is a Redis Cluster
 * @param endpoints the connection strings to hand to the client, one per node ({@code redis://[user:pass@]host:port})
 */
public record RedisUrl(boolean cluster, List<String> endpoints) {

  /** The scheme of a plain Redis Cluster URL. */
  public static final String CLUSTER_SCHEME = "redis-cluster";
  /** The scheme of a Redis Cluster URL over TLS. */
  public static final String TLS_CLUSTER_SCHEME = "rediss-cluster";

  public RedisUrl {
    endpoints = List.copyOf(endpoints);
  }

  /**
   * Reads {@code url}.
   *
   * @throws IllegalArgumentException naming what is wrong (never echoing a password)
   */
  public static RedisUrl parse(String url) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("the Redis URL is empty");
    }
    String s = url.trim();
    int colon = s.indexOf("://");
    String scheme = colon < 0 ? "" : s.substring(0, colon).toLowerCase(Locale.ROOT);
    if (!CLUSTER_SCHEME.equals(scheme) && !TLS_CLUSTER_SCHEME.equals(scheme)) {
      return new RedisUrl(false, List.of(s));
    }
    String rest = s.substring(colon + 3);
    String userInfo = "";
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      userInfo = rest.substring(0, at + 1);
      rest = rest.substring(at + 1);
    }
    int slash = rest.indexOf('/');
    if (slash >= 0) {
      String path = rest.substring(slash);
      if (!path.equals("/") && !path.equals("/0")) {
        throw new IllegalArgumentException("a Redis Cluster has only database 0; drop the path from the " + scheme + ":// URL");
      }
      rest = rest.substring(0, slash);
    }
    String nodeScheme = TLS_CLUSTER_SCHEME.equals(scheme) ? "rediss" : "redis";
    List<String> out = new ArrayList<>();
    for (String node : rest.split(",")) {
      String n = node.trim();
      if (n.isEmpty()) {
        continue;
      }
      out.add(nodeScheme + "://" + userInfo + hostPort(n, scheme));
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(scheme + ":// lists no nodes: write " + scheme + "://host:port,host:port");
    }
    return new RedisUrl(true, out);
  }

  private static String hostPort(String node, String scheme) {
    try {
      URI u = new URI("redis://" + node);
      if (u.getHost() == null || u.getPort() < 1 || u.getPort() > 65535 || u.getRawPath() != null && !u.getRawPath().isEmpty()) {
        throw new URISyntaxException(node, "not host:port");
      }
      return u.getHost() + ":" + u.getPort();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(scheme + ":// node '" + printable(node) + "' is not host:port");
    }
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && b.length() < 64; i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return b.toString();
  }

  @Override
  public String toString() {
    List<String> safe = new ArrayList<>(endpoints.size());
    for (String e : endpoints) {
      safe.add(e.replaceAll("//[^@/]*@", "//***@"));
    }
    return (cluster ? "cluster " : "") + String.join(",", safe);
  }
}
