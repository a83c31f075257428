package dev.georesolver.cli;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Joins a Vert.x cluster through Hazelcast ({@code vertx-hazelcast}): TCP/IP join to the listed
 * members, multicast and auto-detection off, Hazelcast's logging through SLF4J (so through our
 * Logback configuration, where {@code com.hazelcast} is at WARN unless
 * {@code GEO_HAZELCAST_LOG_LEVEL} says otherwise), no phone-home.
 *
 * <p>The one class that names Hazelcast: {@code serve} reaches it only with {@code --cluster}, so a
 * process started without it loads no Hazelcast class and starts no member.
 *
 * <p>Trust between nodes: the event bus, which carries every message between nodes, runs over
 * mutual TLS ({@link Tls}): each node presents a certificate and accepts a peer only when the
 * peer's certificate is signed by the cluster's CA, both as a server (client authentication
 * required) and as a client. Hazelcast (membership and the registry of which node consumes which
 * address, no message bodies) has no authentication in its open-source edition, so it binds only
 * the configured address ({@code hazelcast.socket.bind.any=false}) and its port must be reachable
 * from the cluster's nodes only. A clustered start without certificates is refused
 * ({@link #missing}) unless it is explicitly insecure, for local development.
 *
 * <p>Failure detection: a member that stops answering heartbeats (sent every second) is taken out
 * of the cluster after {@value #NO_HEARTBEAT_S} s, and with it its event-bus consumers; a system
 * property {@code -Dhazelcast.max.no.heartbeat.seconds=N} (or any other {@code hazelcast.*}
 * property) set on the JVM wins over these defaults.
 */
final class ClusterBus {

  /** Seconds without a heartbeat before a member is taken out: short, since a dead node's consumers are asked until then. */
  static final int NO_HEARTBEAT_S = 10;

  /**
   * How to join.
   *
   * @param name the cluster's name: only members with the same name join ({@code GEO_CLUSTER_NAME}, default {@code georesolver})
   * @param members other members' Hazelcast addresses, {@code host:port}
   * @param host this member's address (Hazelcast and the event bus), or null for Hazelcast's choice
   * @param port this member's Hazelcast port
   * @param busPort the event bus's port, 0 for any free one
   * @param tls the certificates for mutual TLS on the event bus, or null for a plaintext bus (only
   *     with {@code --cluster-insecure})
   */
  record Settings(String name, List<String> members, String host, int port, int busPort, Tls tls) {}

  /**
   * This node's certificate and key, and the CA whose signature a peer's certificate must carry:
   * PEM files. Any certificate the CA signed is a member (the event bus checks no host name, since
   * nodes reach each other by address), so the CA must sign cluster members only.
   *
   * @param cert this node's certificate chain (PEM), presented as server and as client
   * @param key its private key (PEM, PKCS#8 or PKCS#1)
   * @param ca the cluster CA's certificate (PEM): the only authority a peer is checked against
   */
  record Tls(Path cert, Path key, Path ca) {}

  /**
   * What a clustered start lacks to be secure, one entry per missing flag (empty when nothing is):
   * the three certificate files, each readable, and {@code --cluster-host}, the one address
   * Hazelcast and the event bus bind.
   */
  static List<String> missing(String cert, String key, String ca, String host) {
    List<String> out = new ArrayList<>();
    file(out, "--cluster-cert", "GEO_CLUSTER_CERT", "this node's certificate", cert);
    file(out, "--cluster-key", "GEO_CLUSTER_KEY", "its private key", key);
    file(out, "--cluster-ca", "GEO_CLUSTER_CA", "the cluster CA's certificate", ca);
    if (host == null || host.isBlank()) {
      out.add("--cluster-host (GEO_CLUSTER_HOST): the one address Hazelcast and the event bus bind");
    }
    return out;
  }

  private static void file(List<String> out, String flag, String env, String what, String value) {
    if (value == null || value.isBlank()) {
      out.add(flag + " (" + env + "): " + what + ", PEM");
    } else if (!Files.isReadable(Path.of(value.strip()))) {
      out.add(flag + " (" + env + "): " + what + ", PEM; '" + printable(value.strip()) + "' is not a readable file");
    }
  }

  private static String printable(String s) {
    return (s.length() > 200 ? s.substring(0, 200) + "..." : s).replaceAll("[^\\x20-\\x7e]", "?");
  }

  private ClusterBus() {}

  /** A clustered Vert.x on {@code options}, once this member has joined. */
  static Future<Joined> join(VertxOptions options, Settings s) {
    // Hazelcast logs its first lines before it reads the configuration's properties.
    if (System.getProperty("hazelcast.logging.type") == null) {
      System.setProperty("hazelcast.logging.type", "slf4j");
    }
    HazelcastClusterManager manager = new HazelcastClusterManager(config(s));
    if (s.host() != null) {
      options.getEventBusOptions().setHost(s.host());
    }
    options.getEventBusOptions().setPort(s.busPort());
    if (s.tls() != null) {
      mutualTls(options.getEventBusOptions(), s.tls());
    }
    return Vertx.builder().with(options).withClusterManager(manager).buildClustered()
        .map(vertx -> new Joined(vertx, manager.getNodeId(), members(manager)));
  }

  /**
   * Mutual TLS on the event bus: this node's certificate offered as server and as client, the
   * cluster CA the only trust (no trust-all), and a client certificate required of every peer that
   * connects.
   */
  static EventBusOptions mutualTls(EventBusOptions eb, Tls tls) {
    return eb.setSsl(true)
        .setKeyCertOptions(new PemKeyCertOptions().setCertPath(tls.cert().toString()).setKeyPath(tls.key().toString()))
        .setTrustOptions(new PemTrustOptions().addCertPath(tls.ca().toString()))
        .setTrustAll(false)
        .setClientAuth(ClientAuth.REQUIRED);
  }

  /**
   * A joined node.
   *
   * @param vertx the clustered Vert.x
   * @param nodeId this node's id in the cluster
   * @param members the cluster's members when it joined
   */
  record Joined(Vertx vertx, String nodeId, int members) {}

  private static int members(HazelcastClusterManager manager) {
    return manager.getNodes().size();
  }

  /** The Hazelcast configuration: Vert.x's own (its maps and multimap), joined over TCP/IP only. */
  static Config config(Settings s) {
    Config c = ConfigUtil.loadConfig();
    c.setClusterName(s.name());
    property(c, "hazelcast.logging.type", "slf4j");
    property(c, "hazelcast.phone.home.enabled", "false");
    // Vert.x leaves the cluster on close (the resolver's shutdown hook): Hazelcast's own hook would race it.
    property(c, "hazelcast.shutdownhook.enabled", "false");
    property(c, "hazelcast.heartbeat.interval.seconds", "1");
    property(c, "hazelcast.max.no.heartbeat.seconds", Integer.toString(NO_HEARTBEAT_S));
    // The members are listed: no need to wait 5 s for others to show up before forming a cluster.
    property(c, "hazelcast.wait.seconds.before.join", "1");
    if (s.host() != null) {
      property(c, "hazelcast.local.localAddress", s.host());
      // Listen on that address only, and connect out from it: not on every interface of the machine.
      property(c, "hazelcast.socket.bind.any", "false");
      property(c, "hazelcast.socket.client.bind.any", "false");
    }
    NetworkConfig n = c.getNetworkConfig();
    n.setPort(s.port()).setPortAutoIncrement(false);
    JoinConfig j = n.getJoin();
    j.getMulticastConfig().setEnabled(false);
    j.getAutoDetectionConfig().setEnabled(false);
    List<String> members = new ArrayList<>(s.members());
    if (s.host() != null) {
      members.add(s.host() + ":" + s.port());
    }
    j.getTcpIpConfig().setEnabled(true).setMembers(members).setConnectionTimeoutSeconds(2);
    return c;
  }

  /** Sets a Hazelcast property unless the JVM's system properties already name it. */
  private static void property(Config c, String name, String value) {
    if (System.getProperty(name) == null) {
      c.setProperty(name, value);
    }
  }

  /**
   * The members of a {@code --cluster-members} list: {@code host:port} each, comma-separated.
   *
   * @throws IllegalArgumentException naming the entry that is not {@code host:port}
   */
  static List<String> members(String list) {
    List<String> out = new ArrayList<>();
    if (list == null || list.isBlank()) {
      return out;
    }
    for (String part : list.split(",")) {
      String m = part.strip();
      if (m.isEmpty()) {
        continue;
      }
      int colon = m.lastIndexOf(':');
      boolean ok = colon > 0 && colon < m.length() - 1 && m.substring(0, colon).matches("[A-Za-z0-9_.\\-\\[\\]:]{1,253}");
      int port = -1;
      if (ok) {
        try {
          port = Integer.parseInt(m.substring(colon + 1));
        } catch (NumberFormatException e) {
          ok = false;
        }
      }
      if (!ok || port < 1 || port > 65535) {
        throw new IllegalArgumentException("--cluster-members: '" + (m.length() > 64 ? m.substring(0, 64) + "..." : m)
            .replaceAll("[^\\x20-\\x7e]", "?") + "' is not host:port");
      }
      out.add(m);
    }
    return out;
  }

  /** The cluster's name from the environment: {@code GEO_CLUSTER_NAME}, default {@code georesolver}. */
  static String name(String flag, Map<String, String> env) {
    String n = flag != null && !flag.isBlank() ? flag : env.get("GEO_CLUSTER_NAME");
    return n == null || n.isBlank() ? "georesolver" : n.strip();
  }
}
