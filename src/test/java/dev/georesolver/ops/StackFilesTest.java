package dev.georesolver.ops;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.config.TierConfig;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.Stack;
import dev.georesolver.support.Tools;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.yaml.snakeyaml.Yaml;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compose stack's files are valid and agree with each other and with the resolver: compose
 * validates, the image is multi-stage and runs as a non-root user with a health check, the stack's
 * manifest loads and names the compose services, and every metric the dashboard and the alerts
 * read is one a running resolver exports.
 */
@ExtendWith(VertxExtension.class)
class StackFilesTest {


  private static final Pattern METRIC = Pattern.compile("\\bgeoresolver_[a-z_]+");
  private static final Pattern RECORDED = Pattern.compile("\\bgeoresolver:[a-z_]+:[a-z0-9_]+");

  @Test
  @DisplayName("docker-compose config accepts docker-compose.yml: resolver built here, Redis with AOF, Nominatim, Prometheus, Grafana")
  @SuppressWarnings("unchecked")
  void composeIsValid() throws Exception {
    String compose = Tools.find("docker-compose", "DOCKER_COMPOSE", null);
    Tools.Result quiet = Tools.run(List.of(compose, "config", "-q"), Map.of(), 60);
    assertThat(quiet.exit()).as(quiet.output()).isZero();

    Tools.Result full = Tools.run(List.of(compose, "config"), Map.of(), 60);
    assertThat(full.exit()).as(full.output()).isZero();
    Map<String, Object> services = (Map<String, Object>) ((Map<String, Object>) new Yaml().load(full.output())).get("services");
    assertThat(services).containsOnlyKeys("resolver", "redis", "nominatim", "prometheus", "grafana");
    Map<String, Object> resolver = (Map<String, Object>) services.get("resolver");
    assertThat(((Map<String, Object>) resolver.get("build")).get("context").toString()).isEqualTo(Path.of("").toAbsolutePath().toString());
    assertThat((List<String>) resolver.get("command")).containsSequence("--manifest", "/app/conf/stack/manifest.yaml")
        .containsSequence("--redis", "redis://redis:6379");
    assertThat((List<String>) ((Map<String, Object>) services.get("redis")).get("command")).containsSequence("--appendonly", "yes");
    assertThat(((Map<String, Object>) services.get("redis")).get("volumes").toString()).contains("/data");
    assertThat(((Map<String, Object>) ((Map<String, Object>) services.get("nominatim")).get("environment")).get("PBF_URL").toString())
        .endsWith("monaco-latest.osm.pbf");
    assertThat(((Map<String, Object>) services.get("prometheus")).get("volumes").toString()).contains("conf/prometheus");
    assertThat(((Map<String, Object>) services.get("grafana")).get("volumes").toString())
        .contains("conf/grafana/provisioning").contains("conf/grafana/dashboards");
  }

  @Test
  @DisplayName("the Dockerfile builds on JDK 17 in one stage and runs the jar on a JRE 17 or newer in another, as a non-root user with a health check")
  void dockerfile() throws Exception {
    String d = Files.readString(Path.of("Dockerfile"));
    List<String> froms = Pattern.compile("(?m)^FROM (\\S+)").matcher(d).results().map(m -> m.group(1)).toList();
    assertThat(froms).hasSize(2);
    assertThat(froms.get(0)).contains("maven").contains("17");
    assertThat(froms.get(1)).isEqualTo("eclipse-temurin:${JRE}-jre");
    java.util.regex.Matcher jre = Pattern.compile("(?m)^ARG JRE=(\\d+)$").matcher(d);
    assertThat(jre.find()).as("a default for the runtime's JRE").isTrue();
    assertThat(Integer.parseInt(jre.group(1))).isGreaterThanOrEqualTo(17);
    assertThat(d).as("the collector comes from the launcher's table").contains("COPY scripts/jvm.sh /app/jvm.sh")
        .containsPattern("(?m)^ENTRYPOINT \\[\"/app/jvm.sh\", \"exec\"");
    assertThat(d).containsPattern("(?m)^USER georesolver")
        .containsPattern("(?m)^HEALTHCHECK .*\\n.*/health/live")
        .contains("-XX:+ExitOnOutOfMemoryError")
        .contains("COPY --from=build /src/target/georesolver.jar");
    assertThat(Files.readString(Path.of("pom.xml"))).contains("<finalName>georesolver</finalName>");
  }

  @Test
  @DisplayName("the stack's manifest loads, keeps Redis as its store and calls the compose Nominatim")
  void stackManifest() throws Exception {
    Manifest m = ManifestLoader.load(Path.of("conf/stack/manifest.yaml"), Map.of());
    assertThat(m.routing().idempotency().redis()).isTrue();
    assertThat(m.enabledTiers()).extracting(TierConfig::name).containsExactly("local_nominatim", "cached_index", "world_gazetteer");
    TierConfig nominatim = m.enabledTiers().get(0);
    assertThat(nominatim.adapter()).isEqualTo("nominatim");
    assertThat(nominatim.endpoint()).isEqualTo("http://nominatim:8080");
    assertThat(ManifestLoader.load(Path.of("conf/stack/manifest.yaml"), Map.of("GEO_GOOGLE_API_KEY", "k")).enabledTiers())
        .extracting(TierConfig::name).startsWith("primary_commercial");
  }

  @Test
  @DisplayName("the dashboard parses, uses the provisioned datasource, and reads only metrics the resolver exports or the rules record")
  void dashboardAndAlertsReadRealMetrics(Vertx vertx) throws Exception {
    JsonObject dash = new JsonObject(Files.readString(Path.of("conf/grafana/dashboards/georesolver.json")));
    String datasource = Files.readString(Path.of("conf/grafana/provisioning/datasources/prometheus.yml"));
    List<String> exprs = new ArrayList<>();
    JsonArray panels = dash.getJsonArray("panels");
    assertThat(panels).isNotEmpty();
    for (int i = 0; i < panels.size(); i++) {
      JsonObject p = panels.getJsonObject(i);
      assertThat(p.getJsonObject("datasource").getString("uid")).as(p.getString("title")).isEqualTo("prometheus");
      JsonArray targets = p.getJsonArray("targets");
      assertThat(targets).as(p.getString("title")).isNotEmpty();
      for (int t = 0; t < targets.size(); t++) {
        exprs.add(targets.getJsonObject(t).getString("expr"));
      }
    }
    assertThat(datasource).contains("uid: prometheus").contains("url: http://prometheus:9090");
    assertThat(dash.getString("uid")).isEqualTo("georesolver");
    List<String> titles = panels.stream().map(o -> ((JsonObject) o).getString("title")).toList();
    assertThat(String.join("|", titles)).contains("Routing distribution").contains("Refusal").contains("Breakers")
        .contains("Latency percentiles").contains("Reconcile backlog");

    String rules = Files.readString(Path.of("conf/prometheus/alerts.yml"));
    Set<String> recorded = Pattern.compile("record: (\\S+)").matcher(rules).results().map(m -> m.group(1)).collect(Collectors.toSet());
    Set<String> exported = scrapeOfABusyResolver(vertx);

    Set<String> read = new TreeSet<>();
    Set<String> recordedRead = new TreeSet<>();
    for (String text : List.of(String.join("\n", exprs), rulesExpressions(rules))) {
      collect(METRIC, text, read);
      collect(RECORDED, text, recordedRead);
    }
    assertThat(read).contains("georesolver_requests_total", "georesolver_refusals_total", "georesolver_breaker_state",
        "georesolver_request_seconds_bucket", "georesolver_reconcile_oldest_pending_age_seconds");
    Set<String> missing = new TreeSet<>(read);
    missing.removeAll(exported);
    assertThat(missing).as("read by the dashboard or the alerts but not exported").isEmpty();
    assertThat(recorded).containsAll(recordedRead);
  }

  /** The expressions of alerts.yml, without its comments (which name metrics in prose). */
  private static String rulesExpressions(String rules) {
    return rules.lines().filter(l -> !l.strip().startsWith("#")).filter(l -> !l.contains("description:") && !l.contains("summary:"))
        .collect(Collectors.joining("\n"));
  }

  private static void collect(Pattern p, String text, Set<String> into) {
    Matcher m = p.matcher(text);
    while (m.find()) {
      into.add(m.group());
    }
  }

  /**
   * The metric names of a resolver with Redis that has served a degraded answer and a refusal and
   * seen a breaker open.
   */
  private static Set<String> scrapeOfABusyResolver(Vertx vertx) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      FakeProvider alpha = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
      FakeProvider bravo = FakeProvider.start(vertx, r -> r.getParam("q").contains("Nowhere")
          ? FakeProvider.status(404, "") : json(generic(7.42, 43.73, "EPSG:4326", 0.8))).await();
      Stack s = Stack.deployWithRedis(vertx, manifest()
          .tier("alpha", "generic", alpha.url(), "exact", 300, "circuit_breaker: { failure_threshold: 1, half_open_timeout_ms: 60000, success_threshold: 1 }")
          .tier("bravo", "generic", bravo.url(), "open_data", 300)
          .yaml(), redis.url()).await();
      assertThat(s.geocode("1 Metric Way").await().bodyAsJsonObject().getBoolean("degraded")).isTrue();
      assertThat(s.geocode("2 Nowhere Lane").await().bodyAsJsonObject().getString("status")).isEqualTo("refused");
      String scrape = s.get("/metrics").await().bodyAsString();
      return scrape.lines().filter(l -> l.startsWith("georesolver_"))
          .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
