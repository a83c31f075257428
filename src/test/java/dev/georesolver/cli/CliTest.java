package dev.georesolver.cli;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line's shape: serve by default with today's flags, the environment under the flags, help, version, exit statuses. */
class CliTest {

  private static final PrintStream NOWHERE = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

  private static ServeCommand serve(Map<String, String> env, String... args) {
    CommandLine cl = Cli.commandLine(new Cli.Context(env, NOWHERE, NOWHERE));
    CommandLine.ParseResult r = cl.parseArgs(Cli.withDefaultCommand(args));
    return (ServeCommand) r.subcommand().commandSpec().userObject();
  }

  @Test
  @DisplayName("no command is serve: no arguments, or flags first, as java -jar target/georesolver.jar has always been run")
  void serveIsTheDefault() {
    assertThat(Cli.withDefaultCommand(new String[0])).containsExactly("serve");
    assertThat(Cli.withDefaultCommand(new String[] {"--port", "9000"})).containsExactly("serve", "--port", "9000");
    assertThat(Cli.withDefaultCommand(new String[] {"geocode", "x"})).containsExactly("geocode", "x");
    assertThat(Cli.withDefaultCommand(new String[] {"--help"})).containsExactly("--help");
    assertThat(Cli.withDefaultCommand(new String[] {"-V"})).containsExactly("-V");
  }

  @Test
  @DisplayName("serve's defaults: conf/manifest.yaml, port 8080, no Redis, one event loop per processor")
  void serveDefaults() {
    ServeCommand s = serve(Map.of());
    assertThat(s.manifest).isEqualTo("conf/manifest.yaml");
    assertThat(s.port).isEqualTo(8080);
    assertThat(s.redis).isNull();
    assertThat(s.eventLoops).isNull();
  }

  @Test
  @DisplayName("the environment is read, and flags win over it")
  void flagsWinOverEnvironment() {
    Map<String, String> env = Map.of("GEO_MANIFEST", "/etc/m.yaml", "GEO_PORT", "9000", "GEO_REDIS_URL", "redis://env:6379",
        "GEO_EVENT_LOOPS", "3");
    ServeCommand fromEnv = serve(env);
    assertThat(fromEnv.manifest).isEqualTo("/etc/m.yaml");
    assertThat(fromEnv.port).isEqualTo(9000);
    assertThat(fromEnv.redis).isEqualTo("redis://env:6379");
    assertThat(fromEnv.eventLoops).isEqualTo(3);
    ServeCommand flags = serve(env, "--port", "7000", "--redis", "redis://flag:1", "--event-loops", "2");
    assertThat(flags.manifest).isEqualTo("/etc/m.yaml");
    assertThat(flags.port).isEqualTo(7000);
    assertThat(flags.redis).isEqualTo("redis://flag:1");
    assertThat(flags.eventLoops).isEqualTo(2);
    assertThat(serve(Map.of("GEO_PORT", "  ")).port).as("a blank variable is unset").isEqualTo(8080);
  }

  @Test
  @DisplayName("bad flags are exit 2 naming the flag, with the command's usage, and nothing starts")
  void badFlags() {
    assertThat(CliRun.run("--port", "http")).satisfies(r -> {
      assertThat(r.status()).isEqualTo(Exit.USAGE);
      assertThat(r.err()).contains("Invalid value for option '--port': 'http' is not an int").contains("Usage: georesolver serve");
    });
    assertThat(CliRun.run("--port", "70000").err()).contains("--port must be in [0, 65535], got 70000");
    assertThat(CliRun.run("--event-loops", "0").err()).contains("--event-loops must be in [1, 256], got 0");
    assertThat(CliRun.run("--manifest").err()).contains("Missing required parameter for option '--manifest'");
    assertThat(CliRun.run("--redis", "redis-cluster://pw@127.0.0.1:7000,nohost")).satisfies(r -> {
      assertThat(r.status()).isEqualTo(Exit.USAGE);
      assertThat(r.err()).contains("--redis: redis-cluster:// node 'nohost' is not host:port").doesNotContain("pw@");
    });
    assertThat(CliRun.run("--colour")).satisfies(r -> {
      assertThat(r.status()).isEqualTo(Exit.USAGE);
      assertThat(r.err()).contains("Unknown option: '--colour'");
    });
    assertThat(CliRun.run("frobnicate").status()).isEqualTo(Exit.USAGE);
    assertThat(CliRun.run(Map.of("GEO_PORT", "x")).err()).contains("'x' is not an int");
  }

  @Test
  @DisplayName("a role set that cannot serve is refused at start with exit 2, before the manifest is read or anything listens")
  void serveRefusesRolesThatCannotServe() {
    CliRun.Result alone = CliRun.run("--roles", "ingress", "--manifest", "/nonexistent.yaml", "--port", "0");
    assertThat(alone.status()).as(alone.toString()).isEqualTo(Exit.USAGE);
    assertThat(alone.err()).contains("refusing to start: roles ingress without --cluster: nothing could reach the missing "
        + "chain,tiers,state");
    assertThat(CliRun.run(Map.of("GEO_ROLES", "chain,tiers"), "--port", "0").err()).contains("roles chain,tiers without --cluster");
    CliRun.Result unknown = CliRun.run("--roles", "ingress,router");
    assertThat(unknown.status()).isEqualTo(Exit.USAGE);
    assertThat(unknown.err()).contains("unknown role 'router'");
    CliRun.Result members = CliRun.run("--cluster", "--cluster-members", "10.0.0.1:5701,nonsense");
    assertThat(members.status()).isEqualTo(Exit.USAGE);
    assertThat(members.err()).contains("--cluster-members: 'nonsense' is not host:port");
  }

  @Test
  @DisplayName("the cluster flags default to no cluster, all roles, Hazelcast port 5701, any bus port; the environment sets them")
  void clusterFlags() {
    ServeCommand d = serve(Map.of());
    assertThat(d.cluster).isFalse();
    assertThat(d.roles).isEqualTo("all");
    assertThat(d.clusterPort).isEqualTo(5701);
    assertThat(d.busPort).isZero();
    ServeCommand e = serve(Map.of("GEO_CLUSTER", "true", "GEO_CLUSTER_MEMBERS", "a:1,b:2", "GEO_CLUSTER_HOST", "10.0.0.5",
        "GEO_CLUSTER_PORT", "6000", "GEO_ROLES", "tiers", "GEO_BUS_PORT", "6001", "GEO_CLUSTER_NAME", "geo-eu"));
    assertThat(e.cluster).isTrue();
    assertThat(e.clusterMembers).isEqualTo("a:1,b:2");
    assertThat(e.clusterHost).isEqualTo("10.0.0.5");
    assertThat(e.clusterPort).isEqualTo(6000);
    assertThat(e.roles).isEqualTo("tiers");
    assertThat(e.busPort).isEqualTo(6001);
    assertThat(e.clusterName).isEqualTo("geo-eu");
    assertThat(ClusterBus.members("a:1, [::1]:5701")).containsExactly("a:1", "[::1]:5701");
    assertThat(ClusterBus.name(null, Map.of())).isEqualTo("georesolver");
  }

  @Test
  @DisplayName("serve on an invalid manifest: exit 2 with every problem listed, before anything listens")
  void serveRefusesAnInvalidManifest(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, "routing:\n  budget_ms: 0\n  tiers: []\n");
    CliRun.Result r = CliRun.run("--manifest", bad.toString(), "--port", "0");
    assertThat(r.status()).isEqualTo(Exit.USAGE);
    assertThat(r.err()).startsWith("georesolver: refusing to start: " + bad + " is invalid:\n  - routing.budget_ms must be > 0");
    assertThat(CliRun.run("--manifest", dir.resolve("none.yaml").toString()).err())
        .contains("cannot read manifest " + dir.resolve("none.yaml") + ": no such file");
  }

  @ParameterizedTest
  @ValueSource(strings = {"serve", "geocode", "reverse", "batch", "validate"})
  @DisplayName("--help on each command prints its usage on standard output, exit 0")
  void helpForEachCommand(String command) {
    CliRun.Result r = CliRun.run(command, "--help");
    assertThat(r.status()).isZero();
    assertThat(r.out()).startsWith("Usage: georesolver " + command).contains("--help");
    assertThat(r.err()).isEmpty();
  }

  @Test
  @DisplayName("the root's --help lists the commands and the exit statuses; --version names the build")
  void rootHelpAndVersion() {
    CliRun.Result help = CliRun.run("--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("serve", "geocode", "reverse", "batch", "validate", "Exit status:", "130");
    CliRun.Result version = CliRun.run("--version");
    assertThat(version.status()).isZero();
    assertThat(version.out()).startsWith("georesolver ").contains("Java " + Runtime.version().feature());
  }

  @Test
  @DisplayName("the key's variable fills --key, and --help never shows its value")
  void keyFromTheEnvironment() {
    CommandLine cl = Cli.commandLine(new Cli.Context(Map.of("GEO_API_KEY", "s3cret", "GEO_SERVER", "http://h:1"), NOWHERE, NOWHERE));
    GeocodeCommand g = (GeocodeCommand) cl.parseArgs("geocode", "x").subcommand().commandSpec().userObject();
    assertThat(g.where.key).isEqualTo("s3cret");
    assertThat(g.where.server).isEqualTo("http://h:1");
    assertThat(CliRun.run(Map.of("GEO_API_KEY", "s3cret"), "geocode", "--help").out()).doesNotContain("s3cret");
  }
}
