package dev.georesolver.support.cluster;

import com.hazelcast.config.Config;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.util.List;

/**
 * Another team's service, not the resolver: a plain Vert.x process that joins the resolver's
 * cluster with {@code vertx-hazelcast} and uses nothing of the resolver's code — only the JSON
 * contract of its addresses — and asks over the event bus. {@code OtherService <cluster name> <own hazelcast port> <member host:port> <address> <json>...}
 * sends each JSON request to its address ({@code geocode.resolve}, {@code geocode.reverse}; an
 * argument {@code @<address>} switches the address for those after it) and prints one line per
 * answer: {@code {"ok": true, "body": …}} or {@code {"ok": false, "failure": type, "code", "message"}}.
 * While the cluster is still forming (this member has not yet seen the chains' registrations:
 * {@code NO_HANDLERS}) it asks again, for up to 30 s per request.
 *
 * <p>The resolver's cluster talks mutual TLS only: the service presents the certificate the
 * cluster's CA issued it, and trusts that CA alone (system properties {@code other.cert},
 * {@code other.key}, {@code other.ca}: PEM files).
 */
public final class OtherService {

  private OtherService() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("hazelcast.logging.type", "slf4j");
    Config c = ConfigUtil.loadConfig();
    c.setClusterName(args[0]);
    c.setProperty("hazelcast.phone.home.enabled", "false");
    c.setProperty("hazelcast.wait.seconds.before.join", "1");
    c.setProperty("hazelcast.local.localAddress", "127.0.0.1");
    c.getNetworkConfig().setPort(Integer.parseInt(args[1])).setPortAutoIncrement(false);
    c.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    c.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
    c.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).setMembers(List.of(args[2]));
    VertxOptions o = new VertxOptions();
    o.getEventBusOptions().setHost("127.0.0.1");
    if (System.getProperty("other.cert") != null) {
      o.getEventBusOptions().setSsl(true).setClientAuth(ClientAuth.REQUIRED)
          .setKeyCertOptions(new PemKeyCertOptions().setCertPath(System.getProperty("other.cert"))
              .setKeyPath(System.getProperty("other.key")))
          .setTrustOptions(new PemTrustOptions().addCertPath(System.getProperty("other.ca")));
    }
    Vertx vertx = Vertx.builder().with(o).withClusterManager(new HazelcastClusterManager(c)).buildClustered().await();
    String address = "geocode.resolve";
    for (int i = 3; i < args.length; i++) {
      if (args[i].startsWith("@")) {
        address = args[i].substring(1);
        continue;
      }
      JsonObject request = new JsonObject(args[i]);
      long until = System.nanoTime() + 30_000_000_000L;
      while (true) {
        try {
          JsonObject body = vertx.eventBus().<JsonObject>request(address, request, new DeliveryOptions().setSendTimeout(10_000))
              .await().body();
          System.out.println(new JsonObject().put("ok", true).put("body", body).encode());
          break;
        } catch (ReplyException e) {
          if (e.failureType() == ReplyFailure.NO_HANDLERS && System.nanoTime() < until) {
            Thread.sleep(200);
            continue;
          }
          System.out.println(new JsonObject().put("ok", false).put("failure", e.failureType().name())
              .put("code", e.failureCode()).put("message", e.getMessage()).encode());
          break;
        }
      }
    }
    System.out.flush();
    vertx.close().await();
    System.exit(0);
  }
}
