package dev.georesolver.docs;

import dev.georesolver.support.ResolverProcess;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The README and the guides under {@code docs/} say what is true: every relative link and image
 * resolves (a file that exists; a {@code #fragment} a heading of the target makes, by GitHub's
 * anchor rule), the README stays the short front door that maps every guide, and every
 * {@code console} session that needs no network and no running server still runs as shown.
 *
 * <p>How sessions are classified and run (the rules of the Markdown are in {@link Docs}):
 *
 * <ul>
 *   <li>A {@code ```console} block right after {@code <!-- not run: REASON -->} is not run: it needs
 *       a running server, the network, a machine-specific setup or a long run (the reason says
 *       which). Every other console block is run, and fails this test when one of its commands is
 *       not runnable offline by the rule of {@link Docs#whyNotRunnable}: the local file commands,
 *       and the jar's {@code geocode}, {@code reverse}, {@code batch} and {@code validate} without
 *       {@code --server}, {@code --redis} or {@code --cluster}. So no console block is silently
 *       skipped: it is either run or says why not.
 *   <li>Each command runs as shown, with {@code bash -c}, from the repository root, one shell per
 *       command, the blocks of a file in order (a later command may read what an earlier one
 *       wrote), at most {@value #TIMEOUT_S} s each. It must exit 0 (a session shows a non-zero
 *       status with {@code ; echo "exit $?"}), and the output lines shown under it must appear, in
 *       order, in what it printed on standard output and standard error ({@link Docs#missingOutput}).
 *   <li>{@code java -jar target/georesolver.jar ARGS} is run as
 *       {@code java -cp <the test JVM's main classpath> dev.georesolver.cli.Main ARGS}: the same classes
 *       and resources as the jar ({@link ResolverProcess#mainClasspath()}, which is
 *       {@code java.class.path} without the test classes), so the test needs no {@code mvn package}
 *       and runs under {@code mvn test} on a fresh clone. Three JVM options are added: name
 *       resolution through the JDK confined to a hosts file naming only {@code localhost}
 *       ({@code -Dvertx.disableDnsResolver=true -Djdk.net.hosts.file=…}), so the default manifest's
 *       public Nominatim rung fails on DNS here as on the offline machine the sessions were taken
 *       on, and no request leaves the machine even where it has a network; and
 *       {@code -XX:TieredStopAtLevel=1}, since each command is a short-lived JVM.
 *   <li>The environment is the test's without {@code GEO_*}, {@code OTEL_*} and
 *       {@code MANIFEST_GIT_SHA} (a key or an endpoint of the developer's would change the answers),
 *       with {@code LC_ALL=C.UTF-8} (the sessions were taken in a UTF-8 terminal).
 * </ul>
 */
class DocsTest {

  /** Longest one command of a session may take, s: an embedded resolver starts in seconds on a loaded machine. */
  static final int TIMEOUT_S = 180;

  /** The README's length limit: the front door, with everything else in the guides. */
  static final int README_MAX_LINES = 300;

  private static final Path ROOT = Path.of("").toAbsolutePath();
  private static final Path README = ROOT.resolve("README.md");

  private final Map<Path, Docs.Page> pages = new HashMap<>();

  @TempDir
  static Path tmp;

  private Docs.Page page(Path file) {
    return pages.computeIfAbsent(file.toAbsolutePath().normalize(), f -> {
      try {
        return Docs.read(f);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** README.md and every docs/*.md, in that order. */
  static List<Path> markdownFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(README);
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    return files;
  }

  private static String name(Path file) {
    return ROOT.relativize(file.toAbsolutePath()).toString();
  }

  @Test
  @DisplayName("the README is at most 300 lines")
  void readmeIsShort() throws IOException {
    assertThat(Files.readAllLines(README)).as("README.md lines").hasSizeLessThanOrEqualTo(README_MAX_LINES);
  }

  @Test
  @DisplayName("the README links every guide under docs/")
  void readmeMapsEveryGuide() throws IOException {
    List<String> linked = page(README).refs().stream().map(r -> r.destination().replaceAll("#.*", "")).toList();
    List<String> guides = markdownFiles().stream().skip(1).map(DocsTest::name).toList();
    assertThat(linked).as("links of README.md").containsAll(guides);
  }

  @TestFactory
  @DisplayName("every relative link and image in the README and docs/ resolves, anchors included")
  Stream<DynamicTest> linksResolve() throws IOException {
    return markdownFiles().stream().map(f -> DynamicTest.dynamicTest(name(f), () -> {
      Docs.Page p = page(f);
      assertThat(Docs.brokenRefs(p, ROOT, this::page)).as("broken links of %s", name(f)).isEmpty();
    }));
  }

  @Test
  @DisplayName("every shell session is a console block, and every console block is run or says why not")
  void everySessionIsClassified() throws IOException {
    List<String> problems = new ArrayList<>();
    int run = 0;
    for (Path f : markdownFiles()) {
      for (Docs.Block b : page(f).blocks()) {
        if (b.problem() != null) {
          problems.add(name(f) + ":" + b.line() + ": " + b.problem());
        } else if (b.console() && b.notRun() == null) {
          run++;
          for (Docs.Command c : b.commands()) {
            Docs.whyNotRunnable(c.text()).ifPresent(why -> problems.add(name(f) + ":" + c.line() + ": $ " + c.text()
                + "\n    cannot be run offline: " + why + "; mark its block with <!-- not run: REASON --> on the line before it"));
          }
        }
      }
    }
    assertThat(problems).as("console blocks").isEmpty();
    assertThat(run).as("console blocks the test runs").isPositive();
  }

  @TestFactory
  @DisplayName("every console session that needs no network and no server runs as shown")
  Stream<DynamicTest> sessionsRunAsShown() throws IOException {
    Path hosts = tmp.resolve("hosts");
    Files.writeString(hosts, "127.0.0.1 localhost\n::1 localhost\n");
    List<DynamicTest> tests = new ArrayList<>();
    for (Path f : markdownFiles()) {
      for (Docs.Block b : page(f).blocks()) {
        if (b.console() && b.notRun() == null && b.problem() == null
            && b.commands().stream().allMatch(c -> Docs.whyNotRunnable(c.text()).isEmpty())) {
          tests.add(DynamicTest.dynamicTest(name(f) + ":" + b.line(), () -> {
            for (Docs.Command c : b.commands()) {
              runAsShown(c, hosts);
            }
          }));
        }
      }
    }
    assertThat(tests).as("runnable console blocks").isNotEmpty();
    return tests.stream();
  }

  private static void runAsShown(Docs.Command c, Path hosts) throws IOException, InterruptedException {
    String script = c.text().replace(Docs.JAR, "\"$DOCS_JAVA\" $DOCS_JAVA_OPTS -cp \"$DOCS_CLASSPATH\" dev.georesolver.cli.Main");
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(ROOT.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("GEO_") || k.startsWith("OTEL_") || k.equals("MANIFEST_GIT_SHA"));
    env.put("LC_ALL", "C.UTF-8");
    env.put("DOCS_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.put("DOCS_CLASSPATH", ResolverProcess.mainClasspath());
    env.put("DOCS_JAVA_OPTS", "-Dvertx.disableDnsResolver=true -Djdk.net.hosts.file=" + hosts + " -XX:TieredStopAtLevel=1");
    Path out = Files.createTempFile(tmp, "session", ".out");
    pb.redirectOutput(out.toFile());
    Process p = pb.start();
    if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      fail(c + "\ndid not finish in " + TIMEOUT_S + " s; it printed:\n" + Files.readString(out, StandardCharsets.UTF_8));
    }
    String printed = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(c + "\nexit status (it printed:\n" + printed + ")").isZero();
    Optional<String> missing = Docs.missingOutput(c.shown(), printed);
    if (missing.isPresent()) {
      fail(c + "\ndid not print, in the order shown:\n    " + missing.get() + "\nit printed:\n" + printed);
    }
  }
}
