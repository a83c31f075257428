package dev.georesolver.issues;

import com.hazelcast.config.Config;
import dev.georesolver.cli.Cli;
import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.TestPki;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Only a process holding a certificate of the cluster's CA exchanges messages with a clustered resolver, which binds only its configured address and refuses to start clustered without certificates. */
class Issue23ClusterTrustTest {

  private static final String CLUSTER = "georesolver-trust-" + ProcessHandle.current().pid();
  private static final JsonObject ASK = new JsonObject().put("q", "Paris");

  private static TestPki pki;
  private static Path manifestFile;
  private static ResolverProcess node;
  private static int hz;
  private static int busPort;
  private static final List<Vertx> joined = new ArrayList<>();

  @BeforeAll
  static void clusteredResolver() throws Exception {
    pki = TestPki.create(Files.createTempDirectory(TestState.freshDir(), "pki"));
    manifestFile = Files.createTempFile(TestState.freshDir(), "trust", ".yaml");
    Files.writeString(manifestFile, manifest().tier("world", "gazetteer", null, "locality", 1000).yaml());
    hz = freePort();
    busPort = freePort();
    TestPki.Issued cert = pki.member("resolver");
    node = ResolverProcess.start(Map.of(), List.of(), 90, "--manifest", manifestFile.toString(), "--port", "0",
        "--event-loops", "1", "--cluster", "--cluster-name", CLUSTER, "--cluster-host", "127.0.0.1",
        "--cluster-port", Integer.toString(hz), "--bus-port", Integer.toString(busPort),
        "--cluster-cert", cert.cert().toString(), "--cluster-key", cert.key().toString(), "--cluster-ca", pki.caFile().toString());
  }

  @AfterAll
  static void stop() throws Exception {
    for (Vertx v : joined) {
      v.close().await();
    }
    if (node != null) {
      node.close();
    }
  }

  @Test
  @DisplayName("a member without a certificate, or with one of another CA, joins Hazelcast but exchanges no message; one of the cluster's CA does")
  void untrustedMembersExchangeNothing() throws Exception {
    // The control first: a member the CA certified is answered, so the resolver's consumers are known cluster-wide.
    Vertx trusted = join(mutualTls(new EventBusOptions(), pki.member("trusted"), pki.caFile()));
    Object answer = ask(trusted, 12);
    assertThat(answer).as("the trusted member's answer; the resolver wrote:\n" + String.join("\n", node.stdout())
        + String.join("\n", node.stderr())).isInstanceOf(JsonObject.class);
    assertThat(((JsonObject) answer).getString("status")).isEqualTo("resolved");

    Vertx plaintext = join(new EventBusOptions());
    assertRefused(ask(plaintext, 3), "a member without TLS");

    TestPki other = TestPki.create(Files.createTempDirectory(TestState.freshDir(), "other-pki"));
    // It trusts the real CA, so only the resolver's check of the member's certificate stands in its way.
    Vertx forged = join(mutualTls(new EventBusOptions(), other.member("intruder"), pki.caFile()));
    assertRefused(ask(forged, 3), "a member whose certificate another CA signed");
  }

  @Test
  @DisplayName("Hazelcast and the event bus listen on --cluster-host only, not on every interface")
  void bindsTheConfiguredAddressOnly() throws IOException {
    for (int port : new int[] {hz, busPort}) {
      List<String> listening = listeningAddresses(port);
      assertThat(listening).as("sockets listening on port " + port).isNotEmpty();
      assertThat(listening).as("addresses listening on port " + port).allMatch(Issue23ClusterTrustTest::loopback);
    }
  }

  @Test
  @DisplayName("a clustered start without certificates is refused with exit 2, naming each missing flag; the insecure flag excludes certificates")
  void clusteredStartWithoutCertificatesIsRefused() {
    Run none = cli("--cluster", "--manifest", manifestFile.toString(), "--port", "0");
    assertThat(none.status()).as(none.err()).isEqualTo(2);
    assertThat(none.err()).contains("refusing to start", "--cluster-cert", "--cluster-key", "--cluster-ca", "--cluster-host",
        "--cluster-insecure");

    Run unreadable = cli("--cluster", "--manifest", manifestFile.toString(), "--port", "0", "--cluster-host", "127.0.0.1",
        "--cluster-cert", "/nonexistent/node.pem", "--cluster-key", "/nonexistent/node.key", "--cluster-ca", pki.caFile().toString());
    assertThat(unreadable.status()).as(unreadable.err()).isEqualTo(2);
    assertThat(unreadable.err()).contains("'/nonexistent/node.pem' is not a readable file", "--cluster-key")
        .doesNotContain("--cluster-ca (");

    Run both = cli("--cluster", "--cluster-insecure", "--manifest", manifestFile.toString(), "--port", "0",
        "--cluster-ca", pki.caFile().toString());
    assertThat(both.status()).as(both.err()).isEqualTo(2);
    assertThat(both.err()).contains("--cluster-insecure turns TLS between nodes off");
  }

  private record Run(int status, String err) {}

  private static Run cli(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Cli.run(args, Map.of(), o, e);
    }
    return new Run(status, err.toString(StandardCharsets.UTF_8));
  }

  private static void assertRefused(Object outcome, String who) {
    assertThat(outcome).as(who + ": no answer").isInstanceOf(ReplyException.class);
    // NO_HANDLERS would mean it never saw the resolver's consumers; it did, and could not reach them.
    assertThat(((ReplyException) outcome).failureType()).as(who + ": " + outcome).isNotEqualTo(ReplyFailure.NO_HANDLERS);
  }

  /**
   * The answer to {@link #ASK} on geocode.resolve, or the last failure of {@code tries} asks; a
   * member that has not yet seen the resolver's consumers asks again meanwhile (for up to a minute).
   * The first TLS connections between two members take seconds on a loaded machine, so an ask that
   * times out is asked again.
   */
  private static Object ask(Vertx v, int tries) throws InterruptedException {
    long until = System.nanoTime() + 60_000_000_000L;
    ReplyException last = null;
    for (int i = 0; i < tries; ) {
      try {
        return v.eventBus().<JsonObject>request("geocode.resolve", ASK, new DeliveryOptions().setSendTimeout(5000)).await().body();
      } catch (ReplyException e) {
        last = e;
        if (e.failureType() == ReplyFailure.NO_HANDLERS && System.nanoTime() < until) {
          Thread.sleep(200);
          continue;
        }
        i++;
      }
    }
    return last;
  }

  private static EventBusOptions mutualTls(EventBusOptions eb, TestPki.Issued cert, Path ca) {
    return eb.setSsl(true).setClientAuth(ClientAuth.REQUIRED)
        .setKeyCertOptions(new PemKeyCertOptions().setCertPath(cert.cert().toString()).setKeyPath(cert.key().toString()))
        .setTrustOptions(new PemTrustOptions().addCertPath(ca.toString()));
  }

  /** A plain Vert.x member of the resolver's Hazelcast cluster (not the resolver's code), with {@code eb} for its event bus. */
  private static Vertx join(EventBusOptions eb) throws IOException {
    System.setProperty("hazelcast.logging.type", "slf4j");
    Config c = ConfigUtil.loadConfig();
    c.setClusterName(CLUSTER);
    c.setProperty("hazelcast.phone.home.enabled", "false");
    c.setProperty("hazelcast.wait.seconds.before.join", "1");
    c.setProperty("hazelcast.local.localAddress", "127.0.0.1");
    c.getNetworkConfig().setPort(freePort()).setPortAutoIncrement(false);
    c.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    c.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
    c.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).setMembers(List.of("127.0.0.1:" + hz));
    eb.setHost("127.0.0.1");
    Vertx v = Vertx.builder().with(new VertxOptions().setEventBusOptions(eb)).withClusterManager(new HazelcastClusterManager(c))
        .buildClustered().await();
    joined.add(v);
    return v;
  }

  /** The local addresses of the sockets listening on {@code port} (Linux: /proc/net/tcp and tcp6, hex as the kernel writes them). */
  private static List<String> listeningAddresses(int port) throws IOException {
    List<String> out = new ArrayList<>();
    String hexPort = String.format("%04X", port);
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path p = Path.of(table);
      if (!Files.exists(p)) {
        continue;
      }
      for (String line : Files.readAllLines(p)) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 3 && "0A".equals(f[3]) && f[1].endsWith(":" + hexPort)) {
          out.add(f[1].substring(0, f[1].indexOf(':')));
        }
      }
    }
    return out;
  }

  private static boolean loopback(String hexAddress) {
    return hexAddress.equals("0100007F") || hexAddress.equals("0000000000000000FFFF00000100007F")
        || hexAddress.equals("00000000000000000000000001000000");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
